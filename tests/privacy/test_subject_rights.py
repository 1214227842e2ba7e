"""The done-when test of issue 40: one data subject's data is created in every category through
the API with a sandbox key, exported (the export holds all of it), erased, and then every table
and column (decrypting what is encrypted) and, on SQLite, the bytes of the database file and its
WAL are searched for each value, its ciphertexts and its keyed hashes: nothing is left but what
the documented exceptions keep (the fraud report, docs/privacy.md#subject-rights)."""

from __future__ import annotations

import asyncio
import csv
import io
import json
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import String, Text, select

from hakiki.account import service as accounts
from hakiki.app import create_app
from hakiki.core.settings import Settings
from hakiki.fraud.keys import email_key, identifier_key, phone_key
from hakiki.tables import metadata
from tests.conftest import TEST_SECRET_KEY
from tests.privacy.helpers import ask, ciphertexts, file_hits, file_rows, holders
from tests.statements import documents as statement_documents
from tests.statements.conftest import analyze, finished
from tests.support.consent import CONSENT
from tests.support.databases import fresh_postgres_url
from tests.webhooks.receiver import Receiver, run_receiver

BACKENDS = ["sqlite", pytest.param("postgresql", marks=pytest.mark.postgresql)]

ID_NUMBER = "20000000"  # the sandbox's Kenyan golden number: KYC found, bureau clean
PIN = "A000000000W"  # the sandbox's golden KRA PIN
PHONE = "0712 345678"
EMAIL = "zuberi.mwakilema+complete@example.com"  # +complete: the background check completes
FIRST, LAST, BIRTH = "Zuberi", "Mwakilema", "1988-03-14"
REFERENCE = "cust-privacy-0001"

NEEDLES: dict[str, list[str]] = {
    "id number": [ID_NUMBER],
    "kra pin": [PIN],
    "phone": ["712345678", "712 345678"],
    "e-mail": ["zuberi.mwakilema"],
    "last name": [LAST],
    "birth date": [BIRTH],
    "reference": [REFERENCE],
}
SUBJECT = {
    "reference": REFERENCE,
    "id_numbers": [ID_NUMBER, PIN],
    "phones": [PHONE],
    "emails": [EMAIL],
    "first_name": FIRST,
    "last_name": LAST,
    "date_of_birth": BIRTH,
    "country_code": "KE",
}
# What erasure keeps, and why (docs/privacy.md#subject-rights): the fraud report, its keys and
# the sightings it brought (the receipt's counts prove the scans' own sightings went).
KEPT_TABLES = {"fraud_reports", "fraud_report_keys", "identity_observations", "face_prints"}

# The consent records name the subject by the organisation's reference (docs/privacy.md).
SUBJECT_CONSENT = {**CONSENT, "subject_reference": REFERENCE}


@pytest.fixture
async def privacy_settings(
    request: pytest.FixtureRequest, tmp_path: Path
) -> AsyncIterator[Settings]:
    url = await fresh_postgres_url("privacy") if request.param == "postgresql" else None
    yield Settings(
        data_dir=tmp_path / "hakiki-data",
        database_url=url,
        secret_key=TEST_SECRET_KEY,
        key_cache_seconds=0.0,
        webhooks_allow_private=True,
    )


async def _post(http: httpx.AsyncClient, headers: dict[str, str], url: str, body: Any) -> Any:
    response = await http.post(url, json=body, headers=headers)
    assert response.status_code in (200, 201, 202), (url, response.text)
    return response.json()


async def _until(check: Any, within: float = 60) -> None:
    deadline = time.monotonic() + within
    while not await check():
        assert time.monotonic() < deadline, "timed out"
        await asyncio.sleep(0.1)


