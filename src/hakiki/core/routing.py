"""The route mechanism: every catalogued endpoint is served through it. It owns authentication
and scope, idempotent replay, the call's lifecycle (a claim released and a hold returned on any
error), settlement's answer, and the Idempotency-Key header in the OpenAPI document.

    router = EndpointRouter(tags=["Fraud"])

    @router.endpoint(ID_SCAN, response_model=IdScanResult)
    async def scan_id(body: IdScanRequest, call: Call) -> bytes:
        return await id_scan.scan(call, body)

A handler validates, calls its service and returns. Its parameters are FastAPI's (a body
model, form fields, files, query and path parameters) plus one ``call: Call``. A POST handler
returns the body its service settled (bytes) and is answered with the endpoint's status code;
a GET handler returns a model or a Response.
"""

from __future__ import annotations

import hashlib
import inspect
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar, get_type_hints

from fastapi import APIRouter, Depends, Request
from fastapi.responses import Response
from pydantic import BaseModel
from starlette.datastructures import UploadFile

from hakiki.core.auth import Principal, any_key, require_scope
from hakiki.core.calls import Call, begin_call, guarded, replay_response, runtime_of
from hakiki.core.endpoints import Endpoint
from hakiki.core.idempotency.service import Replay
from hakiki.core.openapi import AUTHENTICATED, IDEMPOTENCY_HEADER, error_responses

Handler = TypeVar("Handler", bound=Callable[..., Awaitable[Any]])
_REQUEST = "hakiki_request"
_PRINCIPAL = "hakiki_principal"
_CHUNK = 1 << 20


class EndpointRouter(APIRouter):
    """An APIRouter whose routes are endpoint catalogue entries."""

    def endpoint(
        self, spec: Endpoint, *, response_model: Any = None, **options: Any
    ) -> Callable[[Handler], Handler]:
        def register(handler: Handler) -> Handler:
            self.add_api_route(
                spec.path,
                _route(spec, handler),
                methods=[spec.method],
                status_code=spec.status_code,
                response_model=response_model,
                summary=spec.summary,
                description=inspect.getdoc(handler) or "",
                responses=error_responses(*AUTHENTICATED, *spec.errors),
                openapi_extra=IDEMPOTENCY_HEADER if spec.idempotent else None,
                name=handler.__name__,
                **options,
            )
            return handler

        return register


def _route(spec: Endpoint, handler: Callable[..., Awaitable[Any]]) -> Callable[..., Any]:
    """The FastAPI endpoint for ``handler``: its own parameters, minus ``call``, plus the
    request and the authenticated caller."""
    hints = get_type_hints(handler)
    own = [
        parameter.replace(annotation=hints.get(name, parameter.annotation))
        for name, parameter in inspect.signature(handler).parameters.items()
        if name != "call"
    ]
    authenticate = any_key if spec.scope is None else require_scope(spec.scope)
    added = [
        inspect.Parameter(_REQUEST, inspect.Parameter.KEYWORD_ONLY, annotation=Request),
        inspect.Parameter(
            _PRINCIPAL,
            inspect.Parameter.KEYWORD_ONLY,
            annotation=Principal,
            default=Depends(authenticate),
        ),
    ]
    keyword_only = [p.replace(kind=inspect.Parameter.KEYWORD_ONLY) for p in own]

    async def route(**kwargs: Any) -> Any:
        request: Request = kwargs.pop(_REQUEST)
        principal: Principal = kwargs.pop(_PRINCIPAL)
        if not spec.idempotent:
            call = Call(runtime_of(request), request, principal, spec.key, {})
            return await handler(call=call, **kwargs)
        started = await begin_call(request, principal, spec.key, await _payload(kwargs))
        if isinstance(started, Replay):
            return replay_response(started)
        async with guarded(started):
            content = await handler(call=started, **kwargs)
        if isinstance(content, Response):
            return content
        return Response(content, status_code=spec.status_code, media_type="application/json")

    route.__signature__ = inspect.Signature(keyword_only + added)  # type: ignore[attr-defined]
    route.__name__ = handler.__name__
    return route


async def _payload(arguments: dict[str, Any]) -> dict[str, Any]:
    """What the idempotency fingerprint and the redacted request log see of a call: a JSON
    body's fields, form fields, and each file as its SHA-256."""
    payload: dict[str, Any] = {}
    for name, value in arguments.items():
        if isinstance(value, BaseModel):
            payload.update(value.model_dump(mode="json", exclude_unset=True))
        elif isinstance(value, UploadFile):
            payload[f"{name}_sha256"] = await _sha256(value)
        elif value is not None and value != []:
            payload[name] = value
    return payload


async def _sha256(upload: UploadFile) -> str:
    digest = hashlib.sha256()
    while chunk := await upload.read(_CHUNK):
        digest.update(chunk)
    await upload.seek(0)
    return digest.hexdigest()
