"""Migration 0020 (issue 30) on data an older release left, on both databases: keys made with
the former defaults get the webhook scopes they acted with, narrowly scoped keys do not; review
reasons, reviewers and manual results' recorders become ciphertext the Vault opens, and the
timeline loses its "by <who>"; the downgrade brings the clear columns back."""

from __future__ import annotations

import asyncio
import json
from datetime import UTC, datetime
from pathlib import Path

import pytest
from alembic import command
from sqlalchemy import text

from hakiki.core.crypto import Vault
from hakiki.core.database import create_engine
from hakiki.core.migrate import alembic_config
from hakiki.core.settings import Settings
from tests.conftest import TEST_SECRET_KEY
from tests.support.databases import fresh_postgres_url

BACKENDS = ["sqlite", pytest.param("postgresql", marks=pytest.mark.postgresql)]
BEFORE = "0019_live_subject_index"
FORMER_DEFAULTS = [
    "identity:read",
    "business:read",
    "fraud:read",
    "fraud:write",
    "screening:read",
    "screening:write",
    "background:read",
    "background:write",
    "background:review",
    "tax:read",
    "vehicle:read",
    "documents:read",
    "credit:read",
    "statements:write",
    "evaluation:read",
]
NOW = datetime(2026, 11, 1, tzinfo=UTC)
SEED = [
    (
        "INSERT INTO organisations (id, name, approved, currency, created_at) "
        "VALUES ('org_1', 'old', true, 'KES', :now)",
        {},
    ),
    (
        "INSERT INTO api_keys (id, org_id, client_id, secret_hash, environment, scopes, "
        "created_at) VALUES (:id, 'org_1', :id, 'x', 'sandbox', :scopes, :now)",
        {"id": "key_default", "scopes": json.dumps(FORMER_DEFAULTS)},
    ),
    (
        "INSERT INTO api_keys (id, org_id, client_id, secret_hash, environment, scopes, "
        "created_at) VALUES (:id, 'org_1', :id, 'x', 'sandbox', :scopes, :now)",
        {"id": "key_narrow", "scopes": json.dumps(["background:read"])},
    ),
    (
        "INSERT INTO screening_reviews (id, org_id, environment, subject_key, list_code, "
        "entity_id, entity_fingerprint, decision, reason, reviewer, api_key_id, created_at) "
        "VALUES ('rev_1', 'org_1', 'sandbox', 'k', 'l', 'e', 'f', 'true_match', "
        "'Same passport number', 'amina@lender.example', 'key_default', :now)",
        {},
    ),
    (
        "INSERT INTO background_requests (id, reference, org_id, environment, request_id, "
        "package_id, package_snapshot, status, candidate_encrypted, token_hash, invitation, "
        "expires_at, price, charged_amount, currency, created_at, updated_at) VALUES ('bgr_1', "
        "'BG-1', 'org_1', 'sandbox', 'req', 'pkg', '{}', 'in_progress', 'x', 't', 1, :now, 0, "
        "0, 'KES', :now, :now)",
        {},
    ),
    (
        "INSERT INTO background_checks (request_id, code, kind, status, price, recorded_by) "
        "VALUES ('bgr_1', 'criminal_record', 'manual', 'completed', 0, 'amina@lender.example')",
        {},
    ),
    (
        "INSERT INTO background_timeline (request_id, position, at, event, status, detail) "
        "VALUES ('bgr_1', 1, :now, 'check_completed', 'in_progress', "
        "'criminal_record: clear by amina@lender.example')",
        {},
    ),
]


async def _settings(backend: str, data_dir: Path) -> Settings:
    url = await fresh_postgres_url("m0020") if backend == "postgresql" else None
    return Settings(data_dir=data_dir, database_url=url, secret_key=TEST_SECRET_KEY)


async def _execute(settings: Settings, statements: list[tuple[str, dict[str, object]]]) -> None:
    engine = create_engine(settings)
    async with engine.begin() as conn:
        for sql, values in statements:
            await conn.execute(text(sql), {"now": NOW, **values})
    await engine.dispose()


async def _rows(settings: Settings, sql: str) -> list[dict[str, object]]:
    engine = create_engine(settings)
    async with engine.connect() as conn:
        rows = [dict(r._mapping) for r in await conn.execute(text(sql))]
    await engine.dispose()
    return rows


@pytest.mark.parametrize("backend", BACKENDS)
async def test_0020_moves_old_data_to_the_scope_model_and_encrypts_it(
    backend: str, tmp_path: Path
) -> None:
    settings = await _settings(backend, tmp_path)
    config = alembic_config(settings)
    await asyncio.to_thread(command.upgrade, config, BEFORE)
    await _execute(settings, SEED)
    await asyncio.to_thread(command.upgrade, config, "head")

    def scopes(row: dict[str, object]) -> list[str]:
        held = row["scopes"]
        return list(json.loads(held) if isinstance(held, str) else held)  # type: ignore[arg-type]

    keys = {r["id"]: scopes(r) for r in await _rows(settings, "SELECT id, scopes FROM api_keys")}
    assert keys["key_default"] == [*FORMER_DEFAULTS, "webhooks:read", "webhooks:write"]
    assert keys["key_narrow"] == ["background:read"]
    vault = Vault(TEST_SECRET_KEY)
    (review,) = await _rows(settings, "SELECT * FROM screening_reviews")
    assert "reason" not in review and "reviewer" not in review
    assert vault.decrypt(str(review["reason_encrypted"])) == "Same passport number"
    assert vault.decrypt(str(review["reviewer_encrypted"])) == "amina@lender.example"
    (check,) = await _rows(settings, "SELECT * FROM background_checks")
    assert vault.decrypt(str(check["recorded_by_encrypted"])) == "amina@lender.example"
    (entry,) = await _rows(settings, "SELECT detail FROM background_timeline")
    assert entry["detail"] == "criminal_record: clear"

    await asyncio.to_thread(command.downgrade, config, BEFORE)
    (review,) = await _rows(settings, "SELECT reason, reviewer FROM screening_reviews")
    assert review == {"reason": "Same passport number", "reviewer": "amina@lender.example"}
    (check,) = await _rows(settings, "SELECT recorded_by FROM background_checks")
    assert check["recorded_by"] == "amina@lender.example"
