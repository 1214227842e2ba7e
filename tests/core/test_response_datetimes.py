"""Every datetime a response carries names its zone (UTC, `Z` or `+00:00`), on both databases:
SQLite stores timestamps without one, and the column type gives it back (core/clock.py)."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta, timezone
from typing import Any

import httpx
import pytest_asyncio
from sqlalchemy import select

from hakiki.core.database import Database, read, transaction
from hakiki.core.ids import new_id
from hakiki.core.tables import wallet_transactions
from hakiki.webhooks.tables import webhook_endpoints
from tests.conftest import AccountFactory
from tests.fraud.bulk.conftest import csv_bytes, finished, upload
from tests.screening.test_reviews import REVIEWS, review_of, sanction_screen
from tests.webhooks.conftest import create_endpoint, deliveries, eventually
from tests.webhooks.receiver import Receiver, run_receiver

# An ISO 8601 date and time, with or without a zone.
_DATETIME = re.compile(
    r"\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(?P<zone>Z|[+-]\d{2}:?\d{2})?"
)


def datetimes(value: Any, path: str = "") -> list[tuple[str, str]]:
    """Every (path, text) of a string in ``value`` that is an ISO datetime."""
    if isinstance(value, dict):
        return [found for k, v in value.items() for found in datetimes(v, f"{path}.{k}")]
    if isinstance(value, list):
        return [found for i, v in enumerate(value) for found in datetimes(v, f"{path}[{i}]")]
    if isinstance(value, str) and _DATETIME.fullmatch(value):
        return [(path, value)]
    return []


def naive(value: Any) -> list[tuple[str, str]]:
    return [(p, t) for p, t in datetimes(value) if _DATETIME.fullmatch(t)["zone"] is None]  # type: ignore[index]


@pytest_asyncio.fixture
async def receiver(db: Database) -> AsyncIterator[Receiver]:
    """A webhook receiver; the test's endpoints end with it (as in tests/webhooks)."""
    with run_receiver() as running:
        yield running
    async with transaction(db) as conn:
        await conn.execute(
            webhook_endpoints.update()
            .where(webhook_endpoints.c.deleted_at.is_(None))
            .values(deleted_at=datetime.now(UTC))
        )


def test_the_walk_finds_naive_datetimes() -> None:
    body = {"a": "2026-05-01T10:00:00", "b": [{"c": "2026-05-01T10:00:00.5+00:00"}],
            "d": "2026-05-01T10:00:00Z", "e": "2026-05-01", "f": "at 2026-05-01T10:00"}  # fmt: skip
    assert [p for p, _ in datetimes(body)] == [".a", ".b[0].c", ".d"]
    assert naive(body) == [(".a", "2026-05-01T10:00:00")]


