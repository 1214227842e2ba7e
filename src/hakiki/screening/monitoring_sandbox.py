"""Ongoing monitoring in the sandbox: the monitored-subjects endpoints' test values, and the
sandbox lists' next version, which POST /v3/screening/monitoring/sandbox-list-update publishes
for the caller's sandbox subjects (docs/sandbox.md#ongoing-monitoring).

The update, against the sandbox lists every sandbox screening uses (lists/sandbox.py):

- adds ``sbx-s-5`` "Sandbox Later Listed" (born 1982-02-02, KE) to the sanctions list: a
  subject of that name is CLEAR at onboarding and becomes an alert;
- removes ``sbx-s-4`` "Sandbox Delisted Person": its open alerts are closed;
- amends ``sbx-s-1`` "Sandbox Sanction Person" (a new programme): its open alerts are amended.
"""

from __future__ import annotations

from dataclasses import replace

from hakiki.core.endpoints import Examples, TestValue
from hakiki.engines.screening.model import ListEntity, ListSnapshot, NameEntry
from hakiki.identity.sandbox_values import INVALID
from hakiki.lists.sandbox import sandbox_snapshots

NEXT_VERSION = "sandbox-2"
ADDED = ListEntity(
    entity_id="sbx-s-5",
    list_code="sandbox_sanction",
    schema="Person",
    names=(NameEntry("Sandbox Later Listed"),),
    programs=("SANDBOX",),
    birth_dates=("1982-02-02",),
    countries=("ke",),
)
REMOVED_ID = "sbx-s-4"
AMENDED_ID = "sbx-s-1"


def next_snapshots() -> list[ListSnapshot]:
    """The sandbox lists as the update publishes them."""
    updated: list[ListSnapshot] = []
    for snapshot in sandbox_snapshots():
        entities = list(snapshot.entities)
        if snapshot.code == "sandbox_sanction":
            entities = [
                replace(e, programs=(*e.programs, "SANDBOX-UPDATED"))
                if e.entity_id == AMENDED_ID
                else e
                for e in entities
                if e.entity_id != REMOVED_ID
            ]
            entities.append(ADDED)
        updated.append(replace(snapshot, version=NEXT_VERSION, entities=tuple(entities)))
    return updated


_SUBJECT = {
    "first_name": "Sandbox",
    "last_name": "Later Listed",
    "birth_date": "1982-02-02",
    "countries": ["KE"],
    "reference": "customer-0042",
}


def _enrolling(name: str) -> dict[str, object]:
    """What an enrolment answers at once: PENDING, its baseline screening queued."""
    return {
        "http_status": 201,
        "status": "PENDING",
        "async_pending": True,
        "verdict": None,
        "data.name": name,
        "data.state": "enrolling",
        "data.source": "api",
    }


# What each subject's read (GET /v3/screening/monitored-subjects/{id}) answers once its
# baseline has run, in the test values' descriptions (docs/sandbox.md#ongoing-monitoring).
SUBJECT_CREATE = Examples(
    (
        TestValue(
            description="PENDING, then COMPLETED PASS once its baseline has run (not listed "
            "yet); the sandbox list update then turns it into an alert (REVIEW)",
            body=_SUBJECT,
            expect={**_enrolling("Sandbox Later Listed"), "data.reference": "customer-0042"},
        ),
        TestValue(
            description="PENDING, then COMPLETED REVIEW: its baseline finds the sandbox "
            "sanctions entry and opens an alert (data.open_alert_ids)",
            body={"name": "Sandbox Sanction Person", "birth_date": "1970-01-01"},
            expect=_enrolling("Sandbox Sanction Person"),
        ),
        TestValue(
            description="PENDING, then INCOMPLETE (no verdict, never clear): its baseline "
            "answers as a server without a PEP list (data.checks_not_run: pep)",
            body={"name": "Sandbox No PEP List"},
            expect=_enrolling("Sandbox No PEP List"),
        ),
        TestValue(
            description="no name: 400",
            body={"reference": "customer-0043"},
            expect={**INVALID, "details.0.field": "name"},
        ),
        TestValue(
            description="checks other than sanction and pep: 400",
            body={**_SUBJECT, "checks": ["adverse_media"]},
            expect={**INVALID, "details.0.field": "checks.0"},
        ),
    )
)
SUBJECTS = Examples(
    (
        TestValue(
            description="a new organisation monitors no one",
            query={},
            expect={"http_status": 200, "pagination.total_items": 0, "data": []},
        ),
        TestValue(description="page 0: 400", query={"page": 0}, expect=INVALID),
    )
)
SANDBOX_LIST_UPDATE = Examples(
    (
        TestValue(
            description="the sandbox lists' next version, screened against your sandbox "
            "subjects (a new organisation has none)",
            body={},
            expect={
                "http_status": 200,
                "list_version": NEXT_VERSION,
                "subjects_screened": 0,
                "removed": [REMOVED_ID],
            },
        ),
    )
)
