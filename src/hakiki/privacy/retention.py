"""Retention policies per organisation and category, and the housekeeping purge that applies
them (docs/privacy.md#retention). Each category has a documented default and bounds: the
lower bound is what the law or the category's purpose needs kept, the upper what storage
limitation allows. The purge erases a record with every row found through it (a background
request's checks and documents, a record's webhook events) and records what it purged."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy.ext.asyncio import AsyncConnection

from hakiki.core.clock import utcnow
from hakiki.core.database import Database, read, transaction
from hakiki.core.ids import new_id
from hakiki.core.scopes import ENVIRONMENTS
from hakiki.core.settings import Settings
from hakiki.privacy import repository, subject_data
from hakiki.privacy.catalogue import BY_NAME, SubjectTable

EXPORT_DAYS = 7  # an access export can be fetched this long, then it is deleted

_AML = (
    "customer due diligence records are kept at least five years after the relationship "
    "(Kenya's Proceeds of Crime and Anti-Money Laundering Act, Nigeria's Money Laundering "
    "(Prevention and Prohibition) Act 2022)"
)


@dataclass(frozen=True)
class Category:
    name: str
    tables: tuple[str, ...]
    default_days: int | Callable[[Settings], int]
    min_days: int
    max_days: int
    reason: str

    def default(self, settings: Settings) -> int:
        days = self.default_days
        return days(settings) if callable(days) else days

    @property
    def roots(self) -> tuple[SubjectTable, ...]:
        return tuple(BY_NAME[name] for name in self.tables)


CATEGORIES: dict[str, Category] = {
    c.name: c
    for c in (
        Category(
            "request_log",
            ("request_logs",),
            lambda s: s.request_log_retention_days,
            30,
            730,
            "kept 30 days at least to answer billing disputes and investigate abuse; "
            "default HAKIKI_REQUEST_LOG_RETENTION_DAYS (90)",
        ),
        Category(
            "credit",
            ("credit_reports",),
            lambda s: s.credit_report_retention_days,
            1,
            365,
            "a bureau report serves the decision it was pulled for; default "
            "HAKIKI_CREDIT_REPORT_RETENTION_DAYS (90), at most a year",
        ),
        Category("identity", ("verifications",), 2555, 1825, 3650, _AML),
        Category("documents", ("document_verifications",), 2555, 1825, 3650, _AML),
        Category(
            "credit_decisions",
            ("credit_decisions",),
            2555,
            365,
            3650,
            "a decision is explained and replayed when the applicant or a regulator asks; "
            "kept for the loan's life at least a year",
        ),
        Category("registry_checks", ("registry_checks",), 2555, 1825, 3650, _AML),
        Category("verification_sessions", ("verification_sessions",), 2555, 1825, 3650, _AML),
        Category(
            "statements",
            ("statement_analyses",),
            730,
            30,
            2555,
            "an analysis backs a credit decision; the uploaded file itself goes after "
            "HAKIKI_STATEMENT_FILE_RETENTION_DAYS",
        ),
        Category(
            "background",
            ("background_requests",),
            1095,
            180,
            2555,
            "a candidate may dispute a screening decision: kept six months at least",
        ),
        Category(
            "webhooks",
            ("webhook_events",),
            90,
            7,
            365,
            "events carry ids and outcomes; kept long enough to resend a missed delivery",
        ),
    )
}


async def effective(db: Database, settings: Settings, org_id: str) -> list[dict[str, Any]]:
    """Every category's days for the organisation: its policy, else the default."""
    async with read(db) as conn:
        set_days = {p["category"]: p for p in await repository.policies(conn, org_id)}
    out = []
    for category in CATEGORIES.values():
        policy = set_days.get(category.name)
        out.append(
            {
                "category": category.name,
                "days": policy["days"] if policy else category.default(settings),
                "default_days": category.default(settings),
                "min_days": category.min_days,
                "max_days": category.max_days,
                "source": "organisation" if policy else "default",
                "reason": category.reason,
                "updated_at": policy["updated_at"] if policy else None,
            }
        )
    return out


