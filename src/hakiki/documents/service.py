"""POST /v3/documents/verify: the images checked (size before decoding, format, pixels), then
the sandbox's answer or the live pipeline (engines/documents) and the face checks (the dlib
engine and the fraud face bank). Images are never stored nor logged: they live in this
request's memory only. The result (its extracted fields sealed) is kept with the call, for
the console's result page (read_result, list_results)."""

from __future__ import annotations

import base64
import binascii
import math
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any

import numpy as np
import orjson
from sqlalchemy.ext.asyncio import AsyncConnection

from hakiki.core.billing import Charge
from hakiki.core.calls import Call, finish_call
from hakiki.core.clock import utcnow
from hakiki.core.database import read
from hakiki.core.envelope import rendered
from hakiki.core.errors import ApiError
from hakiki.core.pagination import PageRequest
from hakiki.core.runtime import Runtime
from hakiki.documents import repository, sandbox
from hakiki.documents.schemas import (
    DOCUMENT_VERDICTS,
    DocumentCheck,
    DocumentRequest,
    DocumentResult,
    DocumentResultData,
    ExtractedDocument,
    FaceMatch,
    UnsureField,
)
from hakiki.engines.documents.barcodes import Barcode
from hakiki.engines.documents.consistency import birth_date, expiry_date
from hakiki.engines.documents.verify import Check, Side, analyse, verdict
from hakiki.engines.face import DEFAULT_MAX_DISTANCE, FaceEmbedding, FaceImageError, load_image
from hakiki.engines.mrz.zones import Unsure, Zone
from hakiki.fraud.face_bank import FaceBank

MAX_IMAGE_BYTES = 1024 * 1024 - 1  # the spec: each image *under* 1 MB (1 MiB)
MAX_IMAGE_CHARS = 4 * math.ceil(MAX_IMAGE_BYTES / 3)  # its base64 length
# A document photo needs no more than a 16 MP phone camera's 4,608 x 3,456: the analysis works
# at 1,100 px wide. A WebP or PNG has no reduced-scale decoding, so its pixels are the cost (a
# 39 MP WebP of 92 KB took 1.7 s and 117 MB to decode; 16 MP takes 0.3 s).
MAX_IMAGE_PIXELS = 16_000_000
DECODE_MAX_SIDE = 2000  # JPEGs are decoded at reduced scale down to this (draft mode)
TOO_LARGE = f"the image must be under 1 MB (at most {MAX_IMAGE_BYTES:,} bytes once decoded)"
MAX_UNSURE_CANDIDATES = 5
MATCH_THRESHOLD = 0.6  # dlib's same-person distance (99.38% on LFW; NOTES.md: 0.33-0.43 same)


def _invalid(field: str, message: str, problem: str) -> ApiError:
    return ApiError(
        400,
        "invalid_request",
        f"{field}: {message}",
        details=[{"field": field, "problem": problem}],
    )


def image_bytes(field: str, text: str) -> bytes:
    """The decoded image of a base64 field, its size checked before it is decoded."""
    if text.startswith("data:"):
        text = text.partition(",")[2]
    if len(text) > MAX_IMAGE_CHARS:
        raise _invalid(field, f"{TOO_LARGE}; send a smaller photo", "too large")
    try:
        data = base64.b64decode(text, validate=True)
    except (binascii.Error, ValueError) as error:
        raise _invalid(field, "not base64", "not base64") from error
    if len(data) > MAX_IMAGE_BYTES:
        raise _invalid(field, f"{TOO_LARGE}; send a smaller photo", "too large")
    return data


def _side(field: str, data: bytes) -> Side:
    try:
        image = load_image(
            data, max_bytes=MAX_IMAGE_BYTES, max_pixels=MAX_IMAGE_PIXELS, max_side=DECODE_MAX_SIDE
        )
    except FaceImageError as error:
        raise _invalid(field, str(error), error.code) from error
    return Side(field, data, image.format, image.pixels, image.original_size)


def _iso(yymmdd: str, expiry: bool, today: date) -> str | None:
    found = expiry_date(yymmdd, today) if expiry else birth_date(yymmdd, today)
    return found.isoformat() if found else None


