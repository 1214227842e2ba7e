"""The request's timers, as durable jobs (docs/jobs.md): the invitation e-mail, the reminder
before expiry, the expiry itself, each manual check's SLA, the automated checks' run and the
sandbox's scripted paths. Each job carries the invitation number it was scheduled for, so a
reinitiated request's old timers do nothing; each writes only after locking the request
(``_locked``, the lock order of docs/decisions.md#background-lock-order) and looking again, and
moves it only by a compare-and-set, so a job run twice (at least once delivery) changes nothing
the second time.

Time is read through ``hakiki.core.clock`` (``clock.utcnow()``), which the tests move."""

from __future__ import annotations

import json
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy.ext.asyncio import AsyncConnection

from hakiki.background import lifecycle, mail, repository, runners
from hakiki.background.check_types import ALL_CODES
from hakiki.background.repository import LockedRequest
from hakiki.core import billing, clock
from hakiki.core.clock import as_utc
from hakiki.core.database import read, transaction
from hakiki.core.jobs.queue import enqueue
from hakiki.core.jobs.registry import JobContext, task
from hakiki.core.runtime import Runtime

MAIL_TASK = "background.mail"
EXPIRE_TASK = "background.expire"
SLA_TASK = "background.sla"
RUN_TASK = "background.run_checks"
SANDBOX_TASK = "background.sandbox_path"


def _seconds_until(when: Any) -> float:
    return max(0.0, (as_utc(when) - clock.utcnow()).total_seconds())


async def schedule_invitation(
    conn: AsyncConnection, runtime: Runtime, row: dict[str, Any], url: str | None
) -> None:
    """The e-mail now, the reminder, the expiry, and a sandbox path (in the caller's
    transaction). The link is kept only encrypted, in the mail jobs; None when no link may
    be e-mailed (no HAKIKI_PUBLIC_BASE_URL, core.mail_links): the mail job notes why."""
    vault, settings = runtime.vault, runtime.settings
    base = {"request_id": row["id"], "invitation": row["invitation"]}
    sealed = vault.encrypt(url) if url is not None else None
    await enqueue(conn, MAIL_TASK, base | {"kind": "invitation", "url": sealed})
    until_expiry = _seconds_until(row["expires_at"])
    remind_in = until_expiry - settings.background_reminder_hours * 3600
    if settings.background_reminder_hours > 0 and remind_in > 0:
        await enqueue(
            conn, MAIL_TASK, base | {"kind": "reminder", "url": sealed}, delay_seconds=remind_in
        )
    await enqueue(conn, EXPIRE_TASK, base, delay_seconds=until_expiry)
    if row["sandbox_path"]:
        await enqueue(conn, SANDBOX_TASK, base, delay_seconds=settings.background_sandbox_seconds)


async def _current(runtime: Runtime, payload: dict[str, Any]) -> dict[str, Any] | None:
    """The request, if the job is still about its current invitation."""
    async with read(runtime.db) as conn:
        row = await repository.get_request(conn, str(payload["request_id"]))
    if row is None or int(row["invitation"]) != int(payload["invitation"]):
        return None
    return row


async def _locked(
    conn: AsyncConnection, payload: dict[str, Any], status: str | None = None
) -> LockedRequest | None:
    """The request, locked in this transaction, if the job is still about its current
    invitation (and it is in ``status``, when given)."""
    row = await repository.lock_request(conn, str(payload["request_id"]))
    if row is None or int(row["invitation"]) != int(payload["invitation"]):
        return None
    return row if status is None or row["status"] == status else None


async def _note(
    runtime: Runtime, payload: dict[str, Any], at: datetime, event: str, detail: str
) -> None:
    async with transaction(runtime.db) as conn:
        row = await _locked(conn, payload)
        if row is not None:
            await lifecycle.note(conn, row, at, event, detail)


@task(MAIL_TASK, max_attempts=6)
async def send_mail(context: JobContext, payload: dict[str, Any]) -> None:
    """An SMTP failure raises and the job retries; with no SMTP server configured the
    timeline says so (the link in the API answer still works)."""
    runtime = context.runtime
    row = await _current(runtime, payload)
    if row is None or row["status"] != "pending":
        return
    kind = str(payload["kind"])
    now = clock.utcnow()
    if not mail.configured(runtime.settings) or payload.get("url") is None:
        if kind == "invitation":
            await _note(runtime, payload, now, "email_not_sent", _why_not_sent(runtime))
        return
    candidate = json.loads(runtime.vault.decrypt(row["candidate_encrypted"]))
    url = runtime.vault.decrypt(str(payload["url"]))
    async with read(runtime.db) as conn:
        org = await lifecycle.org_name(conn, row["org_id"])
    expires = as_utc(row["expires_at"]).strftime("%Y-%m-%d %H:%M UTC")
    write = mail.invitation_text if kind == "invitation" else mail.reminder_text
    subject = f"{org}: background check" + (" (reminder)" if kind == "reminder" else "")
    await mail.send(
        runtime.settings,
        candidate["email"],
        subject,
        write(org, candidate["first_name"], url, expires),
    )
    await _note(runtime, payload, now, f"{kind}_sent", f"{kind} e-mailed to the candidate")


def _why_not_sent(runtime: Runtime) -> str:
    if not mail.configured(runtime.settings):
        return "no SMTP server is configured"
    return (
        "HAKIKI_PUBLIC_BASE_URL is not set and the call did not come to localhost: a link "
        "built from its Host header could be forged"
    )


