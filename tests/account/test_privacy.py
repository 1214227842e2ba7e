"""Consent records and the audit log (issue 40, docs/privacy.md), on SQLite and PostgreSQL:
consent required where the law needs it and optional elsewhere, stored encrypted (the database
searched for the values in clear), its id answered; audit rows for reads and changes, refused
UPDATE and DELETE, the list and its exports, another organisation's rows out of sight, scopes."""

from __future__ import annotations

import base64
import csv
import io
import uuid
from pathlib import Path
from typing import Any

import httpx
import orjson
import pytest
from sqlalchemy import delete, select, text, update

from hakiki.core.database import Database, read, transaction
from hakiki.core.endpoints import CATALOGUE, Endpoint
from hakiki.core.privacy.audit import AuditWriter
from hakiki.core.privacy.repository import consents_of_subject
from hakiki.core.privacy.tables import audit_log, consent_records
from hakiki.core.runtime import Runtime
from hakiki.core.settings import Settings
from hakiki.statements.sandbox import sample
from tests.conftest import AccountFactory
from tests.support.consent import CONSENT, CONSENT_FORM

ADMIN = [
    "account:admin",
    "credit:read",
    "screening:read",
    "verification:write",
    "verification:read",
    "statements:write",
    "background:write",
]


def bureau(number: str = "12345670", consent: Any = None) -> dict[str, Any]:
    body: dict[str, Any] = {
        "country_code": "KE",
        "id_type": "national_id",
        "id_number": number,
        "report_reason": "new_application",
    }
    if consent is not None:
        body["consent"] = consent
    return body


def consent(**more: Any) -> dict[str, Any]:
    return {**CONSENT, "purposes": ["credit_report"], **more}


def field_of(response: httpx.Response) -> list[str]:
    return [d["field"] for d in response.json().get("details", [])]


async def flushed(runtime: Runtime) -> None:
    await runtime.part(AuditWriter).flush()


async def audit_rows(db: Database, org_id: str) -> list[dict[str, Any]]:
    async with read(db) as conn:
        rows = await conn.execute(
            select(audit_log).where(audit_log.c.org_id == org_id).order_by(audit_log.c.id)
        )
        return [dict(r) for r in rows.mappings()]


def _in_files(folder: Path, needles: list[bytes]) -> list[str]:
    """Where any of ``needles`` is in the database files (the WAL and shared memory too)."""
    files = [path for path in folder.rglob("*.db*") if path.is_file()]
    assert files, "no database file"
    return [f"{v!r} in {p.name}" for p in files for v in needles if v in p.read_bytes()]


async def in_clear(settings: Settings, db: Database, values: list[str]) -> list[str]:
    """Where any of ``values`` is found in clear: every file of the SQLite data folder, or
    every text column of every PostgreSQL table."""
    needles = [v.encode() for v in values]
    if settings.is_sqlite:
        return _in_files(Path(settings.data_dir), needles)
    found = []
    async with read(db) as conn:
        columns = (
            await conn.execute(
                text(
                    "SELECT table_name, column_name FROM information_schema.columns"
                    " WHERE table_schema = 'public' AND data_type IN"
                    " ('text', 'character varying', 'json', 'jsonb')"
                )
            )
        ).all()
        for table, column in columns:
            stored = await conn.execute(text(f'SELECT "{column}"::text FROM "{table}"'))
            content = "\n".join(v for (v,) in stored if v is not None).encode()
            found += [f"{v!r} in {table}.{column}" for v in needles if v in content]
    return found


