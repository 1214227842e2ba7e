"""Monitored subjects: enrolled through POST /v3/screening/monitored-subjects or with
`monitor: true` on a screening or AML-with-ID; listed, read and deleted by their organisation.
Every detail is stored encrypted (the Vault); the reference is found by its keyed hash.

An enrolment is a job (docs/decisions.md, issue 35): through the endpoint, the subject's
baseline screening against the current lists (the durable job ``BASELINE_TASK``, in
monitoring_runs.py) is queued in the enrolment's transaction, and the subject answers the
envelope PENDING until it has run; enrolled by a screening, that screening was its baseline."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any, cast

from hakiki.core.auth import Principal
from hakiki.core.calls import Call, finish_write
from hakiki.core.clock import utcnow
from hakiki.core.crypto import Vault
from hakiki.core.database import read, transaction
from hakiki.core.envelope import Outcome, Verdict, enveloped
from hakiki.core.errors import ApiError
from hakiki.core.ids import new_id
from hakiki.core.jobs.queue import enqueue
from hakiki.core.pagination import PageRequest
from hakiki.core.runtime import Runtime
from hakiki.engines.screening.model import Schema
from hakiki.engines.screening.subject import Subject
from hakiki.screening import alerts_repository
from hakiki.screening import monitoring_repository as repository
from hakiki.screening.aml_schemas import SCREENING_WORDS
from hakiki.screening.monitoring_schemas import (
    MonitoredSubject,
    MonitoredSubjectList,
    MonitoredSubjectRequest,
    MonitoredSubjectResult,
    ScreenedList,
    SubjectState,
    subject_messages,
)
from hakiki.screening.review_service import name_subject_key
from hakiki.screening.schemas import AmlResult

BASELINE_TASK = "screening.monitoring_baseline"  # monitoring_runs.run_baseline
MONITORED_CHECKS = ("sanction", "pep")  # list checks; adverse media is not a list
TYPE_BY_SCHEMA: dict[str, str] = {
    "Person": "person",
    "Organization": "business",
    "Vessel": "vessel",
    "Aircraft": "aircraft",
}
SCHEMA_BY_TYPE: dict[str, Schema] = {v: cast(Schema, k) for k, v in TYPE_BY_SCHEMA.items()}


@dataclass(frozen=True)
class Screened:
    """A whole screening of a subject: the list versions it used, the checks that could not
    run (no list loaded for them)."""

    lists: list[dict[str, str]]
    not_run: list[str]


@dataclass(frozen=True)
class Enrolment:
    """What to enrol: the subject as screened, its key, and the caller's choices; ``screened``
    the screening that enrols it (``monitor: true``: its baseline), None to queue one."""

    subject: Subject
    subject_key: str
    reference: str | None
    checks: Sequence[str]
    threshold: float | None
    source: str
    screened: Screened | None = None


def screened_by(aml: AmlResult) -> Screened:
    """A screening's result as the baseline of the subject it enrols (``monitor: true``)."""
    return Screened(
        lists=[
            {"code": used.code, "version": used.version}
            for used in aml.lists
            if set(used.checks) & set(MONITORED_CHECKS)
        ],
        not_run=[gap.check for gap in aml.unavailable],
    )


def reference_hash(vault: Vault, reference: str) -> str:
    return vault.lookup_hash("monitoring", "reference", reference.strip())


def subject_of(body: MonitoredSubjectRequest) -> Subject:
    has_parts = (body.first_name or "").strip() or (body.last_name or "").strip()
    if not (body.name or "").strip() and not has_parts:
        raise ApiError(
            400,
            "invalid_request",
            "Give the subject's name, or first_name and last_name.",
            details=[{"field": "name", "problem": "is required (or first_name and last_name)"}],
        )
    person = body.subject_type == "person"
    if not person and not (body.name or "").strip():
        raise ApiError(
            400,
            "invalid_request",
            f"A {body.subject_type} is enrolled by its name.",
            details=[{"field": "name", "problem": f"is required for a {body.subject_type}"}],
        )
    return Subject(
        name=body.name,
        first_name=body.first_name if person else None,
        middle_name=body.middle_name if person else None,
        last_name=body.last_name if person else None,
        schema=SCHEMA_BY_TYPE[body.subject_type],
        birth_date=body.birth_date if person else None,
        countries=tuple(body.countries),
        identifiers=tuple(body.identifiers),
        gender=body.gender if person else None,
    )


def seal_subject(vault: Vault, subject: Subject) -> str:
    return vault.encrypt(
        json.dumps(
            {
                "name": subject.name,
                "first_name": subject.first_name,
                "middle_name": subject.middle_name,
                "last_name": subject.last_name,
                "birth_date": subject.birth_date,
                "countries": list(subject.countries),
                "identifiers": list(subject.identifiers),
                "gender": subject.gender,
            }
        )
    )


