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

SUBJECT_CREATE = Examples(
    (
        TestValue(
            description="enrolled: the sandbox list update turns this subject into an alert",
            body=_SUBJECT,
            expect={
                "http_status": 201,
                "name": "Sandbox Later Listed",
                "reference": "customer-0042",
                "status": "active",
                "source": "api",
            },
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
