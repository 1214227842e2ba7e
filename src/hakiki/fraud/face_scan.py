"""The face scan: the one face of an uploaded image against the fraud bank (faces of reports)
and against faces seen with other identity numbers (one face, many BVNs/NINs: the classic
synthetic-identity pattern). Sandbox: the image is checked and embedded for real; the last
digit of the first identity number sent picks the database signals (docs/sandbox.md)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from sqlalchemy.ext.asyncio import AsyncConnection

from hakiki.core.billing import Charge
from hakiki.core.calls import Call, finish_call
from hakiki.core.clock import utcnow
from hakiki.core.errors import ApiError
from hakiki.core.ids import new_id
from hakiki.engines.face import FaceEmbedding, FaceImageError
from hakiki.engines.fraud.risk import FaceEvidence, assess, face_signals
from hakiki.fraud import sandbox
from hakiki.fraud.face_bank import FaceBank, Print, insert_prints
from hakiki.fraud.keys import identifier_key
from hakiki.fraud.scan_schemas import (
    FaceFound,
    FaceLinks,
    FaceScanResult,
    ReportSummary,
    risk_out,
    scan_answer,
)

MAX_NUMBERS = 10


async def embed(call: Call, image: bytes, field: str = "image") -> FaceEmbedding:
    """The image's one face, embedded off the event loop; a 400 naming ``field`` otherwise."""
    runtime = call.runtime
    try:
        return await runtime.images.run(
            lambda: runtime.face_embedder().embed_bytes(image), tenant=call.principal.org_id
        )
    except FaceImageError as error:
        raise ApiError(
            400,
            "invalid_request",
            f"{field}: {error}",
            details=[{"field": field, "problem": getattr(error, "code", "invalid image")}],
        ) from error


def evidence_from(matches: list[tuple[Print, float]], own_keys: set[str]) -> FaceEvidence:
    reports: dict[str, str] = {}
    reporters: set[str] = set()
    identities: set[str] = set()
    for match, _distance in matches:
        if match.report_id and match.category:
            reports[match.report_id] = match.category
            reporters.add(match.org_id)
        if match.identifier_key and match.identifier_key not in own_keys:
            identities.add(match.identifier_key)
    categories: dict[str, int] = {}
    for category in reports.values():
        categories[category] = categories.get(category, 0) + 1
    ordered = tuple(sorted(categories.items(), key=lambda c: (-c[1], c[0])))
    return FaceEvidence(len(reports), ordered, len(reporters), len(identities))


def print_rows(
    owner: tuple[str, str],
    face: FaceEmbedding,
    matches: list[tuple[Print, float]],
    identifier_keys: Sequence[str | None],
    report: tuple[str, str] | None = None,
) -> list[dict[str, object]]:
    """face_prints rows of ``owner`` (environment, organisation): the face with each identity
    number (and report: id, category)."""
    person = matches[0][0].person_key if matches else new_id("face")
    vector = np.asarray(face.vector, dtype=np.float32).tobytes()
    return [
        {
            "id": new_id("fpr"), "environment": owner[0], "org_id": owner[1],
            "identifier_key": key,
            "report_id": report[0] if report else None,
            "category": report[1] if report else None,
            "person_key": person, "embedding": vector, "created_at": utcnow(),
        }
        for key in identifier_keys
    ]  # fmt: skip


async def scan(call: Call, image: bytes, numbers: list[str]) -> bytes:
    runtime, principal = call.runtime, call.principal
    if len(numbers) > MAX_NUMBERS:
        raise ApiError(
            400, "invalid_request", f"At most {MAX_NUMBERS} identity numbers per scan.",
            details=[{"field": "identity_numbers", "problem": "too many"}],
        )  # fmt: skip
    face = await embed(call, image)
    own_keys = {identifier_key(runtime.vault, n) for n in numbers}
    closest = None
    rows: list[dict[str, object]] = []
    if principal.live:
        await runtime.part(FaceBank).refresh(runtime.db)
        matches = runtime.part(FaceBank).nearest(principal.environment, face.vector)
        evidence = evidence_from(matches, own_keys)
        closest = round(matches[0][1], 4) if matches else None
        rows = print_rows(principal.owner, face, matches, sorted(own_keys))
    else:
        evidence = sandbox.FACE_SCAN.answer(numbers)
    risk = assess(face_signals(evidence), runtime.settings.fraud_weights)

    async def write(conn: AsyncConnection) -> None:
        await insert_prints(conn, rows)

    def render(charge: Charge | None) -> bytes:
        box = face.box
        return scan_answer(
            FaceScanResult,
            call,
            charge,
            reference="ffs_" + call.request_id.removeprefix("req_"),
            face=FaceFound(
                box={
                    "left": box.left,
                    "top": box.top,
                    "right": box.right,
                    "bottom": box.bottom,
                },
                detector_score=round(face.score, 3),
            ),
            links=FaceLinks(
                fraud_bank_matches=evidence.bank_matches,
                other_identities=evidence.other_identities,
                closest_distance=closest,
            ),
            fraud_reports=ReportSummary(
                count=evidence.bank_matches,
                organisations=evidence.bank_organisations,
                categories=dict(evidence.bank_categories),
            ),
            risk=risk_out(risk),
        )

    body = await finish_call(
        call,
        billable=True,
        response_code=None,
        subject=None,
        render=render,
        description="Fraud face scan",
        write=write if rows else None,
    )
    for row in rows:  # this process sees its own prints at once; others at their next refresh
        runtime.part(FaceBank).add(principal.environment, row)
    return body