def open_subject(vault: Vault, sealed: str, subject_type: str) -> Subject:
    fields = json.loads(vault.decrypt(sealed))
    return Subject(
        name=fields["name"],
        first_name=fields["first_name"],
        middle_name=fields["middle_name"],
        last_name=fields["last_name"],
        schema=SCHEMA_BY_TYPE[subject_type],
        birth_date=fields["birth_date"],
        countries=tuple(fields["countries"]),
        identifiers=tuple(fields["identifiers"]),
        gender=fields["gender"],
    )


def subject_state(row: dict[str, Any]) -> SubjectState:
    if row["status"] != "active":
        return "deleted"
    return "enrolling" if row["screened_at"] is None else "active"


def subject_out(vault: Vault, row: dict[str, Any], alert_ids: list[str]) -> MonitoredSubject:
    subject = open_subject(vault, row["subject_encrypted"], row["subject_type"])
    not_run = row["checks_not_run"]
    sealed_reference = row["reference_encrypted"]
    return MonitoredSubject(
        id=row["id"],
        reference=vault.decrypt(sealed_reference) if sealed_reference else None,
        subject_type=row["subject_type"],
        name=subject.full_name,
        first_name=subject.first_name,
        middle_name=subject.middle_name,
        last_name=subject.last_name,
        birth_date=subject.birth_date,
        gender=subject.gender,
        countries=list(subject.countries),
        identifiers=list(subject.identifiers),
        checks=row["checks"].split(","),
        threshold=row["threshold"],
        subject_key=row["subject_key"],
        source=row["source"],
        state=subject_state(row),
        created_at=row["created_at"],
        deleted_at=row["deleted_at"],
        last_screened_at=row["screened_at"],
        lists_screened=[ScreenedList(**one) for one in row["screened_lists"] or []],
        checks_not_run=not_run.split(",") if not_run else [],
        open_alerts=len(alert_ids),
        open_alert_ids=alert_ids,
    )


def subject_outcome(subject: MonitoredSubject) -> tuple[Outcome, Verdict | None]:
    """Where the subject stands in the envelope: PENDING until its baseline has run (FAILED
    when deleted before), then as a screening with its open alerts as hits would answer:
    REVIEW with open alerts, PASS with none, never clear when a check could not run."""
    if subject.last_screened_at is None:
        return (Outcome.PENDING if subject.state == "enrolling" else Outcome.FAILED), None
    complete = not subject.checks_not_run
    word = "POTENTIAL_MATCH" if subject.open_alerts else "CLEAR" if complete else "INCOMPLETE"
    return SCREENING_WORDS[(word, complete)]


def subject_result(call: Call, subject: MonitoredSubject) -> MonitoredSubjectResult:
    outcome, verdict = subject_outcome(subject)
    return enveloped(
        MonitoredSubjectResult,
        call,
        None,
        reference=subject.id,
        data=subject,
        outcome=outcome,
        verdict=verdict,
        found=bool(subject.open_alerts) if subject.last_screened_at else False,
        message=subject_messages(subject.open_alerts, subject.checks_not_run)[outcome],
    )


async def alert_ids_of(
    conn: Any, principal: Principal, rows: Sequence[dict[str, Any]]
) -> dict[str, list[str]]:
    """Per subject key of these subjects, its open alerts' ids."""
    return await alerts_repository.open_alert_ids(
        conn, principal.org_id, principal.environment, [row["subject_key"] for row in rows]
    )


async def _existing(
    conn: Any, vault: Vault, principal: Principal, enrolment: Enrolment
) -> dict[str, Any] | None:
    """The subject already enrolled: by reference when one is given, else by subject key."""
    org_id, environment = principal.org_id, principal.environment
    if enrolment.reference:
        return await repository.find_active(
            conn,
            org_id,
            environment,
            column="reference_hash",
            value=reference_hash(vault, enrolment.reference),
        )
    return await repository.find_active(
        conn, org_id, environment, column="subject_key", value=enrolment.subject_key
    )


def _row(vault: Vault, principal: Principal, enrolment: Enrolment) -> dict[str, Any]:
    reference = enrolment.reference.strip() if enrolment.reference else None
    checks = [c for c in MONITORED_CHECKS if c in enrolment.checks]
    screened = enrolment.screened
    return {
        "id": new_id("msub"),
        "org_id": principal.org_id,
        "environment": principal.environment,
        "subject_key": enrolment.subject_key,
        "reference_hash": reference_hash(vault, reference) if reference else None,
        "reference_encrypted": vault.encrypt(reference) if reference else None,
        "subject_encrypted": seal_subject(vault, enrolment.subject),
        "subject_type": TYPE_BY_SCHEMA[enrolment.subject.schema],
        "checks": ",".join(checks),
        "threshold": enrolment.threshold,
        "source": enrolment.source,
        "status": "active",
        "created_at": utcnow(),
        "deleted_at": None,
        "screened_at": utcnow() if screened else None,
        "screened_lists": screened.lists if screened else None,
        "checks_not_run": _gaps(checks, screened),
    }


