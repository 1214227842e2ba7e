"""Nothing a candidate or the customer tells about the candidate is stored in clear: after a
request is created, its hosted form submitted with a document, and an analyst's result
recorded, the SQLite database files (and WAL), or on PostgreSQL every text and JSON column of
every table, are searched for each value."""

from __future__ import annotations

from pathlib import Path

import httpx
from sqlalchemy import String, Text, cast, or_, select
from sqlalchemy.types import JSON

from hakiki.core.database import Database, read
from hakiki.core.runtime import Runtime
from hakiki.tables import metadata
from tests.background.helpers import PDF, invite, open_form, post_form, status_becomes
from tests.conftest import AccountFactory

PERSON = {
    "first_name": "Nyambura",
    "last_name": "Wairimu-Chege",
    "email": "nyambura.wairimu@example.org",
    "phone": "+254733222111",
    "id_number": "29876543",
}
FORM = {
    "id_number": "29876543",
    "date_of_birth": "1984-02-29",
    "referees": "Mzee Kiprono Langat 0722111333",
    "consent": "yes",
}
DOCUMENT = PDF.replace(b"trailer", b"Nyambura-certificate-KE-4471 trailer")
SECRETS = [
    "Nyambura",
    "Wairimu-Chege",
    "nyambura.wairimu",
    "733222111",
    "29876543",
    "1984-02-29",
    "Kiprono",
    "0722111333",
    "Nyambura-certificate",
    "DCI-77120",
]


async def _stored_text(runtime: Runtime, db: Database) -> list[str]:
    """Where each secret appears in the database, as readable text."""
    found: list[str] = []
    if runtime.settings.is_sqlite:
        base = Path(runtime.settings.resolved_database_url.split("///", 1)[1])
        for path in (base, Path(f"{base}-wal")):
            if path.exists():
                data = path.read_bytes()
                found += [f"{path.name}: {s}" for s in SECRETS if s.encode() in data]
        return found
    async with read(db) as conn:
        for table in metadata.sorted_tables:
            columns = [c for c in table.columns if isinstance(c.type, (String, Text, JSON))]
            for secret in SECRETS:
                if not columns:
                    continue
                query = select(table).where(or_(*(cast(c, Text).contains(secret) for c in columns)))
                if (await conn.execute(query.limit(1))).first():
                    found.append(f"{table.name}: {secret}")
    return found


async def test_no_candidate_value_is_stored_in_clear(
    client: httpx.AsyncClient,
    visitor: httpx.AsyncClient,
    make_account: AccountFactory,
    runtime: Runtime,
    db: Database,
) -> None:
    account = await make_account()
    made = await invite(client, account.headers, "spk_ke_driver", PERSON)
    assert made.status_code == 201
    request = made.json()["data"]["requests"][0]
    assert request["candidate"]["first_name"] == "Nyambura"  # the answer has it; storage not
    _page, csrf = await open_form(visitor, request["invitation_url"])
    files = {"police_clearance": ("nyambura-pcc.pdf", DOCUMENT, "application/pdf")}
    assert (
        await post_form(visitor, request["invitation_url"], csrf, FORM, files)
    ).status_code == 200
    await status_becomes(client, account.headers, request["reference"], "in_progress")
    for code in ("criminal_record", "references"):
        recorded = await client.post(
            f"/v3/background/candidates/{request['reference']}/checks/{code}/result",
            json={"result": "clear", "evidence": {"certificate": "DCI-77120"}},
            headers=account.headers,
        )
        assert recorded.status_code == 200
    await status_becomes(client, account.headers, request["reference"], "completed")
    assert await _stored_text(runtime, db) == []
