"""Shared by the privacy tests: waiting for a subject request, and searching every table of a
database (decrypting what is encrypted) and every file of a data folder for a subject's
values."""

from __future__ import annotations

import asyncio
import base64
import contextlib
import time
import zlib
from pathlib import Path
from typing import Any

import httpx
from sqlalchemy import LargeBinary, String, Text, select
from sqlalchemy.ext.asyncio import AsyncConnection

from hakiki.core.crypto import Vault
from hakiki.fraud.bulk.runner import decode_rows
from hakiki.fraud.bulk.tables import bulk_scans
from hakiki.tables import metadata

URL = "/v3/privacy/subject-requests"


async def ask(
    client: httpx.AsyncClient, headers: dict[str, str], kind: str, subject: dict[str, Any]
) -> dict[str, Any]:
    """A subject request, waited for until it ends."""
    response = await client.post(URL, json={"type": kind, "subject": subject}, headers=headers)
    assert response.status_code == 202, response.text
    request_id = response.json()["id"]
    deadline = time.monotonic() + 60
    while True:
        body: dict[str, Any] = (await client.get(f"{URL}/{request_id}", headers=headers)).json()
        if body["status"] != "queued":
            assert body["status"] == "completed", body
            return body
        assert time.monotonic() < deadline, body
        await asyncio.sleep(0.05)


def _opened(vault: Vault, value: Any) -> str:
    """A stored value as text: decrypted when it is a ciphertext of the vault."""
    if isinstance(value, bytes | memoryview):
        raw = bytes(value)
        if raw[:2] == b"v1":
            try:
                plain = vault.unseal(raw)
            except Exception:
                return raw.decode("latin-1")
            with contextlib.suppress(zlib.error):  # a bulk scan's file: JSON rows, compressed
                plain = zlib.decompress(plain)
            return plain.decode("utf-8", "replace")
        return raw.decode("latin-1")
    text = str(value)
    if text.startswith("v1."):
        try:
            return vault.decrypt(text)
        except Exception:
            return text
    return text


async def holders(
    conn: AsyncConnection, vault: Vault, needles: dict[str, list[str]]
) -> dict[tuple[str, str], set[str]]:
    """(table, column) -> the labels of the needles its values hold, decrypted or in clear;
    every text, JSON and binary column of every table of the registry."""
    found: dict[tuple[str, str], set[str]] = {}
    lowered = {label: [n.lower() for n in forms] for label, forms in needles.items()}
    for table in metadata.sorted_tables:
        columns = [
            c
            for c in table.columns
            if isinstance(c.type, String | Text | LargeBinary)
            or c.type.__class__.__name__ == "JSON"
        ]
        if not columns:
            continue
        for row in (await conn.execute(select(*columns))).all():
            for column, value in zip(columns, row, strict=True):
                if value is None:
                    continue
                text = _opened(vault, value if not isinstance(value, dict | list) else str(value))
                text = text.lower()
                for label, forms in lowered.items():
                    if any(form in text for form in forms):
                        found.setdefault((table.name, column.name), set()).add(label)
    return found


async def ciphertexts(conn: AsyncConnection, vault: Vault, needles: list[str]) -> dict[str, bytes]:
    """Each stored ciphertext whose plaintext holds a needle: where it is, and its bytes as
    stored (base64 text of ``Vault.encrypt``; the first 48 bytes of a sealed blob)."""
    lowered = [n.lower() for n in needles]
    found: dict[str, bytes] = {}
    for table in metadata.sorted_tables:
        for column in table.columns:
            if not isinstance(column.type, String | Text | LargeBinary):
                continue
            for (value,) in (await conn.execute(select(column))).all():
                if value is None:
                    continue
                plain = _opened(vault, value).lower()
                if not any(n in plain for n in lowered):
                    continue
                raw = bytes(value) if isinstance(value, bytes | memoryview) else str(value).encode()
                if raw.startswith(b"v1"):
                    found[f"{table.name}.{column.name}:{len(found)}"] = raw[:48]
    return found


def file_hits(data_dir: Path, needles: dict[str, list[bytes]]) -> list[str]:
    """Every file of the data folder (the database, its WAL): which needles its bytes hold."""
    hits = []
    for path in sorted(p for p in data_dir.rglob("*") if p.is_file()):
        content = path.read_bytes()
        lowered = content.lower()
        for label, forms in needles.items():
            if any(form in content or form.lower() in lowered for form in forms):
                hits.append(f"{label} in {path.name}")
    return hits


def b64(raw: bytes) -> bytes:
    return base64.b64encode(raw)


async def file_rows(conn: AsyncConnection, vault: Vault) -> dict[str, list[dict[str, Any]]]:
    """Every bulk scan's uploaded file, decoded: bulk id -> its rows."""
    scans = (await conn.execute(select(bulk_scans.c.id, bulk_scans.c.input_encrypted))).all()
    return {bulk_id: decode_rows(vault, bytes(sealed)) for bulk_id, sealed in scans}
