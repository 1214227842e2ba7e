"""The durable job of a subject request: find the subject's rows in every category, then
export them (access) or erase them (erasure), and write the receipt. Idempotent: a rerun finds
again (after an erasure, nothing) and writes the same receipt."""

from __future__ import annotations

from typing import Any

import orjson
from sqlalchemy.ext.asyncio import AsyncConnection

from hakiki.core.clock import utcnow
from hakiki.core.database import transaction
from hakiki.core.jobs.registry import JobContext, PermanentError, task
from hakiki.core.runtime import Runtime
from hakiki.privacy import files, repository, subject_data
from hakiki.privacy.catalogue import CATEGORIES
from hakiki.privacy.schemas import SubjectIdentifiers
from hakiki.privacy.service import TASK
from hakiki.privacy.storage import forget_freed_pages


def subject_of(identifiers: SubjectIdentifiers) -> subject_data.Subject:
    names = tuple(n for n in (identifiers.first_name, identifiers.last_name) if n)
    return subject_data.Subject(
        reference=identifiers.reference,
        id_numbers=tuple(identifiers.id_numbers),
        phones=tuple(identifiers.phones),
        emails=tuple(identifiers.emails),
        names=names,
        birth_date=identifiers.date_of_birth.isoformat() if identifiers.date_of_birth else None,
        country=identifiers.country_code,
    )


def _blank() -> dict[str, Any]:
    return {
        "found": 0,
        "exported": 0,
        "erased": 0,
        "anonymised": 0,
        "kept": 0,
        "reasons": [],
        "files_rewritten": 0,
        "file_rows_removed": 0,
    }


async def _give_up(
    runtime: Runtime, conn: AsyncConnection, payload: dict[str, Any], error: str
) -> None:
    await repository.update_request(
        conn,
        payload["request_id"],
        {"status": "failed", "failure_reason": error[:500], "completed_at": utcnow()},
    )


@task(TASK, max_attempts=5, on_give_up=_give_up)
async def run_subject_request(ctx: JobContext, payload: dict[str, Any]) -> None:
    runtime = ctx.runtime
    vault = runtime.vault
    async with transaction(runtime.db) as conn:
        row = await repository.get_request_by_id(conn, payload["request_id"])
        if row is None:
            raise PermanentError(f"subject request {payload['request_id']} is gone")
        if row["status"] != "queued" or row["subject_encrypted"] is None:
            return
        identifiers = SubjectIdentifiers.model_validate_json(
            vault.decrypt(row["subject_encrypted"])
        )
        subject = subject_of(identifiers)
        found = await subject_data.find(conn, vault, row["org_id"], row["environment"], subject)
        in_files = await files.find(conn, vault, row["org_id"], row["environment"], subject.needles)
        file_rows = sum(len(f.positions) for f in in_files)
        found.of("privacy_subject_requests").pop((row["id"],), None)  # this request itself
        receipt = {name: _blank() for name in CATEGORIES}
        values: dict[str, Any] = {"status": "completed", "completed_at": utcnow()}
        if row["kind"] == "access":
            exported = subject_data.export(vault, found)
            if in_files:
                tables = exported.setdefault(files.CATEGORY, {})
                tables["bulk_scans"] = files.export(in_files)
            for name, tables in exported.items():
                count = sum(len(rows) for rows in tables.values())
                receipt[name].update(found=count, exported=count)
            values["export_sealed"] = vault.seal(orjson.dumps(exported))
        else:
            for name, entry in (await subject_data.erase(conn, found)).items():
                receipt[name].update(entry)
            receipt[files.CATEGORY]["found"] += file_rows
            receipt[files.CATEGORY].update(await files.erase(conn, vault, in_files))
        # The identifiers asked about go with the request's end: the receipt holds counts only.
        values.update(receipt=receipt, subject_encrypted=None)
        await repository.update_request(conn, row["id"], values)
    if row["kind"] == "erasure":
        await forget_freed_pages(runtime.db)
