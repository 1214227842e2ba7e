"""Request bodies as the route mechanism admits them (docs/api.md#conventions): bounded in size
while they stream in, and JSON decoded strictly, once for every endpoint.

A JSON body is refused with a 400 naming ``body`` when it is not UTF-8, not JSON, nested more
than 1024 levels or holds a number too large for a float; and naming the field when a string
holds a NUL character (PostgreSQL text cannot store one) or a lone UTF-16 surrogate escape
(``"\\ud800"``: not Unicode, so neither UTF-8 nor SQLite nor orjson can carry it). The route
mechanism checks query, path and form parameters for the same two with :func:`check_parameter`.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

import orjson
from starlette.types import Message, Receive, Scope

from hakiki.core.errors import ApiError, ApiHTTPError, invalid_request, payload_too_large

MAX_JSON_DEPTH = 1024  # orjson's nesting limit
# What a form endpoint reads (a form without its file part is then a 400 naming the file).
FORM_TYPES = ("multipart/form-data", "application/x-www-form-urlencoded")
_SURROGATE = re.compile("[\ud800-\udfff]")
_UTF8_BOM = b"\xef\xbb\xbf"


def header(scope: Scope, name: bytes) -> str | None:
    """The first value of the header ``name`` (lower case, as ASGI servers give names), as
    Starlette's ``request.headers.get`` reads it, at a tenth of its cost (0.3 against 3.5-4 us:
    no Request, no Headers, no KeyError caught for a header not sent)."""
    for key, value in scope["headers"]:
        if key == name:
            decoded: str = value.decode("latin-1")
            return decoded
    return None


def content_length(scope: Scope) -> int | None:
    """The declared body size, if the request declared one."""
    value = header(scope, b"content-length")
    return int(value) if value is not None and value.isdigit() else None


def media_type(scope: Scope) -> str | None:
    """The Content-Type's media type, lower case, without parameters."""
    value = header(scope, b"content-type")
    return value.partition(";")[0].strip().lower() if value is not None else None


def is_json(media: str | None) -> bool:
    return media is not None and (media == "application/json" or media.endswith("+json"))


def bounded(receive: Receive, limit: int) -> Receive:
    """``receive`` that counts the body's bytes as they come and raises 413 (as an
    :class:`ApiHTTPError`, which FastAPI's own body reading lets through) as soon as they pass
    ``limit``: what follows is never read."""
    received = 0

    async def bounded_receive() -> Message:
        nonlocal received
        message = await receive()
        if message["type"] == "http.request":
            received += len(message.get("body", b""))
            if received > limit:
                raise ApiHTTPError(payload_too_large(limit))
        return message

    return bounded_receive


async def read_body(receive: Receive) -> bytes:
    chunks: list[bytes] = []
    while True:
        message = await receive()
        if message["type"] == "http.disconnect":
            raise invalid_request(
                "The client disconnected before sending the whole body.", field="body"
            )
        chunks.append(message.get("body", b""))
        if not message.get("more_body", False):
            return b"".join(chunks)


def replay(body: bytes, receive: Receive) -> Receive:
    """``receive`` that first gives ``body`` whole (already read), then waits on the
    connection as before (for a disconnect)."""
    pending = True

    async def replayed() -> Message:
        nonlocal pending
        if pending:
            pending = False
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()

    return replayed


def checked_json(body: bytes) -> Any:
    """``body`` decoded, or a 400 unless it is a JSON document every endpoint can take (module
    doc)."""
    try:
        data = orjson.loads(body)
    except orjson.JSONDecodeError as exc:
        raise _unreadable(body, exc) from None
    # orjson refuses lone surrogates itself; what it lets through may still hold a NUL.
    bad = _bad_string(data, surrogates=False)
    if bad is not None:
        raise _bad_string_error(*bad)
    return data


def check_parameter(name: str, value: Any) -> None:
    """Raise a 400 naming ``name`` when a text parameter (query, path or form field; each item
    of a list) holds a NUL or a lone surrogate: as in a JSON body, they cannot be stored."""
    items = value if isinstance(value, list | tuple) else (value,)
    for n, item in enumerate(items):
        if isinstance(item, str):
            bad = _bad_string(item, surrogates=True)
            if bad is not None:
                field = name if items is not value else f"{name}.{n}"
                raise _bad_string_error(field, bad[1])


def _body_error(problem: str) -> ApiError:
    return invalid_request(f"The request body {problem}.", field="body", problem=problem)


def _unreadable(body: bytes, exc: orjson.JSONDecodeError) -> ApiError:
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError as err:
        return _body_error(f"is not valid UTF-8 (byte {err.start:,}); JSON must be UTF-8")
    if "surrogate" in exc.msg:
        # Find the field: Python's parser keeps lone surrogates in the strings it returns.
        try:
            data = json.loads(text)
        except (ValueError, RecursionError):
            pass
        else:
            bad = _bad_string(data, surrogates=True)
            if bad is not None:
                return _bad_string_error(*bad)
    where = f"line {exc.lineno}, column {exc.colno}"
    if body.startswith(_UTF8_BOM):
        return _body_error("starts with a byte order mark; send UTF-8 JSON without it")
    if "depth limit" in exc.msg:
        return _body_error(f"is nested more than {MAX_JSON_DEPTH} levels deep")
    if "infinity" in exc.msg:
        return _body_error(f"holds a number too large to be read ({where})")
    return _body_error(f"is not valid JSON: {exc.msg} ({where})")


def _bad_string_error(field: str, problem: str) -> ApiError:
    return ApiError(
        400,
        "invalid_request",
        f"The request is invalid: {field}: {problem}.",
        details=[{"field": field, "problem": problem}],
    )


def _strings(data: Any) -> Iterator[tuple[tuple[str | int, ...], str, bool]]:
    """Every string of a decoded JSON document: (its path, the string, whether it is a key)."""
    stack: list[tuple[tuple[str | int, ...], Any]] = [((), data)]
    while stack:
        path, value = stack.pop()
        if isinstance(value, str):
            yield path, value, False
        elif isinstance(value, dict):
            for key, item in value.items():
                yield path, key, True
                stack.append(((*path, key), item))
        elif isinstance(value, list):
            stack.extend(((*path, n), item) for n, item in enumerate(value))


def _bad_string(data: Any, *, surrogates: bool) -> tuple[str, str] | None:
    """The field and problem of the first string holding a NUL (or, when ``surrogates``, a
    lone surrogate), if any."""
    for path, text, is_key in _strings(data):
        if "\x00" in text:
            problem = "contains a NUL character (\\u0000), which text cannot hold"
        elif surrogates and _SURROGATE.search(text):
            problem = "contains a lone UTF-16 surrogate (\\ud800-\\udfff), which is not text"
        else:
            continue
        field = ".".join(str(part) for part in path) or "body"
        return field, f"has a key that {problem}" if is_key else problem
    return None