async def test_bureau_consent_is_stored_encrypted_and_its_id_answered(
    client: httpx.AsyncClient,
    make_account: AccountFactory,
    settings: Settings,
    db: Database,
    runtime: Runtime,
) -> None:
    account = await make_account("sandbox", scopes=ADMIN)
    reference = f"cust-{uuid.uuid4().hex}"
    notice = f"notice-{uuid.uuid4().hex[:16]}"
    sent = consent(subject_reference=reference, notice_version=notice, language="sw")
    response = await client.post(
        "/v3/credit/bureau", json=bureau(consent=sent), headers=account.headers
    )
    assert response.status_code == 200, response.text
    body = response.json()
    consent_id = body["consent_id"]
    assert consent_id.startswith("cns_") and list(body)[-1] == "consent_id"
    read_back = await client.get(f"/v3/privacy/consents/{consent_id}", headers=account.headers)
    assert read_back.status_code == 200, read_back.text
    record = read_back.json()
    assert record["source"] == "api" and record["endpoint"] == "credit.bureau"
    assert record["reference"] == body["reference"]
    assert record["request_id"] == body["request_id"]
    assert record["subject_reference"] == reference and record["notice_version"] == notice
    assert record["purposes"] == ["credit_report"] and record["language"] == "sw"
    assert record["obtained_at"].startswith("2026-11-20T09:14:00")
    async with read(db) as conn:
        stored = (
            (await conn.execute(select(consent_records).where(consent_records.c.id == consent_id)))
            .mappings()
            .one()
        )
    assert stored["subject_hash"] == runtime.vault.lookup_hash(
        "subject_reference", account.org_id, reference
    )
    assert stored["consent_encrypted"].startswith("v1.")
    # Found for a subject-rights request by either keyed hash (docs/privacy.md#consent).
    number = runtime.vault.lookup_hash("KE", "national_id", "12345670")
    assert stored["identifier_hash"] == number
    async with read(db) as conn:
        by_reference = [
            r["id"]
            async for r in consents_of_subject(conn, account.org_id, stored["subject_hash"], None)
        ]
        by_number = [r["id"] async for r in consents_of_subject(conn, account.org_id, None, number)]
        elsewhere = [
            r["id"]
            async for r in consents_of_subject(conn, "org_other", stored["subject_hash"], None)
        ]
    assert by_reference == by_number == [consent_id] and elsewhere == []
    await runtime.request_log.flush()
    await flushed(runtime)
    assert await in_clear(settings, db, [reference, notice]) == []


async def test_consent_true_is_still_accepted_as_the_callers_attestation(
    client: httpx.AsyncClient, make_account: AccountFactory
) -> None:
    account = await make_account("sandbox", scopes=ADMIN)
    response = await client.post(
        "/v3/credit/bureau", json=bureau(consent=True), headers=account.headers
    )
    assert response.status_code == 200, response.text
    record = (
        await client.get(
            f"/v3/privacy/consents/{response.json()['consent_id']}", headers=account.headers
        )
    ).json()
    assert record["source"] == "attested" and record["method"] == "attested"
    assert record["purposes"] == ["credit_report"] and record["notice_version"] is None


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"consent": None}, "consent"),
        ({"consent": False}, "consent"),
        ({"consent": consent(obtained_at="2099-01-01T00:00:00Z")}, "consent.obtained_at"),
        ({"consent": consent(obtained_at="2026-11-20")}, "consent.obtained_at"),
        ({"consent": consent(obtained_at="2026-11-20T09:14:00")}, "consent.obtained_at"),
        ({"consent": consent(notice_version=None)}, "consent"),
        ({"consent": consent(notice_url="ftp://x")}, "consent.notice_url"),
        ({"consent": consent(method="telepathy")}, "consent.method"),
        ({"consent": consent(purposes=[])}, "consent.purposes"),
        ({"consent": consent(purposes=["marketing"])}, "consent.purposes.0"),
        ({"consent": consent(language="English")}, "consent.language"),
        ({"consent": consent(extra=1)}, "consent.extra"),
    ],
)
async def test_a_bad_or_missing_consent_is_a_400_naming_the_field(
    client: httpx.AsyncClient, make_account: AccountFactory, change: dict[str, Any], field: str
) -> None:
    account = await make_account("sandbox")
    body = {**bureau(), **change}
    if change["consent"] is None:
        del body["consent"]
    response = await client.post("/v3/credit/bureau", json=body, headers=account.headers)
    assert response.status_code == 400, response.text
    assert field in field_of(response), response.text


