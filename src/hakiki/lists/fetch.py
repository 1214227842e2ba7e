"""Downloading list files: timeouts, a size limit and a few retries; or reading them from a
path the operator gives (``/srv/lists/entities.ftm.json`` or ``file:///srv/...``)."""

from __future__ import annotations

import asyncio
import uuid
from pathlib import Path
from urllib.parse import unquote, urlsplit

import httpx

from hakiki import __version__

USER_AGENT = f"hakiki/{__version__} (+https://github.com/hakiki; sanctions list update)"


class DownloadError(RuntimeError):
    """A file could not be downloaded (after the retries)."""


async def download(
    client: httpx.AsyncClient,
    url: str,
    *,
    max_bytes: int,
    retries: int,
    backoff_seconds: float,
    headers: dict[str, str] | None = None,
) -> bytes:
    """The body of ``url``; retried on timeouts, connection errors, 429 and 5xx. A local path
    is read from disk, with the same size limit."""
    path = local_path(url)
    if path is not None:
        return await asyncio.to_thread(read_local, path, max_bytes)
    last = "no attempt"
    for attempt in range(retries + 1):
        if attempt:
            await asyncio.sleep(backoff_seconds * attempt)
        try:
            return await _get(client, url, max_bytes, headers or {})
        except _Retryable as exc:
            last = str(exc)
        except httpx.TimeoutException:
            last = "timed out"
        except httpx.TransportError as exc:
            last = f"connection failed: {exc.__class__.__name__}"
    raise DownloadError(f"{_shown(url)}: {last} (after {retries + 1} attempts)")


async def download_to(
    client: httpx.AsyncClient,
    url: str,
    folder: Path,
    *,
    max_bytes: int,
    retries: int,
    backoff_seconds: float,
    headers: dict[str, str] | None = None,
) -> tuple[Path, bool]:
    """:func:`download`, the body written a chunk at a time to a new file in ``folder`` (a
    list of a gigabyte is never whole in memory): that file and True, the caller removes it.
    A local path is checked against the size limit and returned as it is (and False)."""
    path = local_path(url)
    if path is not None:
        await asyncio.to_thread(_check_local, path, max_bytes)
        return path, False
    target = folder / f".download-{uuid.uuid4().hex}"
    last = "no attempt"
    try:
        for attempt in range(retries + 1):
            if attempt:
                await asyncio.sleep(backoff_seconds * attempt)
            try:
                await _get_to(client, url, max_bytes, headers or {}, target)
                return target, True
            except _Retryable as exc:
                last = str(exc)
            except httpx.TimeoutException:
                last = "timed out"
            except httpx.TransportError as exc:
                last = f"connection failed: {exc.__class__.__name__}"
    except BaseException:
        target.unlink(missing_ok=True)
        raise
    target.unlink(missing_ok=True)
    raise DownloadError(f"{_shown(url)}: {last} (after {retries + 1} attempts)")


def _check_local(path: Path, max_bytes: int) -> None:
    try:
        size = path.stat().st_size
    except OSError as exc:
        raise DownloadError(f"{path}: unreadable ({exc.__class__.__name__})") from exc
    if size > max_bytes:
        raise DownloadError(f"{path}: {size} bytes exceeds the {max_bytes} limit")


async def _get_to(
    client: httpx.AsyncClient, url: str, max_bytes: int, headers: dict[str, str], target: Path
) -> None:
    async with client.stream("GET", url, headers=headers) as response:
        if response.status_code == 429 or response.status_code >= 500:
            raise _Retryable(f"HTTP {response.status_code}")
        if response.status_code != 200:
            raise DownloadError(f"{_shown(url)}: HTTP {response.status_code}")
        declared = response.headers.get("content-length")
        if declared and declared.isdigit() and int(declared) > max_bytes:
            raise DownloadError(f"{_shown(url)}: {declared} bytes exceeds the {max_bytes} limit")
        size = 0
        with target.open("wb") as out:  # a fresh file at each attempt
            async for chunk in response.aiter_bytes():
                size += len(chunk)
                if size > max_bytes:
                    raise DownloadError(f"{_shown(url)}: larger than the {max_bytes} byte limit")
                out.write(chunk)


def local_path(url: str) -> Path | None:
    """The file an address names on this machine (an absolute path or a ``file://`` URL)."""
    if url.startswith("file://"):
        return Path(unquote(urlsplit(url).path))
    if url.startswith("/"):
        return Path(url)
    return None


def read_local(path: Path, max_bytes: int) -> bytes:
    try:
        size = path.stat().st_size
        if size > max_bytes:
            raise DownloadError(f"{path}: {size} bytes exceeds the {max_bytes} limit")
        return path.read_bytes()
    except OSError as exc:
        raise DownloadError(f"{path}: unreadable ({exc.__class__.__name__})") from exc


class _Retryable(Exception):
    pass


async def _get(
    client: httpx.AsyncClient, url: str, max_bytes: int, headers: dict[str, str]
) -> bytes:
    async with client.stream("GET", url, headers=headers) as response:
        if response.status_code == 429 or response.status_code >= 500:
            raise _Retryable(f"HTTP {response.status_code}")
        if response.status_code != 200:
            raise DownloadError(f"{_shown(url)}: HTTP {response.status_code}")
        declared = response.headers.get("content-length")
        if declared and declared.isdigit() and int(declared) > max_bytes:
            raise DownloadError(f"{_shown(url)}: {declared} bytes exceeds the {max_bytes} limit")
        chunks: list[bytes] = []
        size = 0
        async for chunk in response.aiter_bytes():
            size += len(chunk)
            if size > max_bytes:
                raise DownloadError(f"{_shown(url)}: larger than the {max_bytes} byte limit")
            chunks.append(chunk)
        return b"".join(chunks)


def _shown(url: str) -> str:
    """The URL without its query string (the EU's token must not reach logs or the database)."""
    return url.split("?", 1)[0]


def make_client(timeout_seconds: float) -> httpx.AsyncClient:
    return httpx.AsyncClient(
        timeout=httpx.Timeout(timeout_seconds),
        follow_redirects=True,
        headers={"User-Agent": USER_AGENT},
    )