async def expire(runtime: Runtime, payload: dict[str, Any], detail: str) -> None:
    """pending -> expired, releasing what the reservation has not paid for."""
    async with transaction(runtime.db) as conn:
        row = await _locked(conn, payload, "pending")
        if row is None:
            return
        moved = await lifecycle.transition(
            conn, row, "expire", clock.utcnow(), detail, {"hold_id": None}
        )
        if moved is not None:
            await billing.close(conn, row["hold_id"], row["org_id"])


@task(EXPIRE_TASK, max_attempts=6)
async def expire_invitation(context: JobContext, payload: dict[str, Any]) -> None:
    runtime = context.runtime
    row = await _current(runtime, payload)
    if row is None or row["status"] != "pending":
        return
    left = _seconds_until(row["expires_at"])
    if left > 0:  # woken early (a clock step): look again when it is due
        async with transaction(runtime.db) as conn:
            await enqueue(conn, EXPIRE_TASK, payload, delay_seconds=left)
        return
    await expire(runtime, payload, "the invitation passed expires_at unused")


@task(SLA_TASK, max_attempts=6)
async def check_sla(context: JobContext, payload: dict[str, Any]) -> None:
    runtime = context.runtime
    row = await _current(runtime, payload)
    if row is None or row["status"] != "in_progress":
        return
    code = str(payload["code"])
    async with read(runtime.db) as conn:
        checks = {c["code"]: c for c in await repository.checks_of(conn, row["id"])}
    check = checks.get(code)
    if check is None or check["status"] == "completed" or check["due_at"] is None:
        return
    left = _seconds_until(check["due_at"])
    if left > 0:
        async with transaction(runtime.db) as conn:
            await enqueue(conn, SLA_TASK, payload, delay_seconds=left)
        return
    async with transaction(runtime.db) as conn:
        locked = await _locked(conn, payload, "in_progress")
        if locked is None:
            return
        await lifecycle.transition(
            conn, locked, "stall", clock.utcnow(), f"{code} passed its SLA without a result"
        )


def _candidate(row: dict[str, Any], runtime: Runtime) -> runners.Candidate:
    candidate = json.loads(runtime.vault.decrypt(row["candidate_encrypted"]))
    given = json.loads(runtime.vault.decrypt(row["submission_encrypted"] or "{}") or "{}")
    snapshot = json.loads(row["package_snapshot"])
    return runners.Candidate(
        live=row["environment"] == "live",
        org_id=row["org_id"],
        environment=row["environment"],
        country=snapshot["country"],
        first_name=candidate["first_name"],
        last_name=candidate["last_name"],
        id_number=given.get("id_number") or candidate.get("id_number"),
        date_of_birth=given.get("date_of_birth"),
        tax_pin=given.get("tax_pin"),
        company_numbers=given.get("company_numbers"),
    )


async def _checks_gave_up(
    runtime: Runtime, conn: AsyncConnection, payload: dict[str, Any], error: str
) -> None:
    """The automated checks' job failed for good: the request stalls now (the customer hears
    of it through the webhook) rather than at the SLA."""
    row = await _locked(conn, payload, "in_progress")
    if row is None:
        return
    await lifecycle.transition(
        conn, row, "stall", clock.utcnow(), "the automated checks could not run; reinitiate"
    )


@task(RUN_TASK, max_attempts=5, on_give_up=_checks_gave_up)
async def run_checks(context: JobContext, payload: dict[str, Any]) -> None:
    """Each automated check still running: its engine, then its result and charge in one
    transaction (a check already recorded is left as it is)."""
    runtime = context.runtime
    row = await _current(runtime, payload)
    if row is None or row["status"] != "in_progress":
        return  # a stalled request's checks wait for reinitiate
    async with read(runtime.db) as conn:
        checks = await repository.checks_of(conn, row["id"])
    who = _candidate(row, runtime)
    for check in checks:
        if check["kind"] != "automated" or check["status"] != "running":
            continue
        outcome = await runners.run(runtime, check["code"], who)
        async with transaction(runtime.db) as conn:
            latest = await _locked(conn, payload, "in_progress")
            if latest is None:
                return
            await lifecycle.finish_check(
                conn,
                runtime.vault,
                latest,
                check,
                result=outcome.result,
                evidence=outcome.evidence,
                at=clock.utcnow(),
                billable=outcome.billable,
            )


async def submit(
    conn: AsyncConnection,
    runtime: Runtime,
    row: LockedRequest,
    given: dict[str, Any],
    documents: list[dict[str, Any]],
) -> LockedRequest | None:
    """The candidate's submission: pending -> in_progress, automated checks running,
    manual ones awaiting an analyst with their SLA, the documents sealed; None when the
    request was no longer pending."""
    now = clock.utcnow()
    moved = await lifecycle.transition(
        conn,
        row,
        "submit",
        now,
        "the candidate gave consent and submitted the form",
        {
            "submitted_at": now,
            "submission_encrypted": runtime.vault.encrypt(json.dumps(given)),
        },
    )
    if moved is None:
        return None
    base = {"request_id": row["id"], "invitation": row["invitation"]}
    for check in await repository.checks_of(conn, row["id"]):
        if check["status"] == "completed":
            continue
        # Every check has an SLA, automated ones too: one stuck on a source becomes a stalled
        # request the customer is told about, not a report left in progress.
        due = now + timedelta(hours=ALL_CODES[check["code"]].turnaround_hours)
        status = "running" if check["kind"] == "automated" else "awaiting_analyst"
        await repository.update_check(conn, row, check["code"], {"status": status, "due_at": due})
        await enqueue(
            conn,
            SLA_TASK,
            base | {"code": check["code"]},
            delay_seconds=_seconds_until(due),
        )
    for document in documents:
        await repository.insert_document(conn, row, document)
    await enqueue(conn, RUN_TASK, base)
    return moved
