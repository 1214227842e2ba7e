"""HTTP handlers of subject requests and retention policies (/v3/privacy)."""

from __future__ import annotations

from fastapi import Depends

from hakiki.core.calls import Call
from hakiki.core.pagination import PageRequest, page_params
from hakiki.core.routing import EndpointRouter
from hakiki.privacy import service
from hakiki.privacy.endpoints import (
    RETENTION_GET,
    RETENTION_RUNS,
    RETENTION_SET,
    SUBJECT_EXPORT,
    SUBJECT_REQUEST,
    SUBJECT_REQUEST_GET,
)
from hakiki.privacy.schemas import (
    PurgeRunList,
    RetentionChange,
    RetentionPolicies,
    SubjectExport,
    SubjectRequest,
    SubjectRequestBody,
)

router = EndpointRouter(tags=["Privacy"])


@router.endpoint(SUBJECT_REQUEST, response_model=SubjectRequest)
async def create_subject_request(body: SubjectRequestBody, call: Call) -> bytes:
    """Accepts a data subject's request and answers 202 with its receipt, `queued`: `access`
    exports everything held about the subject in every category (GET .../export, for 7
    days); `erasure` deletes it, or anonymises the rows that must stay, and keeps what the law
    requires (fraud reports), with the reason in the receipt. Name the subject by your
    `reference` and/or identifiers (identity numbers, phones, e-mails, or first and last name
    with the date of birth). A job does the work; poll GET .../{id}. Free. Sandbox keys act on
    the sandbox's data, live keys on the live data."""
    return await service.create(call, body)


@router.endpoint(SUBJECT_REQUEST_GET, response_model=SubjectRequest)
async def get_subject_request(request_id: str, call: Call) -> SubjectRequest:
    """A subject request and, once completed, its receipt per category (rows found,
    exported, erased, anonymised, kept and why); 404 for another organisation's or
    environment's. The receipt holds no personal data: the identifiers asked about are
    deleted when the request ends. Free. Sandbox keys see the sandbox's requests, live keys
    the live ones."""
    return await service.get(call.runtime, call.principal, request_id)


@router.endpoint(SUBJECT_EXPORT, response_model=SubjectExport)
async def get_subject_export(request_id: str, call: Call) -> SubjectExport:
    """The export of a completed `access` request: category -> table -> rows, with every
    personal column decrypted; 409 before it completes, for an erasure, or 7 days after.
    Free. Sandbox keys read the sandbox's exports, live keys the live ones."""
    return await service.export(call.runtime, call.principal, request_id)


@router.endpoint(RETENTION_GET, response_model=RetentionPolicies)
async def get_retention(call: Call, page: PageRequest = Depends(page_params)) -> RetentionPolicies:
    """Each category's retention in days (yours or the default), with its bounds and the
    reason for them (docs/privacy.md#retention). Free. Sandbox and live keys see the same
    policies: a policy covers both environments."""
    return await service.policies(call.runtime, call.principal, page)


@router.endpoint(RETENTION_SET, response_model=RetentionPolicies)
async def set_retention(body: RetentionChange, call: Call) -> RetentionPolicies:
    """Sets the organisation's retention of the categories named (days within the
    category's bounds; null: back to the default) for both environments, and answers every
    category's. Housekeeping then purges what is older. Free. A sandbox key sets the same
    policies as a live key: they cover both environments."""
    return await service.set_policies(call.runtime, call.principal, body)


@router.endpoint(RETENTION_RUNS, response_model=PurgeRunList)
async def list_retention_runs(call: Call, page: PageRequest = Depends(page_params)) -> PurgeRunList:
    """The housekeeping runs that purged data of yours, newest first, with the rows purged
    per category (both environments). Free. Sandbox and live keys see the same runs."""
    return await service.runs(call.runtime, call.principal, page)
