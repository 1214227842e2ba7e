"""HTTP handlers of ongoing monitoring (/v3/screening/monitored-subjects and the sandbox's
list update); thin: the work is in monitoring_service and monitoring_sandbox_update."""

from __future__ import annotations

from fastapi import Depends, Path, Query, Response

from hakiki.core.calls import Call
from hakiki.core.pagination import PageRequest, page_params
from hakiki.core.routing import EndpointRouter
from hakiki.screening import monitoring_service
from hakiki.screening.monitoring_endpoints import (
    SANDBOX_LIST_UPDATE,
    SUBJECT_CREATE,
    SUBJECT_DELETE,
    SUBJECT_READ,
    SUBJECTS,
)
from hakiki.screening.monitoring_sandbox_update import sandbox_list_update
from hakiki.screening.monitoring_schemas import (
    MonitoredSubjectList,
    MonitoredSubjectRequest,
    MonitoredSubjectResult,
    SandboxListUpdate,
)

router = EndpointRouter(tags=["Ongoing monitoring"])

SubjectId = Path(max_length=40, description="The monitored subject's id (msub_...).")


@router.endpoint(
    SUBJECT_CREATE,
    response_model=MonitoredSubjectResult,
    responses={
        200: {
            "model": MonitoredSubjectResult,
            "description": "Already enrolled: the subject where it stands (PENDING until its "
            "baseline has run, then its outcome).",
        }
    },
)
async def create_subject(body: MonitoredSubjectRequest, call: Call) -> Response:
    """Enrols a customer in ongoing monitoring: a person (`name`, or `first_name`,
    `middle_name` and `last_name`; `birth_date`, `gender`, `countries`, `identifiers`) or a
    business, vessel or aircraft (`subject_type` and `name`), with your own `reference` and the
    `checks` to keep running (sanction and pep). Whenever a list changes, its added, amended
    and removed entries are screened against every monitored subject, and a daily full pass
    screens each against every list: a new or changed potential match opens an alert (GET
    /v3/screening/alerts); a removed entry closes it. An enrolment is a job: its baseline
    screening against the current lists is queued at once, and the answer is the envelope,
    PENDING (`reference`: the subject's id, `data.state`: enrolling) until it has run; GET
    /v3/screening/monitored-subjects/{subject_id} then answers COMPLETED, PASS with no open
    alert, REVIEW with open alerts (`data.open_alert_ids`), INCOMPLETE when a check could not
    run. 201 for a new subject; 200 with the subject already enrolled under that `reference`
    (or, without one, with the same details), where it stands. Stored encrypted.
    Live: charged monthly per active subject (price `screening.monitoring.month`), not per
    call: the baseline is part of it; sandbox: free, and
    POST /v3/screening/monitoring/sandbox-list-update plays a list update. Sandbox:
    "Sandbox Sanction Person" completes REVIEW with an alert, "Sandbox No PEP List" INCOMPLETE
    (no PEP list), any other name PASS ("Sandbox Later Listed" until the list update)."""
    answer, status = await monitoring_service.create(call, body)
    return Response(answer, status_code=status, media_type="application/json")


@router.endpoint(SUBJECTS, response_model=MonitoredSubjectList)
async def list_subjects(
    call: Call,
    page: PageRequest = Depends(page_params),
    reference: str | None = Query(None, max_length=100, description="Only this reference."),
) -> MonitoredSubjectList:
    """Your organisation's active monitored subjects in this environment, newest first,
    paginated; `reference` finds one by your reference. Each item is a subject as a read's
    `data` is (`state`, `open_alert_ids`, ...). Free. Sandbox: the subjects enrolled
    with sandbox keys."""
    return await monitoring_service.list_subjects(call.runtime, call.principal, reference, page)


@router.endpoint(SUBJECT_READ, response_model=MonitoredSubjectResult)
async def get_subject(call: Call, subject_id: str = SubjectId) -> MonitoredSubjectResult:
    """One monitored subject in the envelope: PENDING while its baseline screening runs, then
    COMPLETED (PASS: no open alert; REVIEW: open alerts, in `data.open_alert_ids`),
    INCOMPLETE when a check could not run at its last screening (never clear then); a deleted
    one too (`data.state: deleted`; FAILED when deleted before its baseline ran). Another
    organisation's, or one of the other environment, is 404. Free. Sandbox: the subjects
    enrolled with sandbox keys."""
    return await monitoring_service.get(call, subject_id)


@router.endpoint(SUBJECT_DELETE)
async def delete_subject(call: Call, subject_id: str = SubjectId) -> Response:
    """204: the subject is no longer screened nor charged from the next month; its alerts
    stay in the queue with their history. Another organisation's subject, or one already
    deleted, is 404. Free. Sandbox: the same, on the subjects enrolled with sandbox keys."""
    await monitoring_service.delete(call.runtime, call.principal, subject_id)
    return Response(status_code=204)


@router.endpoint(SANDBOX_LIST_UPDATE, response_model=SandboxListUpdate)
async def sandbox_update(call: Call) -> bytes:
    """Sandbox keys only (a live key gets 404): publishes the sandbox lists' next version for
    your organisation and screens what changed against your sandbox monitored subjects, at
    once. The update adds "Sandbox Later Listed" (born 1982-02-02, KE), removes "Sandbox
    Delisted Person" and amends "Sandbox Sanction Person": a subject enrolled as "Sandbox
    Later Listed" gets an alert, an open alert on "Sandbox Delisted Person" is closed. Answers
    what changed and the alerts raised and closed. Free."""
    return await sandbox_list_update(call)