def _document(zone: Zone | None, codes: list[Barcode], today: date) -> ExtractedDocument:
    formats = sorted({c.format for c in codes})
    if zone is None:
        return ExtractedDocument(
            layout=None, document_code=None, issuing_state=None, document_number=None,
            surname=None, given_names=None, nationality=None, birth_date=None, sex=None,
            expiry_date=None, optional_data=None, barcodes=formats,
        )  # fmt: skip
    return ExtractedDocument(
        layout=zone.layout,  # type: ignore[arg-type]
        document_code=zone.document_code,
        issuing_state=zone.issuing_state,
        document_number=zone.document_number,
        surname=zone.surname,
        given_names=zone.given_names,
        nationality=zone.nationality,
        birth_date=_iso(zone.birth_date, False, today),
        sex=zone.sex if zone.sex in ("M", "F", "X") else None,  # type: ignore[arg-type]
        expiry_date=_iso(zone.expiry_date, True, today),
        optional_data=zone.optional_data or None,
        barcodes=formats,
        unsure=[_unsure(doubt, today) for doubt in zone.unsure],
    )


def _unsure(doubt: Unsure, today: date) -> UnsureField:
    """An unsure field's candidates in the form its value takes in ``document``."""
    shown: list[str] = []
    for value in doubt.candidates:
        text = (
            _iso(value, doubt.field == "expiry_date", today) or value
            if doubt.field in ("birth_date", "expiry_date")
            else " ".join(value.replace("<", " ").split())
        )
        if text not in shown:
            shown.append(text)
    return UnsureField(field=doubt.field, candidates=shown[:MAX_UNSURE_CANDIDATES])  # type: ignore[arg-type]


async def _embed(call: Call, data: bytes) -> FaceEmbedding:
    runtime = call.runtime
    return await runtime.images.run(
        lambda: runtime.face_embedder().embed_bytes(data), tenant=call.principal.org_id
    )


async def _face_checks(call: Call, front: bytes, selfie: bytes) -> tuple[list[Check], float | None]:
    """The selfie against the document's portrait and against the fraud face bank."""
    try:
        face = await _embed(call, selfie)
    except FaceImageError as error:
        raise _invalid("selfie_image", str(error), error.code) from error
    checks = []
    distance = None
    try:
        portrait = await _embed(call, front)
    except FaceImageError as error:
        checks.append(
            Check("face_match", "face", "attention", f"no portrait on the document: {error}")
        )
    else:
        distance = round(float(np.linalg.norm(portrait.vector - face.vector)), 4)
        same = distance < MATCH_THRESHOLD
        checks.append(
            Check("face_match", "face", "passed" if same else "failed",
                  "the selfie is the document's holder" if same
                  else "the selfie is not the document's holder", {"distance": distance})
        )  # fmt: skip
    bank = call.runtime.part(FaceBank)
    await bank.refresh(call.runtime.db)
    matches = bank.nearest(call.principal.environment, face.vector)
    reports = {m.report_id for m, d in matches if m.report_id and d <= DEFAULT_MAX_DISTANCE}
    checks.append(
        Check("face_bank", "face", "failed", f"the face is in {len(reports)} fraud report(s)",
              {"reports": len(reports)})
        if reports
        else Check("face_bank", "face", "passed", "the face is in no fraud report", {"reports": 0})
    )  # fmt: skip
    return checks, distance


