"""Fetching the images of a face bulk scan: only from hosts the operator allows, never from a
private, loopback or link-local address unless allowed, no redirects, a size limit."""

from __future__ import annotations

import httpx

from hakiki.core.settings import Settings
from hakiki.engines.face.images import DEFAULT_MAX_BYTES
from hakiki.webhooks.urls import UrlRefused, check_public_host, check_shape


class FetchFailed(Exception):
    """The image could not be had; ``code`` is the row's error code."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


def host_allowed(host: str, allowed: list[str]) -> bool:
    host = host.lower().rstrip(".")
    for entry in allowed:
        entry = entry.lower().rstrip(".")
        if host == entry.lstrip(".") or (entry.startswith(".") and host.endswith(entry)):
            return True
    return False


async def check_image_url(url: str, settings: Settings) -> None:
    try:
        host = check_shape(url, live=False)
        allowed = settings.bulk_fetch_allowed_hosts
        if allowed and not host_allowed(host, allowed):
            raise UrlRefused(f"host {host!r} is not in HAKIKI_BULK_FETCH_ALLOWED_HOSTS")
        if not settings.bulk_fetch_allow_private:
            await check_public_host(host, "HAKIKI_BULK_FETCH_ALLOW_PRIVATE")
    except UrlRefused as refused:
        raise FetchFailed("url_refused", f"image_url: {refused}") from refused


async def fetch_image(
    http: httpx.AsyncClient, url: str, settings: Settings, max_bytes: int = DEFAULT_MAX_BYTES
) -> bytes:
    """The bytes at ``url``; FetchFailed with a row error code otherwise."""
    await check_image_url(url, settings)
    try:
        async with http.stream(
            "GET", url, timeout=settings.bulk_fetch_timeout_seconds, follow_redirects=False
        ) as response:
            if response.is_redirect:
                raise FetchFailed("fetch_failed", f"image_url answered {response.status_code}: "
                                  "redirects are not followed; give the final URL")  # fmt: skip
            if response.status_code != 200:
                raise FetchFailed("fetch_failed", f"image_url answered {response.status_code}")
            data = bytearray()
            async for part in response.aiter_bytes():
                data += part
                if len(data) > max_bytes:
                    raise FetchFailed(
                        "image_too_large", f"the image is larger than {max_bytes:,} bytes"
                    )
            return bytes(data)
    except httpx.HTTPError as error:
        raise FetchFailed("fetch_failed", f"image_url could not be fetched: {error!r}") from error