async def apply(db: Database, settings: Settings) -> dict[tuple[str, str], int]:
    """Housekeeping: erase what every organisation keeps past its retention, and record the
    run. What is due is found with reads first (a query or two per category, across every
    organisation); a write transaction opens only for an organisation, environment and
    category with rows due (it finds them again, so a row another process erased meanwhile is
    not counted). With nothing due the run writes nothing: on SQLite every write transaction
    is a turn at the write gate, where every other writer of the file waits."""
    started = utcnow()
    async with read(db) as conn:
        orgs = await repository.organisation_ids(conn)
        policies = {
            (p["org_id"], p["category"]): p["days"] for p in await repository.policies(conn)
        }
        due = await _due(conn, settings, started, orgs, policies)
        unowned_cutoff = started - timedelta(days=CATEGORIES["request_log"].default(settings))
        exports_cutoff = started - timedelta(days=EXPORT_DAYS)
        unowned = await repository.unowned_logs_before(conn, unowned_cutoff)
        exports = await repository.exports_before(conn, exports_cutoff)
    counts: dict[tuple[str, str], int] = {}
    for category, org_id, environment, cutoff in due:
        async with transaction(db) as conn:
            found = await subject_data.older(conn, category.roots, org_id, environment, cutoff)
            receipt = await subject_data.erase(conn, found, expired=True)
        purged = sum(entry["erased"] for entry in receipt.values())
        if purged:
            counts[(org_id, category.name)] = counts.get((org_id, category.name), 0) + purged
    if not (counts or unowned or exports):
        return counts
    async with transaction(db) as conn:
        # Calls no organisation owns (a refused key): the request log's default.
        await repository.purge_unowned_logs(conn, unowned_cutoff)
        purged_exports = await repository.purge_exports_before(conn, exports_cutoff)
        if counts or purged_exports:
            run_id = new_id("rtr")
            await repository.insert_run(
                conn,
                {"id": run_id, "started_at": started, "finished_at": utcnow()},
                [
                    {"run_id": run_id, "org_id": org, "category": name, "rows": rows}
                    for (org, name), rows in counts.items()
                ],
            )
    return counts


async def _due(
    conn: AsyncConnection,
    settings: Settings,
    started: datetime,
    orgs: list[str],
    policies: dict[tuple[str, str], int],
) -> list[tuple[Category, str, str, datetime]]:
    """(category, organisation, environment, cutoff) for each with rows past its retention:
    per category one query for the organisations on the default, one per other length set."""
    known = set(orgs)
    due: list[tuple[Category, str, str, datetime]] = []
    for category in CATEGORIES.values():
        default = category.default(settings)
        by_days: dict[int, list[str]] = {}
        for (org_id, name), days in policies.items():
            if name == category.name and org_id in known and days != default:
                by_days.setdefault(days, []).append(org_id)
        own = [org for group in by_days.values() for org in group]
        holders: dict[tuple[str, str], int] = {}
        for spec in category.roots:
            if spec.scope is not None:  # no columns of its own to ask: every pair is a candidate
                pairs = {(org, env) for org in orgs for env in ENVIRONMENTS}
                holders.update(
                    {pair: policies.get((pair[0], category.name), default) for pair in pairs}
                )
                continue
            cutoff = started - timedelta(days=default)
            for pair in await repository.holders_of_older(conn, spec, cutoff, excluding=own):
                holders[pair] = default
            for days, group in by_days.items():
                cutoff = started - timedelta(days=days)
                for pair in await repository.holders_of_older(conn, spec, cutoff, only=group):
                    holders[pair] = days
        for (org_id, environment), days in sorted(holders.items()):
            if org_id in known and environment in ENVIRONMENTS:
                due.append((category, org_id, environment, started - timedelta(days=days)))
    return due
