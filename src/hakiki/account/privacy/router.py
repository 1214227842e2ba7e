"""HTTP handlers of the privacy records (/v3/privacy)."""

from __future__ import annotations

from typing import Literal

from fastapi import Depends, Path, Query
from fastapi.responses import StreamingResponse

from hakiki.account.privacy import service
from hakiki.account.privacy.endpoints import AUDIT_LOG, CONSENT
from hakiki.account.privacy.schemas import AuditLogPage, ConsentRecordOut
from hakiki.core.calls import Call
from hakiki.core.pagination import PageRequest, page_params
from hakiki.core.routing import EndpointRouter

router = EndpointRouter(tags=["Privacy"])

FROM = Query(None, alias="from", description="From this time (ISO 8601; a date is midnight UTC).")
TO = Query(None, description="Before this time (ISO 8601).")


@router.endpoint(CONSENT, response_model=ConsentRecordOut)
async def get_consent(
    call: Call, consent_id: str = Path(max_length=40, description="The `consent_id` answered.")
) -> ConsentRecordOut:
    """A consent record of this organisation and environment, decrypted: what the call's
    `consent` said (or, `source` `hosted`, what the subject ticked on a hosted page, with the
    notice's text), the request that carried it and the resource it made. 404 for another
    organisation's. account:admin (owners and admins); free; the read is itself in the audit
    log. Sandbox: the same, the sandbox environment's records."""
    found: ConsentRecordOut = await service.consent(
        call.runtime.db, call.runtime.vault, call.principal, consent_id
    )
    return found


@router.endpoint(AUDIT_LOG, response_model=AuditLogPage)
async def audit_log(
    call: Call,
    page: PageRequest = Depends(page_params),
    since: str | None = FROM,
    until: str | None = TO,
    format: Literal["json", "csv", "jsonl"] = Query(
        "json", description="csv or jsonl: every row in the window, oldest first, as a file."
    ),
) -> AuditLogPage | StreamingResponse:
    """Who (`actor_type` and `actor_id`: an API key, a console user, a hosted page's
    subject) read, created, changed or deleted which personal data (`resource_type`,
    `resource_id`), when, in which request; newest first, paginated. It holds ids, never the
    data. Append-only: nothing can change or remove a row. `?format=csv` (a header row) or
    `jsonl` (one object a line) exports every row in the window, oldest first, as a file; the
    export is itself a row (action `export`). account:admin (owners and admins); free. Sandbox:
    the same, the sandbox environment's rows."""
    window = service.period(since, until)
    if format == "json":
        return await service.audit_page(call.runtime.db, call.principal, window, page)
    if format == "jsonl":
        stream = service.export_jsonl(call.runtime.db, call.principal, window)
        media = "application/x-ndjson"
    else:
        stream = service.export_csv(call.runtime.db, call.principal, window)
        media = "text/csv"
    name = f"audit-log-{call.principal.environment}.{format}"
    return StreamingResponse(
        stream, media_type=media, headers={"Content-Disposition": f'attachment; filename="{name}"'}
    )
