"""Result pages rendered on the server from the domains' services (issue 36): a statement
analysis with its verdict as a coloured badge, its signals with their evidence and page, its
monthly inflow and outflow and closing-balance charts (SVG drawn here) and its transactions
table, paginated; the organisation's recent analyses; one bulk scan's rows counted by risk
level and listed, filtered, paginated."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import Response
from pydantic import ValidationError

from hakiki.background import candidates
from hakiki.background.endpoints import CANDIDATE_REINITIATE as REINITIATE
from hakiki.background.endpoints import CANDIDATES_ATTESTATION, CANDIDATES_PURPOSES
from hakiki.background.endpoints import CANDIDATES_CREATE as CREATE
from hakiki.background.schemas import CandidatesRequest, CandidatesResult, ReinitiatedResult
from hakiki.background.system_packages import SYSTEM_PACKAGES
from hakiki.console import charts
from hakiki.console.roles import RUN_CALLS
from hakiki.console.sessions import Session, principal_of
from hakiki.console.web import posted, render, signed_in, to_login
from hakiki.core.auth import Principal
from hakiki.core.calls import Call, runtime_of
from hakiki.core.clock import as_utc, utcnow
from hakiki.core.errors import ApiError
from hakiki.core.pagination import PageRequest
from hakiki.core.privacy.consent import attested_in_console
from hakiki.fraud.bulk import service as bulk_scans
from hakiki.statements import service as statements

router = APIRouter()

TRANSACTIONS = 25
RECENT = 20
ID_LENGTH = 40
READ_SCOPE = "statements:write"  # the API's scope for reading analyses too
BULK_SCOPE = "fraud:read"
ROWS = 25
LEVELS = ("CRITICAL", "HIGH", "MEDIUM", "LOW", "error")


def _page_number(value: str | None) -> int:
    try:
        return max(1, min(int(value or 1), 10_000))
    except ValueError:
        return 1


@router.get("/statements")
async def statements_page(request: Request) -> Response:
    session = await signed_in(request)
    if session is None:
        return to_login()
    principal = principal_of(session)
    recent = None
    if READ_SCOPE in principal.scopes:
        found = await statements.list_analyses(
            runtime_of(request), principal.owner, PageRequest(1, RECENT), {}
        )
        recent = found.data
    return render(request, "statements.html", session, recent=recent)


@router.get("/statements/{analysis_id}")
async def statement_page(request: Request, analysis_id: str) -> Response:
    session = await signed_in(request)
    if session is None:
        return to_login()
    principal = principal_of(session)
    if READ_SCOPE not in principal.scopes:
        raise ApiError(403, "insufficient_scope", f"The {session.role} role cannot read analyses.")
    page = PageRequest(_page_number(request.query_params.get("page")), TRANSACTIONS)
    analysis = await statements.analysis_detail(
        runtime_of(request), principal.owner, analysis_id[:ID_LENGTH], page
    )
    monthly = (analysis.metrics or {}).get("monthly") or []
    labels = [str(m["month"]) for m in monthly]
    flows = balance = None
    if monthly:
        flows = charts.bars(
            labels,
            {
                "inflow": [int(m["inflow"]) for m in monthly],
                "outflow": [int(m["outflow"]) for m in monthly],
            },
        )
        balance = charts.line(labels, [m.get("closing_balance") for m in monthly])
    return render(
        request,
        "statement.html",
        session,
        analysis=analysis,
        monthly=monthly,
        flows=flows,
        balance=balance,
    )


@router.get("/face-scans")
async def face_scans_page(request: Request) -> Response:
    """Bulk face scans: the upload form (scan_type face) and the list, read from the API."""
    session = await signed_in(request)
    if session is None:
        return to_login()
    return render(request, "bulk.html", session, face=True)


@router.get("/face-scans/{bulk_id}")
@router.get("/bulk-scans/{bulk_id}")
async def bulk_scan_page(request: Request, bulk_id: str) -> Response:
    session = await signed_in(request)
    if session is None:
        return to_login()
    principal = principal_of(session)
    if BULK_SCOPE not in principal.scopes:
        raise ApiError(403, "insufficient_scope", f"The {session.role} role cannot read scans.")
    status = request.query_params.get("status")
    status = status if status in ("success", "error") else None
    page = PageRequest(_page_number(request.query_params.get("page")), ROWS)
    runtime = runtime_of(request)
    bulk_id = bulk_id[:ID_LENGTH]
    scan = await bulk_scans.scan_detail(runtime, principal.owner, bulk_id, page, status)
    levels = await bulk_scans.risk_levels(runtime, principal.owner, bulk_id)
    return render(
        request,
        "bulk_scan.html",
        session,
        scan=scan,
        levels=[(name, levels.get(name, 0)) for name in LEVELS],
        row_status=status or "",
    )


# ---------------------------------------------------------------------------------------------
# Background checks: invite candidates, one request's page (each check's real state, its
# evidence, the timeline), reinitiate a stalled or expired request.

BACKGROUND_READ = "background:read"
BACKGROUND_WRITE = "background:write"


def _background_reader(session: Session) -> Principal:
    principal = principal_of(session)
    if BACKGROUND_READ not in principal.scopes:
        raise ApiError(403, "insufficient_scope", f"The {session.role} role cannot read checks.")
    return principal


def _background_writer(session: Session) -> Principal:
    principal = principal_of(session)
    if not session.may(RUN_CALLS) or BACKGROUND_WRITE not in principal.scopes:
        raise ApiError(403, "insufficient_scope", f"The {session.role} role cannot invite.")
    return principal


@router.get("/background")
async def background_page(request: Request) -> Response:
    session = await signed_in(request)
    if session is None:
        return to_login()
    return render(
        request,
        "background.html",
        session,
        packages=SYSTEM_PACKAGES.values(),
        attestation=CANDIDATES_ATTESTATION,
    )


@router.post("/background")
async def invite(request: Request) -> Response:
    """Invite one candidate with a system package (the API's create, as the user). The user
    attests the candidate's consent (a required checkbox with the catalogue's text): stored
    with the call as its consent record, as the API stores the ``consent`` object; refused
    without it."""
    session, form = await posted(request)
    if session is None:
        return to_login()
    principal = _background_writer(session)
    packages = SYSTEM_PACKAGES.values()
    shown: dict[str, Any] = {"packages": packages, "attestation": CANDIDATES_ATTESTATION}
    if form.get("consent_given") != "yes":
        said = (
            "consent_given: tick the attestation that the candidate consented to this "
            "background check (the API's consent; docs/privacy.md#consent)"
        )
        return render(request, "background.html", session, 400, **shown, error=said)
    try:
        body = CandidatesRequest.model_validate(
            {
                "package_id": form.get("package_id", ""),
                "candidates": [
                    {
                        "first_name": form.get("first_name", "").strip(),
                        "last_name": form.get("last_name", "").strip(),
                        "email": form.get("email", "").strip(),
                    }
                ],
            }
        )
        call = Call(runtime_of(request), request, principal, CREATE.key, body.model_dump())
        call.consent = attested_in_console(
            CANDIDATES_ATTESTATION, CANDIDATES_PURPOSES, session.user_id
        )
        made = CandidatesResult.model_validate_json(await candidates.create(call, body))
    except ValidationError as error:
        problem = error.errors()[0]
        field = ".".join(str(part) for part in problem["loc"])
        said = f"{field}: {problem['msg']}"
        return render(request, "background.html", session, 400, **shown, error=said)
    except ApiError as error:
        if error.status_code not in (400, 402, 404, 409):
            raise
        return render(request, "background.html", session, 400, **shown, error=error.message)
    return render(
        request,
        "background.html",
        session,
        **shown,
        invited=made.data.requests[0],
        consent_id=made.consent_id,
    )


async def _request_page(
    request: Request,
    session: Session,
    reference: str,
    *,
    error: str | None = None,
    invitation: str | None = None,
) -> Response:
    principal = _background_reader(session)
    found = await candidates.detail(runtime_of(request), principal.owner, reference[:ID_LENGTH])
    now = utcnow()
    overdue = {
        c.code
        for c in found.checks
        if c.status not in ("completed",) and c.due_at is not None and as_utc(c.due_at) < now
    }
    return render(
        request,
        "background_request.html",
        session,
        400 if error else 200,
        found=found,
        overdue=overdue,
        error=error,
        invitation=invitation,
        can_reinitiate=session.may(RUN_CALLS) and BACKGROUND_WRITE in principal.scopes,
    )


@router.get("/background/{reference}")
async def background_request(request: Request, reference: str) -> Response:
    session = await signed_in(request)
    if session is None:
        return to_login()
    return await _request_page(request, session, reference)


@router.post("/background/{reference}/reinitiate")
async def reinitiate(request: Request, reference: str) -> Response:
    session, _ = await posted(request)
    if session is None:
        return to_login()
    principal = _background_writer(session)
    reference = reference[:ID_LENGTH]
    call = Call(runtime_of(request), request, principal, REINITIATE.key, {})
    try:
        again = ReinitiatedResult.model_validate_json(
            await candidates.reinitiate(call, reference)
        ).data
    except ApiError as error:
        if error.status_code != 409:
            raise
        return await _request_page(request, session, reference, error=error.message)
    return await _request_page(request, session, reference, invitation=again.invitation_url)
