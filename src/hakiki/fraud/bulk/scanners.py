"""Scanning a chunk of a bulk file's rows with the single scans' own rules: the look-ups of a
chunk are batched (a few queries for hundreds of rows), nothing is written here; what a chunk
would write is handed back to be committed with its results and charges."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import date
from functools import partial
from typing import Any

from pydantic import BaseModel
from sqlalchemy.ext.asyncio import AsyncConnection

from hakiki.core.database import read
from hakiki.core.runtime import Runtime
from hakiki.engines.face import FaceEmbedding, FaceImageError
from hakiki.engines.fraud.risk import Risk, assess, face_signals, id_signals
from hakiki.fraud import face_scan, id_scan, observations, phone_scan, sandbox
from hakiki.fraud.bulk.fetch import FetchFailed, fetch_image
from hakiki.fraud.face_bank import FaceBank, insert_prints
from hakiki.fraud.keys import identifier_key
from hakiki.fraud.scan_schemas import FaceLinks, IdScanRequest, reports_out, risk_out
from hakiki.identity.channels import find_channel

FACE_FETCHES_AT_ONCE = 4


@dataclass(frozen=True)
class BulkOwner:
    bulk_id: str
    environment: str
    org_id: str
    scan_type: str

    @property
    def live(self) -> bool:
        return self.environment == "live"


@dataclass
class RowResult:
    row: int
    body: dict[str, Any]  # the row's input echoed, and its findings or its error
    risk: Risk | None = None
    error_code: str | None = None

    @property
    def ok(self) -> bool:
        return self.error_code is None


@dataclass
class ChunkScan:
    results: list[RowResult]
    write: Callable[[AsyncConnection], Awaitable[None]] | None = None


def _dumped(found: dict[str, Any]) -> dict[str, Any]:
    return {k: v.model_dump() if isinstance(v, BaseModel) else v for k, v in found.items()}


def _echo(row: dict[str, Any], *names: str) -> dict[str, Any]:
    echoed = {"row": row["row"], "reference": row.get("reference")}
    echoed["input"] = {name: row[name] for name in names if name in row}
    return echoed


def _told(row: dict[str, Any]) -> IdScanRequest:
    born = row.get("date_of_birth")
    return IdScanRequest.model_construct(
        first_name=row.get("first_name"),
        last_name=row.get("last_name"),
        date_of_birth=date.fromisoformat(born) if born else None,
        phone=row.get("phone"),
    )


async def scan_ids(runtime: Runtime, owner: BulkOwner, rows: list[dict[str, Any]]) -> ChunkScan:
    vault, weights = runtime.vault, runtime.settings.fraud_weights
    scans = []
    for row in rows:
        channel = find_channel(row["channel"], row["country_code"])
        assert channel is not None  # checked at upload
        scans.append(id_scan.prepare(vault, channel, row["number"]))
    found: dict[str, Any] = {}
    if owner.live:
        async with read(runtime.db) as conn:
            keys = [scan.key for scan in scans]
            found = await id_scan.live_evidence(conn, owner.environment, owner.org_id, keys)
    results: list[RowResult] = []
    sightings: list[tuple[str, list[tuple[str, str]]]] = []
    for row, scan in zip(rows, scans, strict=True):
        if owner.live:
            evidence, seen = found[scan.key]
            if new := id_scan.new_values(vault, scan, seen, _told(row)):
                sightings.append((scan.key, new))
                # later rows of the chunk with this number: noted, and within the same limit
                found[scan.key] = (evidence, seen.noting(new))
        else:
            evidence = sandbox.ID_SCAN.answer(scan.number)
        risk = assess(id_signals(scan.problem, evidence), weights)
        body = _echo(row, "number", "channel", "country_code") | _dumped(
            id_scan.findings(scan, evidence, risk)
        )
        results.append(RowResult(row["row"], body, risk))

    async def write(conn: AsyncConnection) -> None:
        await observations.record_many(conn, owner.environment, owner.org_id, sightings)

    return ChunkScan(results, write if sightings else None)


async def scan_phones(runtime: Runtime, owner: BulkOwner, rows: list[dict[str, Any]]) -> ChunkScan:
    vault, weights = runtime.vault, runtime.settings.fraud_weights
    lookups = [phone_scan.prepare(vault, row["phone"], row.get("country_code")) for row in rows]
    if owner.live:
        async with read(runtime.db) as conn:
            evidence = await phone_scan.live_evidence(
                conn, owner.environment, owner.org_id, lookups
            )
    else:
        evidence = [sandbox.PHONE.answer(row["phone"]) for row in rows]
    results = []
    for row, lookup, found in zip(rows, lookups, evidence, strict=True):
        risk = phone_scan.assess_phone(lookup, found, weights)
        body = _echo(row, "phone", "country_code") | _dumped(
            phone_scan.findings(lookup, found, risk)
        )
        results.append(RowResult(row["row"], body, risk))
    return ChunkScan(results)


async def _face_bytes(runtime: Runtime, url: str, gate: asyncio.Semaphore) -> bytes:
    async with gate:
        return await fetch_image(runtime.outbound_http(), url, runtime.settings)


def _embed(runtime: Runtime, image: bytes) -> FaceEmbedding:
    return runtime.face_embedder().embed_bytes(image)  # in the images pool: models load there


async def scan_faces(runtime: Runtime, owner: BulkOwner, rows: list[dict[str, Any]]) -> ChunkScan:
    gate = asyncio.Semaphore(FACE_FETCHES_AT_ONCE)
    fetched = await asyncio.gather(
        *(_face_bytes(runtime, row["image_url"], gate) for row in rows), return_exceptions=True
    )
    if owner.live:
        await runtime.part(FaceBank).refresh(runtime.db)
    results: list[RowResult] = []
    prints: list[dict[str, object]] = []
    for row, image in zip(rows, fetched, strict=True):
        echo = _echo(row, "image_url", "identity_numbers")
        if isinstance(image, FetchFailed):
            results.append(RowResult(row["row"], echo | {"error": str(image)}, None, image.code))
            continue
        if isinstance(image, BaseException):
            raise image
        try:
            face = await runtime.images.run(partial(_embed, runtime, image), tenant=owner.org_id)
        except FaceImageError as error:
            code = getattr(error, "code", "invalid_image")
            results.append(RowResult(row["row"], echo | {"error": f"image: {error}"}, None, code))
            continue
        numbers = row.get("identity_numbers", [])
        own_keys = {identifier_key(runtime.vault, n) for n in numbers}
        closest = None
        if owner.live:
            matches = runtime.part(FaceBank).nearest(owner.environment, face.vector)
            evidence = face_scan.evidence_from(matches, own_keys)
            closest = round(matches[0][1], 4) if matches else None
            new = face_scan.print_rows(
                (owner.environment, owner.org_id), face, matches, sorted(own_keys)
            )
            for print_row in new:  # later rows of the file see this face at once
                runtime.part(FaceBank).add(owner.environment, print_row)
            prints += new
        else:
            evidence = sandbox.FACE_SCAN.answer(numbers)
        risk = assess(face_signals(evidence), runtime.settings.fraud_weights)
        findings = {
            "links": FaceLinks(
                fraud_bank_matches=evidence.bank_matches,
                other_identities=evidence.other_identities,
                closest_distance=closest,
            ),
            "fraud_reports": reports_out(
                evidence.bank_matches, evidence.bank_organisations, evidence.bank_categories
            ),
            "risk": risk_out(risk),
        }
        results.append(RowResult(row["row"], echo | _dumped(findings), risk))

    async def write(conn: AsyncConnection) -> None:
        await insert_prints(conn, prints)

    return ChunkScan(results, write if prints else None)


SCANNERS = {"id": scan_ids, "phone": scan_phones, "face": scan_faces}
