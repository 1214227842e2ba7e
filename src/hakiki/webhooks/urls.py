"""Validation of endpoint URLs: https in live mode, and no private, loopback, link-local or
otherwise non-public address (so a webhook cannot be aimed at the server's own network) unless
the operator allows it with ``HAKIKI_WEBHOOKS_ALLOW_PRIVATE``."""

from __future__ import annotations

import asyncio
import ipaddress
import socket
from urllib.parse import urlsplit

MAX_URL_LENGTH = 2000


class UrlRefused(ValueError):
    """The URL may not receive webhooks; the message says why."""


def check_shape(url: str, *, live: bool) -> str:
    """The URL's host, once its scheme and form are acceptable."""
    if len(url) > MAX_URL_LENGTH:
        raise UrlRefused(f"must be at most {MAX_URL_LENGTH} characters")
    try:
        parts = urlsplit(url)
        parts.port  # noqa: B018  (raises ValueError for a port out of range)
    except ValueError as exc:
        raise UrlRefused(f"is not a valid URL: {exc}") from exc
    allowed = ("https",) if live else ("https", "http")
    if parts.scheme not in allowed:
        raise UrlRefused(
            "must use https with a live key" if live else "must be an http or https URL"
        )
    if not parts.hostname:
        raise UrlRefused("has no host")
    if parts.username or parts.password:
        raise UrlRefused("must not carry credentials; authenticate with the signature")
    return parts.hostname


def _public(address: str) -> bool:
    ip = ipaddress.ip_address(address.split("%", 1)[0])
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    return ip.is_global and not ip.is_multicast


async def check_public_host(host: str, setting: str = "HAKIKI_WEBHOOKS_ALLOW_PRIVATE") -> None:
    """Refuse a host that is, or resolves to, any non-public address; the message names the
    ``setting`` that allows them."""
    try:
        addresses = [str(ipaddress.ip_address(host))]
    except ValueError:
        try:
            infos = await asyncio.get_running_loop().getaddrinfo(
                host, None, type=socket.SOCK_STREAM
            )
        except OSError as exc:
            raise UrlRefused(f"host {host!r} does not resolve") from exc
        addresses = sorted({str(info[4][0]) for info in infos})
    private = [a for a in addresses if not _public(a)]
    if private:
        raise UrlRefused(
            f"host {host!r} is a private or reserved address ({', '.join(private)}); "
            f"the operator can allow these with {setting}=true"
        )


async def check_url(url: str, *, live: bool, allow_private: bool) -> None:
    host = check_shape(url, live=live)
    if not allow_private:
        await check_public_host(host)