async def verify(call: Call, body: DocumentRequest) -> bytes:
    principal = call.principal
    today = utcnow().date()
    front_bytes = image_bytes("front_image", body.front_image)
    back_bytes = image_bytes("back_image", body.back_image) if body.back_image else None
    selfie_bytes = image_bytes("selfie_image", body.selfie_image) if body.selfie_image else None
    images = call.runtime.images
    tenant = principal.org_id
    front = await images.run(lambda: _side("front_image", front_bytes), tenant=tenant)
    back = (
        await images.run(lambda: _side("back_image", back_bytes), tenant=tenant)
        if back_bytes
        else None
    )
    if selfie_bytes is not None:
        await images.run(lambda: _side("selfie_image", selfie_bytes), tenant=tenant)
    codes: list[Barcode] = []
    if principal.live:
        analysis = await images.run(
            lambda: analyse(front, back, body.document_type, body.country_code, today),
            tenant=tenant,
        )
        checks, zone, retry, codes = (
            analysis.checks,
            analysis.zone,
            analysis.retry_reasons,
            analysis.codes,
        )
        distance = None
        if selfie_bytes is not None:
            face_checks, distance = await _face_checks(call, front_bytes, selfie_bytes)
            checks.extend(face_checks)
    else:
        red, green, blue = (float(v) for v in front.pixels.reshape(-1, 3).mean(axis=0))
        answer = sandbox.VERIFY.answer(
            sandbox.SandboxQuery(
                body.document_type, body.country_code, (red, green, blue), selfie_bytes is not None
            )
        )
        checks, zone, retry, distance = (
            answer.checks,
            answer.zone,
            answer.retry_reasons,
            answer.distance,
        )
    face = None
    if selfie_bytes is not None:
        face = FaceMatch(
            distance=distance,
            threshold=MATCH_THRESHOLD,
            match=None if distance is None else distance < MATCH_THRESHOLD,
        )

    own = verdict(checks)
    reference = "doc_" + call.request_id.removeprefix("req_")
    data = DocumentResultData(
        verdict=own,
        retryable=bool(retry),
        retry_reasons=retry,
        reasons=[c.reason for c in checks if c.status in ("failed", "attention")],
        checks=[
            DocumentCheck(
                name=c.name,
                category=c.category,
                status=c.status,
                reason=c.reason,
                signals=c.signals,
            )
            for c in checks
        ],
        document=_document(zone, codes, today),
        face=face,
    )

    def render(charge: Charge | None) -> bytes:
        return rendered(
            DocumentResult,
            call,
            charge,
            reference=reference,
            verdict=DOCUMENT_VERDICTS[own],
            data=data,
        )

    async def write(conn: AsyncConnection) -> None:
        await repository.insert_result(
            conn,
            {
                "id": reference,
                "org_id": principal.org_id,
                "environment": principal.environment,
                "request_id": call.request_id,
                "document_type": body.document_type,
                "country_code": body.country_code,
                "verdict": own,
                "result_sealed": call.runtime.vault.seal(data.model_dump_json().encode()),
                "created_at": utcnow(),
            },
        )

    return await finish_call(
        call,
        billable=True,
        response_code=None,
        subject=None,
        render=render,
        description="Document verification",
        write=write,
    )


@dataclass(frozen=True)
class KeptResult:
    """A document verification as kept: what the call answered, and when."""

    reference: str
    request_id: str
    document_type: str
    country_code: str | None
    verdict: str
    created_at: datetime
    data: DocumentResultData | None  # None in a listing


def _kept(row: dict[str, Any], data: DocumentResultData | None) -> KeptResult:
    return KeptResult(
        row["id"],
        row["request_id"],
        row["document_type"],
        row["country_code"],
        row["verdict"],
        row["created_at"],
        data,
    )


async def read_result(runtime: Runtime, owner: tuple[str, str], reference: str) -> KeptResult:
    """One of the organisation's verifications in this environment (404 otherwise)."""
    environment, org_id = owner
    async with read(runtime.db) as conn:
        row = await repository.get_owned(conn, org_id, environment, reference)
    if row is None:
        raise ApiError(404, "not_found", f"No document verification {reference}.")
    sealed = runtime.vault.unseal(row["result_sealed"])
    return _kept(row, DocumentResultData.model_validate(orjson.loads(sealed)))


async def list_results(
    runtime: Runtime, owner: tuple[str, str], page: PageRequest
) -> tuple[list[KeptResult], int]:
    """The organisation's verifications in this environment, newest first, and their count."""
    environment, org_id = owner
    async with read(runtime.db) as conn:
        total = await repository.count_owned(conn, org_id, environment)
        rows = await repository.list_owned(
            conn, org_id, environment, offset=page.offset, limit=page.page_size
        )
    return [_kept(row, None) for row in rows], total
