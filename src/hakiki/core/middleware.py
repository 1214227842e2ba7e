"""Outermost ASGI middleware: a request id on every response, the key's RateLimit headers on
every response of an authenticated call, and no stack trace ever leaks.

Pure ASGI rather than BaseHTTPMiddleware: it costs almost nothing per request.
"""

from __future__ import annotations

import logging
import time

import orjson
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from hakiki.core.ids import new_id
from hakiki.core.request_log.service import log_row

logger = logging.getLogger("hakiki.http")

_INTERNAL_ERROR = orjson.dumps(
    {"error": "internal_error", "message": "Something went wrong on our side; it was logged."}
)


class RequestContextMiddleware:
    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        request_id = new_id("req")
        state = scope.setdefault("state", {})
        state["request_id"] = request_id
        state["started"] = time.perf_counter()
        header = (b"x-request-id", request_id.encode())
        status = 0

        def extra_headers() -> list[tuple[bytes, bytes]]:
            quota = state.get("rate_limit")
            return [header, *quota.headers()] if quota is not None else [header]

        async def send_with_id(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
                message["headers"] = [*message.get("headers", []), *extra_headers()]
            await send(message)

        try:
            await self.app(scope, receive, send_with_id)
        except Exception:
            logger.exception("unhandled error on %s %s", scope.get("method"), scope.get("path"))
            if status:
                raise
            status = 500
            await send(
                {
                    "type": "http.response.start",
                    "status": 500,
                    "headers": [
                        (b"content-type", b"application/json"),
                        (b"content-length", str(len(_INTERNAL_ERROR)).encode()),
                        *extra_headers(),
                    ],
                }
            )
            await send({"type": "http.response.body", "body": _INTERNAL_ERROR})
        finally:
            _log_unrecorded(scope, status)


def _log_unrecorded(scope: Scope, status: int) -> None:
    """Calls that did work write their own log row; this records the rest (errors after
    authentication, reads) so the log has one row per authenticated call. Calls refused by the
    rate limit (our only 429) are not written: that would move the load they shed onto the
    database's writer."""
    state = scope["state"]
    principal = state.get("principal")
    if principal is None or state.get("logged") or not status or status == 429:
        return
    runtime = getattr(scope["app"].state, "runtime", None)
    if runtime is None:
        return
    runtime.request_log.add(
        log_row(
            state["request_id"],
            principal,
            scope["method"],
            scope["path"],
            status,
            state["started"],
            error_message=state.get("error"),
        )
    )