async def make_subject_data(
    http: httpx.AsyncClient, headers: dict[str, str], receiver: Receiver
) -> None:
    """The subject's data in every category, through the API."""
    hook = await _post(http, headers, "/v3/account/webhooks", {"url": receiver.url})
    receiver.secrets = [hook["secret"]]
    kyc = {"country_code": "KE", "number": ID_NUMBER}
    await _post(http, {**headers, "Idempotency-Key": "privacy-kyc"}, "/v3/kyc/national-id", kyc)
    await _post(http, headers, "/v3/tax/pin", {"country_code": "KE", "pin": PIN})
    bureau = {
        "country_code": "KE",
        "id_type": "national_id",
        "id_number": ID_NUMBER,
        "report_reason": "new_application",
        "consent": SUBJECT_CONSENT,
    }
    await _post(http, headers, "/v3/credit/bureau", bureau)
    monitored = {
        "first_name": "Sandbox",
        "last_name": "Later Listed",
        "birth_date": BIRTH,
        "countries": ["KE"],
        "reference": REFERENCE,
    }
    await _post(http, headers, "/v3/screening/monitored-subjects", monitored)
    await _post(http, headers, "/v3/screening/monitoring/sandbox-list-update", {})

    async def alerted() -> bool:
        listed = (await http.get("/v3/screening/alerts", headers=headers)).json()
        return bool(listed["data"])

    await _until(alerted)
    report = {
        "subject": {
            "first_name": FIRST,
            "last_name": LAST,
            "date_of_birth": BIRTH,
            "country": "KE",
            "identifiers": [{"type": "national_id", "value": ID_NUMBER}],
            "phones": [PHONE],
            "emails": [EMAIL],
        },
        "incident": {
            "category": "synthetic_identity",
            "date": "2026-10-02",
            "description": "Loan taken with a borrowed identity.",
        },
    }
    await _post(http, headers, "/v3/fraud/reports", report)
    await _post(http, headers, "/v3/fraud/phone", {"phone": PHONE, "country_code": "KE"})
    scan = {"channel": "national_id", "number": ID_NUMBER, "country_code": "KE"}
    await _post(http, headers, "/v3/fraud/id-scan", scan)
    rows = statement_documents.mpesa_rows(40, 2, seed=5)
    pdf = statement_documents.mpesa_pdf(rows, name=f"{FIRST} {LAST}".upper(), phone="0712345678")
    started = await analyze(
        http, headers, pdf, statement_type="mpesa", declared_name=f"{FIRST} {LAST}",
        declared_phone="254712345678",
    )  # fmt: skip
    done = await finished(http, headers, started["analysis_id"])
    assert done["state"] == "completed", done
    candidate = {"first_name": FIRST, "last_name": LAST, "email": EMAIL}
    body = {
        "package_id": "spk_ke_basic_identity",
        "candidates": [candidate],
        "consent": SUBJECT_CONSENT,
    }
    await _post(http, headers, "/v3/background/candidates", body)

    async def background_done() -> bool:
        listed = (await http.get("/v3/background/candidates", headers=headers)).json()
        return all(item["state"] == "completed" for item in listed["data"])

    await _until(background_done)
    session = {
        "steps": ["id_number"],
        "country_code": "KE",
        "id_channel": "national_id",
        "customer_reference": REFERENCE,
        "customer": {"first_name": FIRST, "last_name": LAST},
        "consent": SUBJECT_CONSENT,
    }
    await _post(http, headers, "/v3/verification/sessions", session)
    upload = await http.post(
        "/v3/fraud/bulk-scan/upload",
        files={"file": ("loans.csv", csv_file(BULK_ROWS), "text/csv")},
        data={"scan_type": "id"},
        headers=headers,
    )
    assert upload.status_code == 202, upload.text
    bulk_id = upload.json()["data"]["bulk_id"]

    async def bulk_done() -> bool:
        scan = (await http.get(f"/v3/fraud/bulk-scan/{bulk_id}", headers=headers)).json()
        return bool(scan["data"]["state"] == "completed")

    await _until(bulk_done)


# A bulk scan's file of three subjects: the second row (the file's row 3) is this subject's.
BULK_ROWS = [
    ["reference", "number", "channel"],
    ["loan-other-1", "22222222220", "bvn"],
    ["loan-subject", ID_NUMBER, "national_id"],
    ["loan-other-2", "22222222225", "bvn"],
]


def csv_file(rows: list[list[str]]) -> bytes:
    out = io.StringIO()
    csv.writer(out).writerows(rows)
    return out.getvalue().encode()