async def test_consent_is_required_for_sessions_checks_and_statements(
    client: httpx.AsyncClient, make_account: AccountFactory
) -> None:
    account = await make_account("sandbox", scopes=ADMIN)
    session = {
        "steps": ["id_number"],
        "country_code": "KE",
        "id_channel": "national_id",
        "customer_reference": "cust-1",
    }
    missing = await client.post("/v3/verification/sessions", json=session, headers=account.headers)
    assert missing.status_code == 400 and "consent" in field_of(missing), missing.text
    made = await client.post(
        "/v3/verification/sessions", json={**session, "consent": CONSENT}, headers=account.headers
    )
    assert made.status_code == 201, made.text
    assert made.json()["consent_id"].startswith("cns_")
    invite = {
        "package_id": "pkg_none",
        "candidates": [{"first_name": "A", "last_name": "B", "email": "a@example.com"}],
    }
    missing = await client.post("/v3/background/candidates", json=invite, headers=account.headers)
    assert missing.status_code == 400 and "consent" in field_of(missing), missing.text
    pdf = base64.b64decode(sample("mpesa-genuine.pdf")["content_base64"])
    upload = {"file": ("statement.pdf", pdf, "application/pdf")}
    missing = await client.post("/v3/statements/analyze", files=upload, headers=account.headers)
    assert missing.status_code == 400 and "consent" in field_of(missing), missing.text
    broken = await client.post(
        "/v3/statements/analyze",
        files=upload,
        data={"consent": "{not json"},
        headers=account.headers,
    )
    assert broken.status_code == 400 and "consent" in field_of(broken), broken.text
    future = orjson.dumps({**CONSENT, "obtained_at": "2099-01-01T00:00:00Z"}).decode()
    late = await client.post(
        "/v3/statements/analyze", files=upload, data={"consent": future}, headers=account.headers
    )
    assert late.status_code == 400 and "consent.obtained_at" in field_of(late), late.text
    accepted = await client.post(
        "/v3/statements/analyze",
        files=upload,
        data={"consent": CONSENT_FORM},
        headers=account.headers,
    )
    assert accepted.status_code == 202, accepted.text
    record = await client.get(
        f"/v3/privacy/consents/{accepted.json()['consent_id']}", headers=account.headers
    )
    assert record.json()["reference"] == accepted.json()["reference"]


async def test_consent_is_optional_elsewhere_and_stored_once_on_a_replay(
    client: httpx.AsyncClient, make_account: AccountFactory, db: Database
) -> None:
    account = await make_account("sandbox", scopes=ADMIN)
    person = {"first_name": "Wanjiru", "last_name": "Kamau", "countries": ["KE"]}
    plain = await client.post("/v3/screening/individual", json=person, headers=account.headers)
    assert plain.status_code == 200, plain.text
    assert "consent_id" not in plain.json()
    headers = {**account.headers, "Idempotency-Key": f"consent-{uuid.uuid4().hex}"}
    with_consent = {**person, "consent": {**CONSENT, "purposes": ["aml_screening"]}}
    first = await client.post("/v3/screening/individual", json=with_consent, headers=headers)
    again = await client.post("/v3/screening/individual", json=with_consent, headers=headers)
    assert first.status_code == again.status_code == 200, first.text
    assert again.headers.get("Idempotent-Replayed") == "true"
    assert first.json()["consent_id"] == again.json()["consent_id"]
    async with read(db) as conn:
        stored = (
            await conn.execute(
                select(consent_records.c.id).where(consent_records.c.org_id == account.org_id)
            )
        ).all()
    assert [row.id for row in stored] == [first.json()["consent_id"]]


async def test_another_organisations_consent_is_404(
    client: httpx.AsyncClient, make_account: AccountFactory
) -> None:
    mine = await make_account("sandbox", scopes=ADMIN)
    theirs = await make_account("sandbox", scopes=ADMIN)
    made = await client.post(
        "/v3/credit/bureau", json=bureau(consent=consent()), headers=mine.headers
    )
    consent_id = made.json()["consent_id"]
    other = await client.get(f"/v3/privacy/consents/{consent_id}", headers=theirs.headers)
    assert other.status_code == 404, other.text
    not_admin = await make_account("sandbox")
    refused = await client.get(f"/v3/privacy/consents/{consent_id}", headers=not_admin.headers)
    assert refused.status_code == 403, refused.text


