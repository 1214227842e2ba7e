"""Replaying an endpoint's documented sandbox test values (``core/endpoints.py``) over HTTP:
the request a ``TestValue`` describes, and a check of each of its expectations."""

from __future__ import annotations

import base64
from typing import Any

import httpx

from hakiki.core.endpoints import Endpoint, TestValue
from tests.support.envelope import envelope_problems, enveloped

_MISSING = object()


def at_path(body: Any, path: str) -> Any:
    """The value at a dotted path of a JSON body (a number indexes a list); ``_MISSING`` if the
    path leads nowhere."""
    found = body
    for part in path.split("."):
        if isinstance(found, dict) and part in found:
            found = found[part]
        elif isinstance(found, list) and part.isdigit() and int(part) < len(found):
            found = found[int(part)]
        else:
            return _MISSING
    return found


async def send(
    client: httpx.AsyncClient, headers: dict[str, str], endpoint: Endpoint, value: TestValue
) -> httpx.Response:
    """The request ``value`` describes: a JSON body, a query, or a multipart form whose files'
    bytes are base64-decoded."""
    if endpoint.has_path_parameter:
        raise ValueError(f"{endpoint.key}: test values of a path with parameters are not replayed")
    request: dict[str, Any] = {}
    if value.body is not None:
        request["json"] = dict(value.body)
    if value.query is not None:
        request["params"] = dict(value.query)
    if value.multipart is not None:
        # Without files httpx sends the fields url-encoded: a form all the same to the server.
        request["data"] = dict(value.multipart.fields)
        request["files"] = {
            name: (
                part["filename"],
                base64.b64decode(part["content_base64"], validate=True),
                part["content_type"],
            )
            for name, part in value.multipart.files.items()
        }
    if value.content is not None:
        request["content"] = value.content.text.encode()
        headers = {**headers, "Content-Type": value.content.content_type}
    return await client.request(endpoint.method, endpoint.path, headers=headers, **request)


async def replay(
    client: httpx.AsyncClient, headers: dict[str, str], endpoint: Endpoint, value: TestValue
) -> None:
    """Send ``value`` to ``endpoint`` and assert every expectation: ``http_status`` against the
    status code, every other key a dotted path into the JSON response."""
    response = await send(client, headers, endpoint, value)
    where = f"{endpoint.key} ({endpoint.method} {endpoint.path}), {value.description!r}"
    failures: list[str] = []
    expected_status = value.expect.get("http_status")
    if expected_status is not None and response.status_code != expected_status:
        failures.append(f"http_status: expected {expected_status!r}, got {response.status_code}")
    paths = [path for path in value.expect if path != "http_status"]
    body: Any = None
    if paths:
        try:
            body = response.json()
        except ValueError:
            failures.append(f"the response is not JSON: {response.text[:200]!r}")
            paths = []
    for path in paths:
        expected, got = value.expect[path], at_path(body, path)
        if got is _MISSING:
            failures.append(f"{path}: expected {expected!r}, got nothing (no such path)")
        elif got != expected or (type(got) is not type(expected) and _strict(expected, got)):
            failures.append(f"{path}: expected {expected!r}, got {got!r}")
    if enveloped(endpoint) and 200 <= response.status_code < 300:
        failures += [f"envelope: {p}" for p in envelope_problems(response.json())]
    if failures:
        lines = "\n  ".join(failures)
        raise AssertionError(f"{where}:\n  {lines}\nresponse: {response.text[:2000]}")


def _strict(expected: Any, got: Any) -> bool:
    """True, 1 and 1.0 compare equal in Python, not in JSON: a bool must be a bool."""
    return isinstance(expected, bool) or isinstance(got, bool)
