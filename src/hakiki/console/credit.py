"""The console's credit models pages (issue 38): the organisation's models of the session's
environment with their cards, and activating or rolling one back; and its credit products
(read-only: they change through /v3/credit/products). Any user sees them; only a
role that may (owners, admins: roles.MANAGE_CREDIT) acts. An action is the API's own (the
registry's service, the request log's row and the audit log's row of the same endpoint), made
as the signed-in user."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlencode

import orjson
from fastapi import APIRouter, Request
from fastapi.responses import Response

from hakiki.console.roles import MANAGE_CREDIT
from hakiki.console.sessions import Session, principal_of
from hakiki.console.web import posted, render, see_other, signed_in, to_login
from hakiki.core.calls import Call, runtime_of
from hakiki.core.database import read
from hakiki.core.endpoints import Endpoint
from hakiki.core.errors import ApiError
from hakiki.core.pagination import PageRequest
from hakiki.core.privacy import audit
from hakiki.credit import decision
from hakiki.credit.endpoints import MODEL_ACTIVATE, MODEL_ROLLBACK
from hakiki.credit.products import repository as products
from hakiki.credit.products.service import product_out
from hakiki.credit.registry import repository, service

router = APIRouter()

ID_LENGTH = 40
ROWS = 25


def _page_number(value: str | None) -> int:
    try:
        return max(1, min(int(value or "1"), 10_000))
    except ValueError:
        return 1


def _summary(row: dict[str, Any], active_id: str | None) -> dict[str, Any]:
    """One model of the list: its row and the figures of its card (none until trained)."""
    card = orjson.loads(row["document"])["card"] if row.get("document") else None
    data = card["data"] if card else {}
    return {
        **{k: v for k, v in row.items() if k != "document"},
        "active": row["id"] == active_id,
        "refused": row["status"] == "trained" and not row["activatable"],
        "period": data.get("period"),
        "outcomes": data.get("outcomes"),
        "defaults": data.get("defaults"),
        "metrics": card["metrics"] if card else None,
    }


@router.get("/credit-models")
async def models_page(request: Request) -> Response:
    session = await signed_in(request)
    if session is None:
        return to_login()
    runtime = runtime_of(request)
    number = _page_number(request.query_params.get("page"))
    page = PageRequest(number, ROWS)
    async with read(runtime.db) as conn:
        total = await repository.count_models(conn, session.org_id, session.environment)
        rows = await repository.list_owned(
            conn, session.org_id, session.environment, None, offset=page.offset, limit=ROWS
        )
        active = await service.active_model_id(conn, (session.org_id, session.environment))
        found = await repository.get_model(conn, active) if active else None
    demo = decision.scorecard().version
    return render(
        request,
        "credit_models.html",
        session,
        models=[_summary(r, active) for r in rows],
        active_version=found["version"] if found else demo,
        demo_version=demo,
        page=number,
        pages=max(1, -(-total // ROWS)),
        total=total,
    )


async def _model_page(
    request: Request, session: Session, model_id: str, *, status: int = 200, error: str = ""
) -> Response:
    runtime = runtime_of(request)
    owner = (session.org_id, session.environment)
    model = await service.get_model(runtime.db, owner, model_id[:ID_LENGTH])
    variables: list[dict[str, Any]] = []
    if model.card is not None:
        async with read(runtime.db) as conn:
            row = await repository.get_model(conn, model.model_id)
        document = orjson.loads(row["document"]) if row and row["document"] else {}
        variables = document.get("variables", [])
    return render(
        request,
        "credit_model.html",
        session,
        status,
        model=model,
        card=model.card,
        variables=variables,
        error=error,
        notice=request.query_params.get("done", "")[:300],
    )


@router.get("/credit-models/{model_id}")
async def model_page(request: Request, model_id: str) -> Response:
    session = await signed_in(request)
    if session is None:
        return to_login()
    return await _model_page(request, session, model_id)


async def _change(request: Request, model_id: str, spec: Endpoint, *, rollback: bool) -> Response:
    session, form = await posted(request)
    if session is None:
        return to_login()
    if form.get("confirm") != "yes":
        raise ApiError(
            400,
            "invalid_request",
            "confirm: tick the box that says you mean it, then press the button again.",
            details=[{"field": "confirm", "problem": "not confirmed"}],
        )
    if not session.may(MANAGE_CREDIT):
        what = "roll back" if rollback else "activate"
        raise ApiError(
            403,
            "insufficient_scope",
            f"The {session.role} role cannot {what} credit models; an owner or admin can.",
        )
    runtime = runtime_of(request)
    principal = principal_of(session)
    model_id = model_id[:ID_LENGTH]
    call = Call(runtime, request, principal, spec.key, {})
    try:
        body = await service.change(call, decision.scorecard().version, model_id, rollback=rollback)
    except ApiError as error:
        if error.status_code != 409:
            raise
        return await _model_page(request, session, model_id, status=409, error=error.message)
    writer = runtime.parts.get(audit.AuditWriter)
    if writer is not None:  # the row the API's route writes for the same change
        writer.add(audit.call_row(principal, spec, call.request_id, model_id))
    answer = orjson.loads(body)
    said = (
        f"Rolled back: decisions now use {answer['version']}."
        if rollback
        else f"Activated: decisions now use {answer['version']} "
        f"(before: {answer['previous_version']})."
    )
    return see_other(f"/console/credit-models/{model_id}?" + urlencode({"done": said}))


@router.post("/credit-models/{model_id}/activate")
async def activate(request: Request, model_id: str) -> Response:
    return await _change(request, model_id, MODEL_ACTIVATE, rollback=False)


@router.post("/credit-models/{model_id}/rollback")
async def rollback(request: Request, model_id: str) -> Response:
    return await _change(request, model_id, MODEL_ROLLBACK, rollback=True)


@router.get("/credit-products")
async def products_page(request: Request) -> Response:
    """The organisation's credit products of the session's environment, newest first: any
    user reads them; they are created and changed through the API (credit:write)."""
    session = await signed_in(request)
    if session is None:
        return to_login()
    runtime = runtime_of(request)
    number = _page_number(request.query_params.get("page"))
    page = PageRequest(number, ROWS)
    async with read(runtime.db) as conn:
        total = await products.count_products(conn, session.org_id, session.environment)
        rows = await products.list_owned(
            conn, session.org_id, session.environment, None, offset=page.offset, limit=ROWS
        )
        versions = {
            r["id"]: r["version"]
            for r in await repository.list_owned(
                conn, session.org_id, session.environment, None, offset=0, limit=1_000
            )
        }
    return render(
        request,
        "credit_products.html",
        session,
        products=[product_out(r) for r in rows],
        versions=versions,
        page=number,
        pages=max(1, -(-total // ROWS)),
        total=total,
    )