@pytest.mark.parametrize("privacy_settings", BACKENDS, indirect=True)
async def test_a_subjects_data_is_exported_then_erased_everywhere(
    privacy_settings: Settings,
) -> None:
    from hakiki.core.migrate import upgrade_async

    settings = privacy_settings
    await upgrade_async(settings)
    application = create_app(settings)
    with run_receiver() as receiver:
        async with application.router.lifespan_context(application):
            runtime = application.state.runtime
            vault = runtime.vault
            org = await accounts.create_org(
                runtime.db, "privacy-org", approved=True, currency="KES"
            )
            key = await accounts.create_key(runtime.db, org.name, "sandbox")
            headers = {"Authorization": f"Bearer {key.client_id}:{key.secret}"}
            transport = httpx.ASGITransport(app=application, raise_app_exceptions=False)
            async with httpx.AsyncClient(
                transport=transport, base_url="http://hakiki.test"
            ) as http:
                await make_subject_data(http, headers, receiver)
                await runtime.request_log.flush()
                async with runtime.db.reader.connect() as conn:
                    before = await holders(conn, vault, NEEDLES)
                    sealed = await ciphertexts(conn, vault, [ID_NUMBER, PIN, LAST, REFERENCE])
                    hashed = await _hashes_left(conn, vault)
                    files_before = await file_rows(conn, vault)
                # The subject's row inside the bulk scan's uploaded file is found.
                assert "id number" in before[("bulk_scans", "input_encrypted")], before
                (bulk_id, rows_before), *_ = files_before.items()
                assert [r["number"] for r in rows_before] == [r[1] for r in BULK_ROWS[1:]]
                # A bureau report holds no number of its own: its subject_hash names it.
                held = {table for table, _ in before} | {h.split(".")[0] for h in hashed}
                expected = {
                    "verifications", "registry_checks", "credit_reports", "monitored_subjects",
                    "screening_alerts", "statement_analyses", "background_requests",
                    "verification_sessions", "fraud_reports", "request_logs", "bulk_scans",
                    "bulk_scan_results",
                }  # fmt: skip
                assert expected <= held, (sorted(expected - held), sorted(held))

                access = await ask(http, headers, "access", SUBJECT)
                receipt = {c["category"]: c for c in access["receipt"]}
                exported = (
                    await http.get(
                        f"/v3/privacy/subject-requests/{access['id']}/export", headers=headers
                    )
                ).json()
                text = json.dumps(exported).lower()
                for label, forms in NEEDLES.items():
                    assert any(f.lower() in text for f in forms), label
                tables = {t for category in exported["categories"].values() for t in category}
                assert held - {"privacy_subject_requests"} <= tables | {"jobs"}, held - tables
                for category in ("identity", "registry_checks", "screening", "credit", "statements",
                                 "background", "verification_sessions", "fraud_reports",
                                 "webhooks", "request_log"):  # fmt: skip
                    assert receipt[category]["exported"] > 0, category
                assert {"webhook_events", "webhook_deliveries"} <= tables
                in_file = exported["categories"]["fraud"]["bulk_scans"]
                assert [(r["bulk_id"], r["row"], r["number"]) for r in in_file] == [
                    (bulk_id, 3, ID_NUMBER)
                ]

                erasure = await ask(http, headers, "erasure", SUBJECT)
                done = {c["category"]: c for c in erasure["receipt"]}
                assert done["fraud_reports"]["kept"] >= 1 and done["fraud_reports"]["reasons"]
                assert done["request_log"]["anonymised"] >= 1 and done["request_log"]["reasons"]
                assert done["identity"]["erased"] >= 1 and done["background"]["erased"] >= 2
                assert (done["fraud"]["files_rewritten"], done["fraud"]["file_rows_removed"]) == (
                    1,
                    1,
                )
                async with runtime.db.reader.connect() as conn:
                    files_after = await file_rows(conn, vault)
                # The subject's row is gone from the file, its position kept; the others stay.
                assert files_after[bulk_id] == [
                    rows_before[0], {"row": 3, "erased": True}, rows_before[2]
                ]  # fmt: skip
                again = await ask(http, headers, "access", SUBJECT)
                left = {c["category"]: c["found"] for c in again["receipt"] if c["found"]}
                # What is still found is exactly what the erasure kept, for its reasons.
                kept = {name: c["kept"] for name, c in done.items() if c["kept"]}
                assert left == kept and set(kept) == {"fraud_reports", "fraud"}, (left, kept)

                # The export just made holds the kept report: a second erasure removes it too.
                await ask(http, headers, "erasure", SUBJECT)
                async with runtime.db.reader.connect() as conn:
                    after = await holders(conn, vault, NEEDLES)
                    hashes = await _hashes_left(conn, vault)
                leftover = {
                    where: labels for where, labels in after.items() if where[0] not in KEPT_TABLES
                }
                assert not leftover, leftover
                assert not hashes, hashes
        if settings.is_sqlite:
            data_dir = Path(settings.data_dir)
            plain = {label: [f.encode() for f in forms] for label, forms in NEEDLES.items()}
            kept = {k: v for k, v in sealed.items() if k.split(".")[0] not in KEPT_TABLES}
            assert kept, "no ciphertext of the subject was found before the erasure"
            cipher = {k: [v[:40]] for k, v in kept.items()}
            hits = file_hits(data_dir, plain) + file_hits(data_dir, cipher)
            assert not hits, hits


async def _hashes_left(conn: Any, vault: Any) -> list[str]:
    """The subject's keyed hashes still stored outside the kept fraud report."""
    keys = {
        identifier_key(vault, ID_NUMBER),
        phone_key(vault, PHONE, "KE"),
        email_key(vault, EMAIL),
        vault.lookup_hash("KE", "national_id", ID_NUMBER),
    }
    found = []
    for table in metadata.sorted_tables:
        if table.name in KEPT_TABLES:
            continue
        for column in table.columns:
            if isinstance(column.type, String | Text):
                values = (await conn.execute(select(column).where(column.in_(keys)))).all()
                found += [f"{table.name}.{column.name}"] * len(values)
    return found
