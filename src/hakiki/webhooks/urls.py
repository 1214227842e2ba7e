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


# An IPv6 address that stands for an IPv4 one is judged by that IPv4 address. These carry it in
# their last 32 bits: IPv4-compatible (::a.b.c.d, deprecated; :: and ::1 read as 0.0.0.0 and
# 0.0.0.1, refused alike), SIIT IPv4-translated (::ffff:0:a.b.c.d) and NAT64's well-known
# prefix (64:ff9b::a.b.c.d). IPv4-mapped (::ffff:a.b.c.d) and 6to4 (2002:aabb:ccdd::/48) have
# their own properties in ipaddress.
_EMBEDDING_LAST_32 = tuple(
    ipaddress.IPv6Network(n) for n in ("::/96", "::ffff:0:0:0/96", "64:ff9b::/96")
)
# Refused whatever they carry: Teredo (2001::/32) hides its client's IPv4 address (obfuscated)
# behind a relay, and NAT64's local-use prefix (64:ff9b:1::/48) translates to addresses of the
# operator's own network.
_TUNNELS = tuple(ipaddress.IPv6Network(n) for n in ("2001::/32", "64:ff9b:1::/48"))


def embedded_ipv4(ip: ipaddress.IPv6Address) -> ipaddress.IPv4Address | None:
    """The IPv4 address an IPv6 address stands for (mapped, compatible, translated, NAT64,
    6to4), else None."""
    if ip.ipv4_mapped is not None:
        return ip.ipv4_mapped
    if ip.sixtofour is not None:
        return ip.sixtofour
    if any(ip in network for network in _EMBEDDING_LAST_32):
        return ipaddress.IPv4Address(int(ip) & 0xFFFFFFFF)
    return None


def _public(address: str) -> bool:
    ip: ipaddress.IPv4Address | ipaddress.IPv6Address
    ip = ipaddress.ip_address(address.split("%", 1)[0])
    if isinstance(ip, ipaddress.IPv6Address):
        if any(ip in network for network in _TUNNELS):
            return False
        ip = embedded_ipv4(ip) or ip
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


# The names reserved for documentation (RFC 2606, RFC 6761): they never resolve, so no
# delivery to one can reach anything.
_DOCUMENTATION_TLD = ".example"
_DOCUMENTATION_DOMAINS = ("example.com", "example.net", "example.org")


def is_documentation_host(host: str) -> bool:
    name = host.rstrip(".").lower()
    if name.endswith(_DOCUMENTATION_TLD) or name == _DOCUMENTATION_TLD[1:]:
        return True
    return any(name == d or name.endswith("." + d) for d in _DOCUMENTATION_DOMAINS)


async def check_url(url: str, *, live: bool, allow_private: bool) -> None:
    """Refuse a URL that may not receive webhooks. A sandbox key may name a host reserved for
    documentation (``https://lender.example/hooks``, as the docs and Swagger's prefilled
    examples do, issue 35): it is accepted without resolving, and each delivery to it fails
    (the delivery's own check finds that it does not resolve), recorded in the delivery log."""
    host = check_shape(url, live=live)
    if not live and is_documentation_host(host):
        return
    if not allow_private:
        await check_public_host(host)
