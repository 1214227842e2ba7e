"""Where links in e-mail point: at the configured public address (HAKIKI_CONSOLE_BASE_URL for
the console's invitations and password resets, HAKIKI_PUBLIC_BASE_URL for candidates'
invitations), never at the request's Host header, which the sender chooses: a reset asked for
with ``Host: evil.example`` would otherwise mail the victim a link that hands the token to
evil.example ("reset poisoning"). Without the setting, only a request made to this machine
itself (``localhost``, a loopback address: a first try on a laptop) may use its own address;
otherwise no link is sent, and the operator is told which setting to make."""

from __future__ import annotations

import ipaddress

from starlette.requests import Request


def is_loopback(host: str) -> bool:
    host = host.strip("[]").lower()
    if host == "localhost" or host.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def link_base(configured: str | None, request: Request) -> str | None:
    """The base of links mailed in answer to ``request``: ``configured``, else the request's
    own address when it came to a loopback host; None when neither may be used."""
    if configured:
        return configured.rstrip("/")
    if is_loopback(request.url.hostname or ""):
        return str(request.base_url).rstrip("/")
    return None


def missing(setting: str, request: Request) -> str:
    """The operator's explanation of a link not sent for want of ``setting``."""
    return (
        f"no e-mail with a link was sent: {setting} is not set and the request came to "
        f"{request.url.hostname!r}, not to localhost; set {setting} to the address users "
        "reach this server at (e.g. https://hakiki.example.com)"
    )