async def test_reads_and_changes_are_audited_and_the_log_is_exported(
    client: httpx.AsyncClient, make_account: AccountFactory, db: Database, runtime: Runtime
) -> None:
    account = await make_account("sandbox", scopes=ADMIN)
    made = await client.post(
        "/v3/credit/bureau", json=bureau(consent=consent()), headers=account.headers
    )
    reference, consent_id = made.json()["reference"], made.json()["consent_id"]
    await client.get(f"/v3/privacy/consents/{consent_id}", headers=account.headers)
    session = await client.post(
        "/v3/verification/sessions",
        json={
            "steps": ["id_number"],
            "country_code": "KE",
            "id_channel": "national_id",
            "customer_reference": "cust-2",
            "consent": CONSENT,
        },
        headers=account.headers,
    )
    session_id = session.json()["reference"]
    await client.get(f"/v3/verification/sessions/{session_id}", headers=account.headers)
    await client.get("/v3/verification/sessions", headers=account.headers)
    await client.get("/v3/verification/sessions/vss_nothing", headers=account.headers)  # 404
    await flushed(runtime)
    rows = await audit_rows(db, account.org_id)
    seen = [(r["action"], r["endpoint"], r["resource_id"]) for r in rows]
    assert seen == [
        ("create", "credit.bureau", reference),
        ("read", "privacy.consent", consent_id),
        ("create", "verification.sessions.create", session_id),
        ("read", "verification.sessions.read", session_id),
        ("read", "verification.sessions.list", None),
    ]
    assert {(r["actor_type"], r["environment"]) for r in rows} == {("api_key", "sandbox")}
    assert (
        len({r["actor_id"] for r in rows}) == 1
        and rows[0]["request_id"] == made.json()["request_id"]
    )
    assert all(r["resource_type"] for r in rows)

    page = await client.get(
        "/v3/privacy/audit-log", params={"page_size": 2}, headers=account.headers
    )
    assert page.status_code == 200, page.text
    listed = page.json()
    assert listed["pagination"]["total_items"] == 5
    assert [e["endpoint"] for e in listed["data"]] == [
        "verification.sessions.list",
        "verification.sessions.read",
    ]
    await flushed(runtime)  # the list's own read is a row too
    exported = await client.get(
        "/v3/privacy/audit-log", params={"format": "csv"}, headers=account.headers
    )
    assert exported.status_code == 200 and exported.headers["content-type"].startswith("text/csv")
    table = list(csv.DictReader(io.StringIO(exported.text)))
    assert [r["endpoint"] for r in table][:5] == [e for _, e, _ in seen]
    assert table[5]["endpoint"] == "privacy.audit_log" and table[5]["resource_id"] == ""
    assert table[5]["action"] == "read"
    await flushed(runtime)
    lines = await client.get(
        "/v3/privacy/audit-log", params={"format": "jsonl"}, headers=account.headers
    )
    objects = [orjson.loads(line) for line in lines.text.splitlines()]
    assert [o["id"] for o in objects][: len(table)] == [r["id"] for r in table]
    assert objects[len(table)]["action"] == "export"  # the CSV export, a row before this one
    assert objects[0]["resource_id"] == reference
    await flushed(runtime)
    actions = [r["action"] for r in await audit_rows(db, account.org_id)]
    assert actions[-2:] == ["export", "export"]
    bad = await client.get(
        "/v3/privacy/audit-log", params={"from": "yesterday"}, headers=account.headers
    )
    assert bad.status_code == 400 and "from" in field_of(bad), bad.text

    other = await make_account("sandbox", scopes=ADMIN)
    theirs = await client.get("/v3/privacy/audit-log", headers=other.headers)
    assert theirs.json()["pagination"]["total_items"] == 0
    plain_key = await make_account("sandbox")
    for format in ("json", "csv", "jsonl"):
        refused = await client.get(
            "/v3/privacy/audit-log", params={"format": format}, headers=plain_key.headers
        )
        assert refused.status_code == 403, refused.text


