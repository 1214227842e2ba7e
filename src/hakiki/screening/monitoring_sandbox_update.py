"""POST /v3/screening/monitoring/sandbox-list-update: the sandbox's list update, for one
organisation. The sandbox lists' next version (monitoring_sandbox.next_snapshots) is compared
with the lists sandbox screenings use, and only what changed is screened against the caller's
sandbox subjects, with the same index, scorer and alert writers as a live list update's delta
run (at once, in the request: the sandbox lists are a handful of entries)."""

from __future__ import annotations

import asyncio

from hakiki.core.calls import Call, finish_call
from hakiki.core.errors import ApiError
from hakiki.engines.screening.model import ListEntity
from hakiki.engines.screening.results import ListVersion
from hakiki.engines.screening.subject_index import changed_entities
from hakiki.lists.sandbox import sandbox_snapshots
from hakiki.screening.monitoring_runs import (
    close_removed,
    close_unmatched,
    load_watched,
    raise_found,
)
from hakiki.screening.monitoring_sandbox import NEXT_VERSION, next_snapshots
from hakiki.screening.monitoring_schemas import SandboxListUpdate
from hakiki.screening.monitoring_screening import delta_hits


async def sandbox_list_update(call: Call) -> bytes:
    if call.principal.live:
        raise ApiError(
            404,
            "not_found",
            "The sandbox list update is for sandbox keys; live lists change when the operator "
            "updates them (hakiki lists update).",
        )
    before = {
        snapshot.code: {e.entity_id: e.fingerprint() for e in snapshot.entities}
        for snapshot in sandbox_snapshots()
    }
    screened: list[tuple[ListEntity, ListVersion]] = []
    added: list[str] = []
    removed: dict[str, list[str]] = {}
    for snapshot in next_snapshots():
        version = ListVersion(
            snapshot.code, snapshot.title, snapshot.version, tuple(sorted(snapshot.checks))
        )
        changed, gone = changed_entities(before.get(snapshot.code, {}), snapshot.entities)
        screened.extend((entity, version) for entity in changed)
        added.extend(entity.entity_id for entity in changed)
        removed[snapshot.code] = gone
    runtime = call.runtime
    subjects = await load_watched(runtime, "sandbox", call.principal.org_id)
    found = await asyncio.to_thread(delta_hits, subjects, screened)
    raised = await raise_found(runtime, None, subjects, found)
    org_id = call.principal.org_id
    # only the caller's alerts: every sandbox organisation shares the sandbox lists, and
    # this update is the caller's own rehearsal of one
    closed = await close_unmatched(
        runtime, None, subjects, screened, found, environment="sandbox", org_id=org_id
    )
    for code, gone in removed.items():
        reason = f"removed from {code} version {NEXT_VERSION} (sandbox list update)"
        closed += await close_removed(
            runtime, None, code, gone, reason, environment="sandbox", org_id=org_id
        )
    answer = SandboxListUpdate(
        list_version=NEXT_VERSION,
        added=added,
        removed=[entity_id for gone in removed.values() for entity_id in gone],
        subjects_screened=len(subjects),
        alerts_raised=raised,
        alerts_closed=closed,
    )
    return await finish_call(
        call,
        billable=False,
        response_code=None,
        subject=None,
        render=lambda _charge: answer.model_dump_json().encode(),
        description="Sandbox list update",
    )