async def test_every_datetime_in_the_account_surface_has_a_zone(
    client: httpx.AsyncClient, make_account: AccountFactory, receiver: Receiver, db: Database
) -> None:
    account = await make_account("sandbox", balance=5_000)
    headers = account.headers
    bodies: dict[str, Any] = {}

    async def get(name: str, path: str, **params: Any) -> Any:
        response = await client.get(path, params=params, headers=headers)
        assert response.status_code == 200, (path, response.text)
        bodies[name] = response.json()
        return bodies[name]

    await get("wallet", "/v3/account/wallet")
    await get("transactions", "/v3/account/wallet/transactions")

    endpoint = await create_endpoint(client, account, receiver.url)
    receiver.secrets = [endpoint["secret"]]
    bodies["webhook created"] = endpoint
    rotated = await client.post(
        f"/v3/account/webhooks/{endpoint['id']}/rotate-secret", headers=headers
    )
    assert rotated.status_code == 200, rotated.text
    bodies["webhook rotated"] = rotated.json()
    assert rotated.json()["previous_secret_expires_at"]
    receiver.secrets.append(rotated.json()["secret"])
    await get("webhooks", "/v3/account/webhooks")
    await get("webhook", f"/v3/account/webhooks/{endpoint['id']}")

    report = {
        "subject": {"last_name": "Okafor",
                    "identifiers": [{"type": "bvn", "value": "22987650199"}]},
        "incident": {"category": "identity_theft", "date": "2026-01-02",
                     "description": "Opened an account with a stolen BVN."},
    }  # fmt: skip
    created = await client.post("/v3/fraud/reports", json=report, headers=headers)
    assert created.status_code == 201, created.text
    bodies["report created"] = created.json()
    await get("reports", "/v3/fraud/reports")
    await get("report", f"/v3/fraud/reports/{created.json()['reference']}")

    screened = await sanction_screen(client, headers)
    review = await client.post(REVIEWS, json=review_of(screened, "true_match"), headers=headers)
    assert review.status_code == 201, review.text
    bodies["review created"] = review.json()
    await get("reviews", REVIEWS)
    bodies["screening after review"] = await sanction_screen(client, headers)

    scan = await upload(client, headers, csv_bytes([["phone"], ["0712345678"]]), "phone")
    bodies["bulk created"] = scan
    bodies["bulk done"] = await finished(client, headers, scan["bulk_id"])
    await get("bulk scans", "/v3/fraud/bulk-scan")

    # The bulk scan's webhook is delivered: its delivery and attempts are listed.
    await eventually(lambda: receiver.accepted())
    bodies["deliveries"] = await eventually(lambda: _delivered(client, account, endpoint["id"]))
    bodies["webhook payloads"] = [r.json for r in receiver.accepted()]
    await get("lists", "/v3/account/lists")

    expected = {
        "wallet", "transactions", "webhook created", "webhook rotated", "webhooks", "webhook",
        "report created", "reports", "report", "review created", "reviews",
        "screening after review", "bulk created", "bulk done", "bulk scans", "deliveries",
        "webhook payloads",
    }  # fmt: skip
    carrying = {name for name, body in bodies.items() if datetimes(body)}
    assert expected <= carrying, expected - carrying  # the walk does see their datetimes
    problems = {name: naive(body) for name, body in bodies.items() if naive(body)}
    assert problems == {}


async def _delivered(
    client: httpx.AsyncClient, account: Any, endpoint_id: str
) -> list[dict[str, Any]] | None:
    found = await deliveries(client, account, endpoint_id=endpoint_id)
    done = [d for d in found if d["delivered_at"] and d["attempts"]]
    return done or None


async def test_the_column_type_stores_utc_and_reads_it_back_with_its_zone(
    make_account: AccountFactory, db: Database
) -> None:
    """A time written in another zone is stored as its UTC instant; read back, it is aware."""
    account = await make_account("sandbox", balance=100)
    async with read(db) as conn:
        row = (
            await conn.execute(
                select(wallet_transactions.c.created_at).where(
                    wallet_transactions.c.org_id == account.org_id
                )
            )
        ).one()
    assert row.created_at.tzinfo is not None and row.created_at.utcoffset() == timedelta(0)

    nairobi = timezone(timedelta(hours=3))
    when = datetime(2026, 3, 1, 12, 0, tzinfo=nairobi)
    naive_utc = datetime(2026, 3, 1, 9, 0)  # naive values are read as UTC
    async with transaction(db) as conn:
        ids = [new_id("whe"), new_id("whe")]
        for endpoint_id, created in zip(ids, (when, naive_utc), strict=True):
            await conn.execute(
                webhook_endpoints.insert().values(
                    id=endpoint_id, org_id=account.org_id, environment="sandbox",
                    url="https://hooks.example.com/x", secret_encrypted="x",
                    created_at=created, updated_at=created, deleted_at=created,
                )
            )  # fmt: skip
    async with read(db) as conn:
        rows = (
            await conn.execute(
                select(webhook_endpoints.c.created_at).where(webhook_endpoints.c.id.in_(ids))
            )
        ).all()
    assert [r.created_at for r in rows] == [datetime(2026, 3, 1, 9, 0, tzinfo=UTC)] * 2
    assert all(r.created_at.tzinfo is not None for r in rows)
    async with read(db) as conn:  # a comparison with an aware bound value finds the instant
        later = (
            await conn.execute(
                select(webhook_endpoints.c.id).where(
                    webhook_endpoints.c.id.in_(ids), webhook_endpoints.c.created_at >= when
                )
            )
        ).all()
    assert len(later) == 2
