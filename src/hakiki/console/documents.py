"""Document verifications' result pages (issue 36): the organisation's verifications of this
environment, newest first, and one verification's result as the call answered it: the
document's fields read from the zone (with the fields the zone does not settle), every check
with its status (not_run and attention shown as such, never as passed), the forensics'
measures and the face match. Read through the documents service, scoped to the signed-in
organisation and environment, with the API's scope (documents:read)."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import Response

from hakiki.console.sessions import principal_of
from hakiki.console.web import render, signed_in, to_login
from hakiki.core.calls import runtime_of
from hakiki.core.errors import ApiError
from hakiki.core.pagination import PageRequest
from hakiki.documents import service as documents

router = APIRouter()

SCOPE = "documents:read"
ROWS = 25
ID_LENGTH = 40
CATEGORIES = ("quality", "mrz", "barcode", "consistency", "forensics", "face")


def _page_number(value: str | None) -> int:
    try:
        return max(1, min(int(value or 1), 10_000))
    except ValueError:
        return 1


@router.get("/documents")
async def documents_page(request: Request) -> Response:
    session = await signed_in(request)
    if session is None:
        return to_login()
    principal = principal_of(session)
    if SCOPE not in principal.scopes:
        return render(request, "documents.html", session, 403, found=None)
    page = PageRequest(_page_number(request.query_params.get("page")), ROWS)
    found, total = await documents.list_results(runtime_of(request), principal.owner, page)
    return render(request, "documents.html", session, found=found, pagination=page.describe(total))


@router.get("/documents/{reference}")
async def document_page(request: Request, reference: str) -> Response:
    session = await signed_in(request)
    if session is None:
        return to_login()
    principal = principal_of(session)
    if SCOPE not in principal.scopes:
        raise ApiError(403, "insufficient_scope", f"The {session.role} role cannot read these.")
    kept = await documents.read_result(runtime_of(request), principal.owner, reference[:ID_LENGTH])
    assert kept.data is not None
    by_category = [
        (name, [c for c in kept.data.checks if c.category == name]) for name in CATEGORIES
    ]
    return render(
        request,
        "document.html",
        session,
        kept=kept,
        result=kept.data,
        by_category=[(name, checks) for name, checks in by_category if checks],
    )
