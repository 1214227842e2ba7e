"""Result pages rendered on the server from the domains' services (issue 36): a statement
analysis with its verdict as a coloured badge, its signals with their evidence and page, its
monthly inflow and outflow and closing-balance charts (SVG drawn here) and its transactions
table, paginated; the organisation's recent analyses; one bulk scan's rows counted by risk
level and listed, filtered, paginated."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import Response

from hakiki.console import charts
from hakiki.console.sessions import principal_of
from hakiki.console.web import render, signed_in, to_login
from hakiki.core.calls import runtime_of
from hakiki.core.errors import ApiError
from hakiki.core.pagination import PageRequest
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
    analysis = await statements.get_analysis(
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
    scan = await bulk_scans.get_scan(runtime, principal.owner, bulk_id, page, status)
    levels = await bulk_scans.risk_levels(runtime, principal.owner, bulk_id)
    return render(
        request,
        "bulk_scan.html",
        session,
        scan=scan,
        levels=[(name, levels.get(name, 0)) for name in LEVELS],
        row_status=status or "",
    )
