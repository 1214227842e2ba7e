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

Each route is an :class:`EndpointRoute`, which admits the caller (401, 429, 403) before the
request body is read, and bounds the body to the endpoint's ``max_body_bytes`` (413 from the
Content-Length, or as soon as a streamed body passes it); a JSON body is checked by
:mod:`hakiki.core.request_body` before FastAPI validates it against the handler's model. A
route whose handler takes one JSON body model (:attr:`EndpointRoute.direct`) is answered by
:meth:`EndpointRoute.serve`, which does all of that and FastAPI's part itself
(:mod:`hakiki.core.direct_routes`).
"""

from __future__ import annotations

import hashlib
import inspect
import re
from collections.abc import Awaitable, Callable
from copy import deepcopy
from typing import Any, TypeVar, get_type_hints

import orjson
from fastapi import APIRouter, Depends, Form, Request, params
from fastapi._compat import ModelField, Undefined
from fastapi.dependencies.utils import get_missing_field_error
from fastapi.exceptions import RequestValidationError
from fastapi.responses import Response
from fastapi.routing import APIRoute
from pydantic import BaseModel, ValidationError
from starlette.datastructures import UploadFile
from starlette.types import Receive, Scope, Send

from hakiki.core import form_fields, request_body
from hakiki.core.auth import Principal, admit
from hakiki.core.calls import Call, begin_call, guarded, replay_response, runtime_of
from hakiki.core.endpoints import Endpoint
from hakiki.core.errors import invalid_request, payload_too_large, unsupported_media_type
from hakiki.core.idempotency.service import Replay
from hakiki.core.openapi import AUTHENTICATED, IDEMPOTENCY_HEADER, error_responses
from hakiki.core.privacy import audit
from hakiki.core.privacy.consent import Consent, answer_reference, record_of, with_consent

Handler = TypeVar("Handler", bound=Callable[..., Awaitable[Any]])
_REQUEST = "hakiki_request"
_PRINCIPAL = "hakiki_principal"
_SPEC = "hakiki_endpoint"
_CONSENT = "consent"  # a multipart endpoint's consent: a form field holding the JSON object
_CHUNK = 1 << 20
_PATH_PARAMETER = re.compile(r"{(\w+)}")


class EndpointRoute(APIRoute):
    """The route of one catalogued endpoint (``spec``). Before FastAPI reads the body and
    solves the handler's parameters, it admits the caller, refuses a body larger than the
    endpoint's limit or of the wrong Content-Type, and checks a JSON body (request_body)."""

    def __init__(self, path: str, endpoint: Callable[..., Any], **options: Any) -> None:
        super().__init__(path, endpoint, **options)
        # Read from the endpoint function, so a copy of the route (an included router's, in
        # FastAPI versions that copy) knows its catalogue entry too.
        self.spec: Endpoint = getattr(endpoint, _SPEC)

    async def handle(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or (self.methods and scope["method"] not in self.methods):
            await super().handle(scope, receive, send)  # a 405 naming the allowed methods
            return
        request = Request(scope)
        await admit(request, self.spec.scope)
        limit, declared = self._body_limit(request)
        receive = request_body.bounded(receive, limit)
        body_field = self.body_field
        if body_field is not None and isinstance(body_field.field_info, params.Form):
            media = request_body.media_type(scope)
            if declared != 0 and media not in request_body.FORM_TYPES:
                raise unsupported_media_type("multipart/form-data", media)
            if media == "multipart/form-data":
                receive = form_fields.utf8_fields(scope, receive)
        elif body_field is not None:
            receive = await _checked_json(scope, receive)
        await super().handle(scope, receive, send)

    def _body_limit(self, request: Request) -> tuple[int, int | None]:
        """The endpoint's body limit and the declared Content-Length: 413 when it is over."""
        limit = self.spec.body_limit(runtime_of(request).settings)
        declared = request_body.content_length(request.scope)
        if declared is not None and declared > limit:
            raise payload_too_large(limit)
        return limit, declared

    @property
    def direct(self) -> bool:
        """Whether :meth:`serve` can answer this route: a POST of the catalogue whose handler
        takes one JSON body model besides the call. FastAPI's per-request machinery (its
        middleware, routing over every route, dependency solving) then does nothing the route
        mechanism does not do itself, so DirectRoutingAPI (core/direct_routes.py) skips it."""
        dependant = self.dependant
        body = dependant.body_params
        return (
            self.spec.idempotent
            and self.methods == {self.spec.method}
            and "{" not in self.path
            and not self.dependencies
            and len(body) == 1
            and not isinstance(body[0].field_info, params.Form)
            and not self._embed_body_fields
            and not (dependant.path_params or dependant.query_params)
            and not (dependant.header_params or dependant.cookie_params)
            and [d.call for d in dependant.dependencies] == [_admitted]
            and dependant.request_param_name == _REQUEST
            and dependant.response_param_name is None
            and dependant.background_tasks_param_name is None
            and dependant.http_connection_param_name is None
            and dependant.security_scopes_param_name is None
        )

    async def serve(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Answer a call of a :attr:`direct` route, as :meth:`handle` and FastAPI would: the
        caller admitted, the body bounded, checked and validated against the handler's model
        (a 400 naming the field), the handler run through the route mechanism."""
        request = Request(scope)
        principal = await admit(request, self.spec.scope)
        limit, _declared = self._body_limit(request)
        body = await request_body.read_body(request_body.bounded(receive, limit))
        data: Any = Undefined
        if body:
            media = request_body.media_type(scope)
            if not request_body.is_json(media):
                raise unsupported_media_type("application/json", media)
            data = request_body.checked_json(body)
        field = self.dependant.body_params[0]
        value, errors = _validated(field, data)
        if errors:
            raise RequestValidationError(errors, body=None if data is Undefined else data)
        response: Response = await self.endpoint(
            **{
                field.name: value,
                _REQUEST: Request(scope, request_body.replay(body, receive)),
                _PRINCIPAL: principal,
            }
        )
        await response(scope, receive, send)


def _validated(field: ModelField, data: Any) -> tuple[Any, list[Any]]:
    """The body model from the decoded body (Undefined when there was none), as FastAPI
    validates a single body parameter: its errors located under ``body``."""
    if data is not Undefined:
        return field.validate(data, {}, loc=("body",))
    if field.field_info.is_required():
        return None, [get_missing_field_error(loc=("body",))]
    default = deepcopy(field.default)
    if not field.field_info.validate_default:
        return default, []
    return field.validate(default, {}, loc=("body",))


async def _checked_json(scope: Scope, receive: Receive) -> Receive:
    """Read the JSON body (within the limit ``receive`` enforces), check it, and hand it on."""
    body = await request_body.read_body(receive)
    if body:
        media = request_body.media_type(scope)
        if not request_body.is_json(media):
            raise unsupported_media_type("application/json", media)
        request_body.checked_json(body)
    return request_body.replay(body, receive)


class EndpointRouter(APIRouter):
    """An APIRouter whose routes are endpoint catalogue entries."""

    def __init__(self, **options: Any) -> None:
        super().__init__(route_class=EndpointRoute, **options)

    def endpoint(
        self, spec: Endpoint, *, response_model: Any = None, **options: Any
    ) -> Callable[[Handler], Handler]:
        # Another success answer of the endpoint (200 beside a create's 201), documented too.
        also = options.pop("responses", {})
        # More of the operation's document (a raw body's media type and example).
        extra = {
            **(IDEMPOTENCY_HEADER if spec.idempotent else {}),
            **options.pop("openapi_extra", {}),
        }

        def register(handler: Handler) -> Handler:
            self.add_api_route(
                spec.path,
                _route(spec, handler),
                methods=[spec.method],
                status_code=spec.status_code,
                response_model=response_model,
                summary=spec.summary,
                description=inspect.getdoc(handler) or "",
                # Every POST can refuse a malformed Idempotency-Key (400).
                responses={
                    **error_responses(
                        *AUTHENTICATED, *spec.errors, *((400,) if spec.idempotent else ())
                    ),
                    **also,
                },
                openapi_extra=extra or None,
                name=handler.__name__,
                **options,
            )
            return handler

        return register


def _route(spec: Endpoint, handler: Callable[..., Awaitable[Any]]) -> Callable[..., Any]:
    """The FastAPI endpoint for ``handler``: its own parameters, minus ``call``, plus the
    request and the authenticated caller; with the ``consent`` its catalogue entry takes
    (docs/privacy.md#consent) and an audit-log row for each success (#audit-log)."""
    hints = get_type_hints(handler, include_extras=True)
    own = [
        parameter.replace(annotation=hints.get(name, parameter.annotation))
        for name, parameter in inspect.signature(handler).parameters.items()
        if name != "call"
    ]
    own, consent_form = _consented(spec, own)
    added = [
        inspect.Parameter(_REQUEST, inspect.Parameter.KEYWORD_ONLY, annotation=Request),
        inspect.Parameter(
            _PRINCIPAL,
            inspect.Parameter.KEYWORD_ONLY,
            annotation=Principal,
            default=Depends(_admitted),
        ),
    ]
    keyword_only = [p.replace(kind=inspect.Parameter.KEYWORD_ONLY) for p in own]
    path_names = _PATH_PARAMETER.findall(spec.path)

    async def route(**kwargs: Any) -> Any:
        request: Request = kwargs.pop(_REQUEST)
        principal: Principal = kwargs.pop(_PRINCIPAL)
        form_consent = _form_consent(kwargs.pop(_CONSENT, None)) if consent_form else None
        for name, value in kwargs.items():  # query, path and form text (the body is checked)
            request_body.check_parameter(name, value)
        named = kwargs.get(path_names[0]) if path_names else None
        path_id = None if named is None else str(named)
        if not spec.idempotent:
            call = Call(runtime_of(request), request, principal, spec.key, {})
            answer = await handler(call=call, **kwargs)
            _audited(call, spec, path_id)
            return answer
        payload = await _payload(kwargs)
        if form_consent is not None:
            payload[_CONSENT] = form_consent.model_dump(mode="json")
        started = await begin_call(request, principal, spec.key, payload)
        if isinstance(started, Replay):
            return replay_response(started)
        consent = form_consent if consent_form else _body_consent(kwargs)
        started.consent = record_of(consent)
        async with guarded(started):
            content = await handler(call=started, **kwargs)
        if isinstance(content, Response):
            _audited(started, spec, path_id)
            return content
        _audited(started, spec, answer_reference(content) or path_id)
        return Response(content, status_code=spec.status_code, media_type="application/json")

    route.__signature__ = inspect.Signature(keyword_only + added)  # type: ignore[attr-defined]
    route.__name__ = handler.__name__
    setattr(route, _SPEC, spec)
    return route


def _consented(
    spec: Endpoint, own: list[inspect.Parameter]
) -> tuple[list[inspect.Parameter], bool]:
    """The handler's parameters with the ``consent`` the endpoint takes: a JSON body model
    gains the field (``with_consent``); a form gains a ``consent`` field holding the JSON
    object. Whether it was added to a form."""
    rule = spec.consent_rule
    if rule is None:
        return own, False
    required = rule == "required"
    for n, parameter in enumerate(own):
        model = parameter.annotation
        if (
            isinstance(model, type)
            and issubclass(model, BaseModel)
            and parameter.default is inspect.Parameter.empty
        ):
            return [
                *own[:n],
                parameter.replace(annotation=with_consent(model, required)),
                *own[n + 1 :],
            ], False
    if not any(isinstance(p.default, params.Form) for p in own):
        return own, False  # nothing to carry it (a POST without a body)
    consent = inspect.Parameter(
        _CONSENT,
        inspect.Parameter.KEYWORD_ONLY,
        annotation=str | None,
        default=Form(
            ... if required else None,
            description=("Required" if required else "Optional")
            + ": the data subject's consent as a JSON object (docs/privacy.md#consent): "
            "obtained_at, method, notice_version or notice_url, purposes, language.",
            examples=[
                '{"obtained_at":"2026-11-20T09:14:00Z","method":"checkbox",'
                '"notice_version":"privacy-notice-2026-09","purposes":'
                '["statement_analysis"],"language":"en"}'
            ],
        ),
    )
    return [*own, consent], True


def _form_consent(text: str | None) -> Consent | None:
    """A form's ``consent`` field, read as the JSON object it must hold (400 naming it)."""
    if text is None:
        return None
    try:
        value = orjson.loads(text)
    except orjson.JSONDecodeError:
        raise invalid_request(
            'consent: must be the consent object as JSON ({"obtained_at": ...}).',
            field=_CONSENT,
            problem="is not a JSON object",
        ) from None
    try:
        return Consent.model_validate(value)
    except ValidationError as error:
        raise RequestValidationError(
            [{**e, "loc": ("body", _CONSENT, *e["loc"])} for e in error.errors(include_url=False)]
        ) from None


def _body_consent(arguments: dict[str, Any]) -> Consent | None:
    for value in arguments.values():
        if isinstance(value, BaseModel) and _CONSENT in type(value).model_fields:
            consent = getattr(value, _CONSENT)
            return consent if isinstance(consent, Consent) else None
    return None


def _audited(call: Call, spec: Endpoint, resource_id: str | None) -> None:
    """An audit-log row for a successful call of an audited endpoint."""
    if not spec.audited:
        return
    writer = call.runtime.parts.get(audit.AuditWriter)
    if writer is not None:
        exported = (
            spec.method == "GET" and call.request.query_params.get("format", "json") != "json"
        )
        writer.add(
            audit.call_row(call.principal, spec, call.request_id, resource_id, exported=exported)
        )


async def _admitted(request: Request) -> Principal:
    """The caller EndpointRoute admitted before the body was read (async: FastAPI would run a
    plain function in a thread)."""
    principal: Principal = request.state.principal
    return principal


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
