"""Ongoing monitoring's durable job (core/jobs): one task, ``screening.monitoring_run``, runs a
run row of ``monitoring_runs``:

- ``delta``: the live lists changed; only their added, amended and removed entries are screened,
  against every live monitored subject, through the index of the subjects;
- ``full``: the day's full pass, every subject of an environment screened against every list
  (catches rule and threshold changes);
- ``billing``: the month's charge of each active live subject (monitoring_billing.py).

A second task, ``screening.monitoring_baseline``, screens one subject just enrolled through the
endpoint against every list (its baseline, queued in the enrolment's transaction), raises its
alerts and records the screening, in one transaction that records it only once: a retry, or a
second delivery, after it committed changes nothing, and one that died before rolls back whole.
It charges nothing (the month's charge covers it).

Restart-safe: a run that died is run again from its row. Raising alerts is idempotent (an open
alert on the same entry fingerprint is left alone), the stored fingerprints of a list move to
the new version only in the transaction that ends the run, and the monthly charges are guarded
per subject and month; progress (``done``, the counts) is recorded as it goes."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterable, Sequence
from dataclasses import replace
from typing import Any

from hakiki.core.clock import utcnow
from hakiki.core.database import read, transaction
from hakiki.core.jobs.registry import JobContext, task
from hakiki.core.runtime import Runtime
from hakiki.engines.screening.engine import ScreeningEngine
from hakiki.engines.screening.model import ListEntity
from hakiki.engines.screening.results import Hit, ListVersion
from hakiki.engines.screening.subject_index import changed_entities, confirm
from hakiki.lists.engines import ScreeningEngines
from hakiki.screening import alerts_repository
from hakiki.screening import monitoring_repository as repository
from hakiki.screening.alerts_service import (
    AlertSubject,
    close_alerts,
    close_alerts_for_entities,
    raise_alerts,
)
from hakiki.screening.monitoring_billing import bill_month
from hakiki.screening.monitoring_screening import Watched, delta_hits, full_hits, watched
from hakiki.screening.monitoring_service import BASELINE_TASK
from hakiki.screening.sandbox import simulated_missing_for_name
from hakiki.screening.schemas import AmlHit

logger = logging.getLogger("hakiki.monitoring")

TASK = "screening.monitoring_run"
BATCH = 500  # subjects with hits whose alerts one transaction raises
CLOSE_BATCH = 500  # removed entries one close call names


class NotYetLoaded(Exception):
    """This process does not hold the list versions the run is for yet: retried later (a
    reload reaches every process within a minute)."""


@task(TASK, max_attempts=10, backoff=(5, 15, 30, 60, 120, 300))
async def run_monitoring(context: JobContext, payload: dict[str, Any]) -> None:
    runtime = context.runtime
    run_id = str(payload["run_id"])
    async with read(runtime.db) as conn:
        run = await repository.get_run(conn, run_id)
    if run is None or run["status"] in ("succeeded", "superseded"):
        return
    if run["kind"] == "billing":
        await _mark_started(runtime, run_id)
        billed = await bill_month(runtime, str(run["target"]["month"]))
        await _finish(runtime, run_id, subjects=billed)
        return
    engine = await _engine(runtime, run)
    if engine is None:
        return
    await _mark_started(runtime, run_id)
    if run["kind"] == "delta":
        await _run_delta(runtime, run, engine)
    else:
        await _run_full(runtime, run, engine)


def lists_of(engine: ScreeningEngine, checks: Iterable[str]) -> list[dict[str, str]]:
    """The list versions a screening of ``checks`` with ``engine`` uses (an adverse media list
    is not one a monitored subject is screened against)."""
    wanted = set(checks)
    return [{"code": v.code, "version": v.version} for v in engine.lists if wanted & set(v.checks)]


def not_run(engine: ScreeningEngine, one: Watched) -> tuple[str, ...]:
    """The subject's checks a screening with ``engine`` cannot run: no list loaded for them
    (in the sandbox, the test name that answers as a server without a PEP list)."""
    held = {check for version in engine.lists for check in version.checks}
    live = one.row["environment"] == "live"
    missing = () if live else simulated_missing_for_name(one.subject.full_name)
    return tuple(c for c in one.checks if c not in held or c in missing)


@task(BASELINE_TASK, max_attempts=10, backoff=(5, 15, 30, 60, 120, 300))
async def run_baseline(context: JobContext, payload: dict[str, Any]) -> None:
    """A subject's baseline screening (see the module's docstring)."""
    runtime = context.runtime
    subject_id = str(payload["subject_id"])
    async with read(runtime.db) as conn:
        row = await repository.subject_by_id(conn, subject_id)
    if row is None or row["status"] != "active" or row["screened_at"] is not None:
        return  # deleted, or screened already (this job's earlier run, or a full pass)
    engines = runtime.part(ScreeningEngines)
    live = row["environment"] == "live"
    engine = await engines.load_live() if live else engines.sandbox
    [one] = await asyncio.to_thread(watched, runtime.vault, [row], runtime.settings.aml_threshold)
    gaps = not_run(engine, one)
    screened = replace(one, checks=tuple(c for c in one.checks if c not in gaps))
    found = await asyncio.to_thread(full_hits, engine, [screened]) if screened.checks else {}
    async with transaction(runtime.db) as conn:
        if not await repository.mark_baseline(
            conn, subject_id, utcnow(), lists_of(engine, screened.checks), gaps
        ):
            return
        await raise_alerts(
            conn,
            runtime,
            org_id=row["org_id"],
            environment=row["environment"],
            subject=alert_subject(runtime, one),
            hits=[AmlHit(**hit.to_dict()) for hit in found.get(0, [])],
            origin="monitoring",
        )


async def _engine(runtime: Runtime, run: dict[str, Any]) -> ScreeningEngine | None:
    """The engine to screen with: the sandbox's, or this process's live one when it holds
    exactly the versions the run is for (never a mix); None when the run was superseded."""
    engines = runtime.part(ScreeningEngines)
    if run["environment"] != "live":
        return engines.sandbox
    engine = await engines.load_live()
    if run["kind"] != "delta":
        return engine
    held = {v.code: v.version for v in engine.lists}
    target: dict[str, str | None] = run["target"]
    if all(held.get(code) == version for code, version in target.items()):
        return engine
    async with transaction(runtime.db) as conn:
        state = await repository.list_state(conn)
        if any(state.get(code) != version for code, version in target.items()):
            # the lists moved on again: a later run covers this change too
            await repository.update_run(conn, run["id"], status="superseded", finished_at=utcnow())
            return None
    raise NotYetLoaded(f"run {run['id']} needs {target}; this process holds {held}")


async def _mark_started(runtime: Runtime, run_id: str) -> None:
    async with transaction(runtime.db) as conn:
        await repository.update_run(conn, run_id, status="running", started_at=utcnow())


async def _finish(runtime: Runtime, run_id: str, **values: Any) -> None:
    async with transaction(runtime.db) as conn:
        await repository.update_run(
            conn, run_id, status="succeeded", finished_at=utcnow(), **values
        )


async def load_watched(
    runtime: Runtime, environment: str, org_id: str | None = None
) -> list[Watched]:
    async with read(runtime.db) as conn:
        rows = await repository.active_subjects(conn, environment, org_id)
    threshold = runtime.settings.aml_threshold
    return await asyncio.to_thread(watched, runtime.vault, rows, threshold)


async def raise_found(
    runtime: Runtime, run_id: str | None, subjects: Sequence[Watched], found: dict[int, list[Hit]]
) -> list[str]:
    """Raise the alerts of the hits found, a batch of subjects per transaction; the ids."""
    raised: list[str] = []
    positions = sorted(found)
    for start in range(0, len(positions), BATCH):
        batch = positions[start : start + BATCH]
        async with transaction(runtime.db) as conn:
            count = 0
            for position in batch:
                one = subjects[position]
                ids = await raise_alerts(
                    conn,
                    runtime,
                    org_id=one.row["org_id"],
                    environment=one.row["environment"],
                    subject=alert_subject(runtime, one),
                    hits=[AmlHit(**hit.to_dict()) for hit in found[position]],
                    origin="monitoring",
                )
                raised.extend(ids)
                count += len(ids)
            if run_id is not None:
                await repository.add_to_run(conn, run_id, alerts_raised=count)
    return raised


def alert_subject(runtime: Runtime, one: Watched) -> AlertSubject:
    sealed = one.row["reference_encrypted"]
    return AlertSubject(
        subject_key=one.row["subject_key"],
        monitored_subject_id=one.row["id"],
        reference=runtime.vault.decrypt(sealed) if sealed else None,
        name=one.subject.full_name,
    )


async def close_removed(
    runtime: Runtime,
    run_id: str | None,
    code: str,
    removed: Sequence[str],
    reason: str,
    *,
    environment: str = "live",
    org_id: str | None = None,
) -> list[str]:
    """Close the open alerts of the environment (of one organisation, for the sandbox list
    update) on entries removed from the list."""
    closed: list[str] = []
    for start in range(0, len(removed), CLOSE_BATCH):
        async with transaction(runtime.db) as conn:
            ids = await close_alerts_for_entities(
                conn,
                runtime,
                list_code=code,
                entity_ids=removed[start : start + CLOSE_BATCH],
                reason=reason,
                environment=environment,
                org_id=org_id,
            )
            if run_id is not None:
                await repository.add_to_run(conn, run_id, alerts_closed=len(ids))
        closed.extend(ids)
    return closed


async def close_unmatched(
    runtime: Runtime,
    run_id: str | None,
    subjects: Sequence[Watched],
    changed: Sequence[tuple[ListEntity, ListVersion]],
    found: dict[int, list[Hit]],
    *,
    environment: str = "live",
    org_id: str | None = None,
) -> list[str]:
    """The open alerts of monitored subjects on entries the change amended, that the amended
    entry no longer gives a hit: closed, "no longer a potential match". Each such (subject,
    entry) pair is scored directly (not through the index of the subjects, whose proposals are
    limited), so an alert closes only when a screening of the subject would not report the
    amended entry; an alert whose pair still reaches the threshold is amended instead. Alerts
    of subjects that are not monitored (onboarding's alone) are left to the analyst: the
    subject's details were never stored to screen again."""
    if not changed:
        return []
    still = {(p, h.list_code, h.entity_id) for p, hits in found.items() for h in hits}
    position = {(w.row["org_id"], w.row["subject_key"]): p for p, w in enumerate(subjects)}
    entries = {(e.list_code, e.entity_id): (e, v) for e, v in changed}
    by_code: dict[str, list[str]] = {}
    for code, entity_id in entries:
        by_code.setdefault(code, []).append(entity_id)
    async with read(runtime.db) as conn:
        rows = [
            row
            for code, ids in by_code.items()
            for row in await alerts_repository.open_alerts_on_entities(
                conn, code, ids, environment=environment, org_id=org_id
            )
        ]
    closing: list[tuple[str, str]] = []
    kept: dict[int, list[Hit]] = {}
    for row in rows:
        at = position.get((row["org_id"], row["subject_key"]))
        if at is None or (at, row["list_code"], row["entity_id"]) in still:
            continue
        entity, version = entries[(row["list_code"], row["entity_id"])]
        one = subjects[at]
        hit = confirm(
            one.subject,
            entity,
            list_version=version.version,
            list_checks=version.checks,
            wanted=one.checks,
            threshold=one.threshold,
        )
        if hit is not None:
            kept.setdefault(at, []).append(hit)
        else:
            reason = (
                f"entry amended in {entity.list_code} version {version.version}: "
                "no longer a potential match (under the threshold)"
            )
            closing.append((row["id"], reason))
    if kept:
        await raise_found(runtime, run_id, subjects, kept)
    closed: list[str] = []
    for start in range(0, len(closing), CLOSE_BATCH):
        batch = closing[start : start + CLOSE_BATCH]
        async with transaction(runtime.db) as conn:
            for alert_id, reason in batch:
                closed += await close_alerts(conn, runtime, [alert_id], reason)
            if run_id is not None:
                await repository.add_to_run(conn, run_id, alerts_closed=len(batch))
    return closed


def _list_changes(
    engine: ScreeningEngine, target: dict[str, str | None], before: dict[str, dict[str, str]]
) -> tuple[list[tuple[ListEntity, ListVersion]], dict[str, list[str]], dict[str, list[ListEntity]]]:
    versions = {v.code: v for v in engine.lists}
    screened: list[tuple[ListEntity, ListVersion]] = []
    removed: dict[str, list[str]] = {}
    changed_by_code: dict[str, list[ListEntity]] = {}
    for code in target:
        version = versions.get(code)
        entities = engine.entities_of(code) if version is not None else iter(())
        changed, gone = changed_entities(before[code], entities)
        changed_by_code[code] = changed
        removed[code] = gone
        if version is not None:
            screened.extend((entity, version) for entity in changed)
    return screened, removed, changed_by_code


async def _run_delta(runtime: Runtime, run: dict[str, Any], engine: ScreeningEngine) -> None:
    target: dict[str, str | None] = run["target"]
    async with read(runtime.db) as conn:
        before = {code: await repository.fingerprints(conn, code) for code in target}
    screened, removed, changed = await asyncio.to_thread(_list_changes, engine, target, before)
    subjects = await load_watched(runtime, "live")
    found = await asyncio.to_thread(delta_hits, subjects, screened)
    async with transaction(runtime.db) as conn:
        await repository.update_run(
            conn, run["id"], subjects=len(subjects), entities=len(screened), done=0
        )
    await raise_found(runtime, run["id"], subjects, found)
    await close_unmatched(runtime, run["id"], subjects, screened, found)
    for code, gone in removed.items():
        reason = f"removed from {code} version {target[code] or '(list no longer loaded)'}"
        await close_removed(runtime, run["id"], code, gone, reason)
    async with transaction(runtime.db) as conn:
        for code in target:
            await repository.store_fingerprints(
                conn, code, ((e.entity_id, e.fingerprint()) for e in changed[code]), removed[code]
            )
        await repository.update_run(
            conn, run["id"], status="succeeded", finished_at=utcnow(), done=len(screened)
        )
    logger.info(
        "monitoring delta %s: %d changed entries, %d subjects, %d with hits",
        run["id"],
        len(screened),
        len(subjects),
        len(found),
    )


async def _run_full(runtime: Runtime, run: dict[str, Any], engine: ScreeningEngine) -> None:
    subjects = await load_watched(runtime, run["environment"])
    async with transaction(runtime.db) as conn:
        await repository.update_run(conn, run["id"], subjects=len(subjects), done=0)
    chunk = 2000
    for start in range(0, len(subjects), chunk):
        part = subjects[start : start + chunk]
        found = await asyncio.to_thread(full_hits, engine, part)
        await raise_found(runtime, run["id"], part, found)
        by_gaps: dict[tuple[tuple[str, ...], tuple[str, ...]], list[str]] = {}
        for one in part:
            gaps = not_run(engine, one)
            checks = tuple(c for c in one.checks if c not in gaps)
            by_gaps.setdefault((gaps, checks), []).append(one.row["id"])
        async with transaction(runtime.db) as conn:
            for (gaps, checks), ids in by_gaps.items():
                lists = lists_of(engine, checks)
                await repository.mark_screened(conn, ids, utcnow(), lists, gaps)
            await repository.add_to_run(conn, run["id"], done=len(part))
    await _finish(runtime, run["id"])