def _gaps(checks: Sequence[str], screened: Screened | None) -> str | None:
    """The monitored checks the enrolling screening could not run, as stored."""
    if screened is None:
        return None
    return ",".join(c for c in checks if c in screened.not_run) or None


async def enrol_in(
    conn: Any, runtime: Runtime, principal: Principal, enrolment: Enrolment
) -> dict[str, Any]:
    """Enrol in the caller's transaction, or find the subject already enrolled (idempotent by
    reference, else by subject key); the stored row. A new subject not enrolled by a screening
    gets its baseline screening queued in the same transaction."""
    found = await _existing(conn, runtime.vault, principal, enrolment)
    if found is not None:
        return found
    row = _row(runtime.vault, principal, enrolment)
    await repository.insert_subject(conn, row)
    if enrolment.screened is None:
        await enqueue(conn, BASELINE_TASK, {"subject_id": row["id"]})
    return row


def monitored_checks(checks: Sequence[str]) -> list[str]:
    """The list checks among a screening's: what monitoring keeps running (400 when none)."""
    kept = [c for c in MONITORED_CHECKS if c in checks]
    if not kept:
        raise ApiError(
            400,
            "invalid_request",
            "monitor: true needs a sanction or pep check; adverse media is not monitored.",
            details=[{"field": "monitor", "problem": "needs the sanction or pep check"}],
        )
    return kept


async def enrol_if_asked(call: Call, enrolment: Enrolment, *, asked: bool) -> str | None:
    """`monitor: true` on a screening: enrol the subject just screened (its list checks); its
    id. None when not asked."""
    if not asked:
        return None
    enrolment = replace(enrolment, checks=monitored_checks(enrolment.checks))
    async with transaction(call.runtime.db) as conn:
        row = await enrol_in(conn, call.runtime, call.principal, enrolment)
    return str(row["id"])


async def create(call: Call, body: MonitoredSubjectRequest) -> tuple[bytes, int]:
    """The subject enrolled (201, PENDING: its baseline queued), or the one already enrolled
    (200, where it stands), in the envelope, and the status."""
    subject = subject_of(body)
    runtime = call.runtime
    enrolment = Enrolment(
        subject=subject,
        subject_key=name_subject_key(runtime.vault, subject),
        reference=body.reference,
        checks=list(body.checks),
        threshold=body.threshold,
        source="api",
    )
    async with read(runtime.db) as conn:
        found = await _existing(conn, runtime.vault, call.principal, enrolment)
    stored: dict[str, Any] = dict(found) if found else {}
    alerts: dict[str, list[str]] = {}

    async def write(conn: Any) -> None:
        stored.update(await enrol_in(conn, runtime, call.principal, enrolment))
        alerts.update(await alert_ids_of(conn, call.principal, [stored]))

    def render() -> bytes:
        subject = subject_out(runtime.vault, stored, alerts[stored["subject_key"]])
        return subject_result(call, subject).model_dump_json().encode()

    status = 200 if found else 201
    answer = await finish_write(
        call, write, render, description="Monitored subject", status_code=status
    )
    return answer, status


def _not_found(subject_id: str) -> ApiError:
    return ApiError(404, "not_found", f"No monitored subject {subject_id}.")


async def get(call: Call, subject_id: str) -> MonitoredSubjectResult:
    """The subject in the envelope: PENDING until its baseline has run, then its outcome."""
    runtime, principal = call.runtime, call.principal
    async with read(runtime.db) as conn:
        row = await repository.get_subject(
            conn, principal.org_id, principal.environment, subject_id
        )
        if row is None:
            raise _not_found(subject_id)
        alerts = await alert_ids_of(conn, principal, [row])
    return subject_result(call, subject_out(runtime.vault, row, alerts[row["subject_key"]]))


async def list_subjects(
    runtime: Runtime, principal: Principal, reference: str | None, page: PageRequest
) -> MonitoredSubjectList:
    hashed = reference_hash(runtime.vault, reference) if reference else None
    async with read(runtime.db) as conn:
        total = await repository.count_subjects(
            conn, principal.org_id, principal.environment, hashed
        )
        rows = await repository.list_subjects(
            conn,
            principal.org_id,
            principal.environment,
            hashed,
            offset=page.offset,
            limit=page.page_size,
        )
        alerts = await alert_ids_of(conn, principal, rows)
    return MonitoredSubjectList(
        data=[subject_out(runtime.vault, row, alerts[row["subject_key"]]) for row in rows],
        pagination=page.describe(total),
    )


async def delete(runtime: Runtime, principal: Principal, subject_id: str) -> None:
    """Stop monitoring the subject (kept, marked deleted: its alerts keep their history)."""
    async with transaction(runtime.db) as conn:
        row = await repository.get_subject(
            conn, principal.org_id, principal.environment, subject_id
        )
        if row is None or row["status"] != "active":
            raise _not_found(subject_id)
        await repository.delete_subject(conn, subject_id, utcnow())