async def test_the_audit_log_refuses_update_and_delete(
    client: httpx.AsyncClient, make_account: AccountFactory, db: Database, runtime: Runtime
) -> None:
    account = await make_account("sandbox", scopes=ADMIN)
    await client.get("/v3/privacy/audit-log", headers=account.headers)
    await flushed(runtime)
    rows = await audit_rows(db, account.org_id)
    assert len(rows) == 1
    for statement in (
        update(audit_log).where(audit_log.c.id == rows[0]["id"]).values(actor_id="someone"),
        delete(audit_log).where(audit_log.c.id == rows[0]["id"]),
        delete(audit_log),
    ):
        with pytest.raises(Exception, match="append-only"):
            async with transaction(db) as conn:
                await conn.execute(statement)
    assert await audit_rows(db, account.org_id) == rows


async def test_the_hosted_page_records_the_customers_consent(
    client: httpx.AsyncClient, make_account: AccountFactory, db: Database, runtime: Runtime
) -> None:
    account = await make_account("sandbox", scopes=ADMIN)
    customer = f"cust-{uuid.uuid4().hex[:12]}"
    made = await client.post(
        "/v3/verification/sessions",
        json={
            "steps": ["id_number"],
            "country_code": "KE",
            "id_channel": "national_id",
            "customer_reference": customer,
            "consent": CONSENT,
        },
        headers=account.headers,
    )
    session = made.json()["data"]
    path = "/" + session["url"].split("/", 3)[3]
    refused = await client.post(f"{path}/start", json={"consent": False, "language": "sw"})
    assert refused.status_code == 400
    started = await client.post(f"{path}/start", json={"consent": True, "language": "sw"})
    assert started.status_code == 200, started.text
    async with read(db) as conn:
        rows = (
            (
                await conn.execute(
                    select(consent_records).where(
                        consent_records.c.reference == session["id"],
                        consent_records.c.source == "hosted",
                    )
                )
            )
            .mappings()
            .all()
        )
    assert len(rows) == 1
    assert rows[0]["subject_hash"] == runtime.vault.lookup_hash(
        "subject_reference", account.org_id, customer
    )
    record = (
        await client.get(f"/v3/privacy/consents/{rows[0]['id']}", headers=account.headers)
    ).json()
    assert record["language"] == "sw" and record["method"] == "checkbox"
    assert record["notice_text"].startswith("Ninakubali")
    assert record["notice_version"].startswith("verification-page-")
    assert record["subject_reference"] == customer
    await flushed(runtime)
    subject_rows = [r for r in await audit_rows(db, account.org_id) if r["actor_type"] == "subject"]
    assert [(r["actor_id"], r["resource_id"]) for r in subject_rows] == [
        (session["id"], rows[0]["id"])
    ]


async def test_the_openapi_document_shows_consent_where_the_catalogue_takes_it(
    client: httpx.AsyncClient,
) -> None:
    spec = (await client.get("/openapi.json")).json()
    schemas = spec["components"]["schemas"]

    def body_schema(endpoint: Endpoint) -> dict[str, Any]:
        content = spec["paths"][endpoint.path][endpoint.method.lower()]["requestBody"]["content"]
        media = content.get("application/json") or content["multipart/form-data"]
        ref = media["schema"]["$ref"].rsplit("/", 1)[-1]
        return dict(schemas[ref])

    required = {k for k, e in CATALOGUE.items() if e.consent_rule == "required"}
    assert required == {
        "credit.bureau",
        "background.candidates.create",
        "statements.analyze",
        "verification.sessions.create",
    }
    taking = [e for e in CATALOGUE.values() if e.consent_rule is not None]
    assert len(taking) > 25
    for endpoint in taking:
        schema = body_schema(endpoint)
        assert "consent" in schema["properties"], endpoint.key
        assert ("consent" in schema.get("required", [])) == (endpoint.key in required), endpoint.key
    for key in ("screening.alert_resolve", "background.packages.create", "account.wallet"):
        assert CATALOGUE[key].consent_rule is None
