"""Each step of a submitted session, run with the engines and services the API's own endpoints
use: identity's channels and providers (KYC), the documents engine, the face engine and its
liveness check, the screening engine. Sandbox sessions get those domains' sandbox answers and
the suffixes of verification/sandbox.py. A step answers its status, a reason in plain words and
its evidence (no image: frames and photos live in this request's memory only)."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from datetime import date
from typing import Any

import numpy as np

from hakiki.core.envelope import Outcome
from hakiki.core.errors import ApiError
from hakiki.core.runtime import Runtime
from hakiki.engines.documents.verify import Side, analyse, verdict
from hakiki.engines.face import (
    FaceEmbedding,
    FaceImageError,
    NoFaceError,
    face_distance,
    load_image,
)
from hakiki.engines.face import liveness as liveness_engine
from hakiki.engines.face.liveness import Frame
from hakiki.engines.screening.compare import compare_names
from hakiki.engines.screening.subject import Subject
from hakiki.identity.channels import find_channel
from hakiki.identity.verify import live_provider, sandbox_verify, verified_from
from hakiki.lists.engines import ScreeningEngines
from hakiki.lists.outcomes import ListDates
from hakiki.screening.aml_with_id import aml_result

MATCH_THRESHOLD = 0.6  # dlib's same-person distance, as /v3/documents/verify
DOCUMENT_MAX_BYTES = 1024 * 1024 - 1
DOCUMENT_MAX_PIXELS = 16_000_000
FRAME_MAX_BYTES = 200_000
FRAME_MAX_PIXELS = 1_000_000
MAX_FRAMES = 60


@dataclass
class StepOutcome:
    status: str  # passed | review | failed | not_run
    reason: str
    evidence: dict[str, Any] = field(default_factory=dict)
    billable: bool = True

    def out(self, step: str) -> dict[str, Any]:
        return {
            "step": step,
            "status": self.status,
            "reason": self.reason,
            "evidence": self.evidence,
        }


@dataclass
class Submission:
    """What the customer sent, decoded (never stored)."""

    id_number: str | None
    document: bytes | None
    frames: list[tuple[int, bytes]]
    challenge: dict[str, Any] | None
    replayed_frames: int = 0


@dataclass
class Context:
    runtime: Runtime
    row: dict[str, Any]
    customer: dict[str, str] | None
    suffix: str | None
    names: tuple[str | None, str | None] | None = None  # found for screening
    portrait: np.ndarray | None = None
    portrait_problem: str | None = None

    @property
    def live(self) -> bool:
        return bool(self.row["environment"] == "live")


@dataclass(frozen=True)
class _Names:
    first_name: str | None
    last_name: str | None
    compare: bool = True


def frame_digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


async def id_number(ctx: Context, sub: Submission) -> StepOutcome:
    row = ctx.row
    channel = find_channel(str(row["id_channel"]), row["country"])
    if channel is None:
        return StepOutcome(
            "review", "the ID channel is not offered for this country", billable=False
        )
    raw = (sub.id_number or "").strip()
    number = channel.normalise(raw)
    if not raw or channel.check(number):
        return StepOutcome(
            "failed",
            f"the ID number is not a valid {channel.code} number",
            {"channel": channel.code},
        )
    first, last = (ctx.customer or {}).get("first_name"), (ctx.customer or {}).get("last_name")
    if ctx.live:
        try:
            provider = live_provider(ctx.runtime, channel)
        except ApiError as error:
            return StepOutcome("review", error.message, {"channel": channel.code}, billable=False)
        lookup = await provider.lookup(
            channel.country, channel.code, number, first_name=first, last_name=last
        )
        verified = verified_from(lookup, "")
    else:
        verified = sandbox_verify(channel, number, _Names(first, last, ctx.customer is not None))
    evidence: dict[str, Any] = {"channel": channel.code, "provider": verified.provider}
    if verified.outcome is Outcome.NOT_FOUND:
        return StepOutcome(
            "failed", "the register has no record of this ID number", evidence | {"found": False}
        )
    if verified.outcome is not Outcome.VERIFIED or verified.record is None:
        return StepOutcome(
            "review",
            f"the identity register answered {verified.outcome.name}",
            evidence,
            billable=False,
        )
    record = verified.record
    ctx.names = (record.first_name, record.last_name)
    evidence["found"] = True
    if ctx.customer is None:
        return StepOutcome("passed", "the ID number is on the register", evidence)
    names = compare_names(first, last, record.first_name, record.middle_name, record.last_name)
    evidence |= {"name_match": names.match, "name_score": names.score}
    if not names.match:
        return StepOutcome("failed", "the register's names are not the customer's", evidence)
    return StepOutcome(
        "passed", "the ID number is on the register with the customer's names", evidence
    )


def _document_pixels(data: bytes) -> Side:
    image = load_image(
        data, max_bytes=DOCUMENT_MAX_BYTES, max_pixels=DOCUMENT_MAX_PIXELS, max_side=2000
    )
    return Side("document", data, image.format, image.pixels, image.original_size)


def _portrait(runtime: Runtime, data: bytes) -> FaceEmbedding:
    """The document's portrait: a camera's photo of the card in the page's guide (84% of the
    frame's width, on a desk) makes it smaller than an upload of the card alone, often under
    the detector's smallest face; then it is looked for again at twice the scale."""
    embedder = runtime.face_embedder()
    try:
        return embedder.embed_bytes(data)
    except NoFaceError:
        return embedder.embed_bytes(data, small_faces=True)


async def document(ctx: Context, sub: Submission) -> StepOutcome:
    runtime, tenant = ctx.runtime, ctx.row["org_id"]
    if not sub.document:
        return StepOutcome("failed", "no photo of the document was sent", billable=False)
    try:
        side = await runtime.images.run(
            lambda: _document_pixels(sub.document or b""), tenant=tenant
        )
    except FaceImageError as error:
        return StepOutcome(
            "failed", f"the document photo could not be read: {error}", billable=False
        )
    if "selfie_liveness" in ctx.row["steps"]:
        try:
            face = await runtime.images.run(
                lambda: _portrait(runtime, sub.document or b""), tenant=tenant
            )
            ctx.portrait = face.vector
        except FaceImageError as error:
            ctx.portrait_problem = f"no portrait was found on the document: {error}"
    if not ctx.live:
        if ctx.suffix == "+document_fail":
            return StepOutcome(
                "failed", "the photo is not a genuine document (sandbox)", {"verdict": "rejected"}
            )
        return StepOutcome("passed", "the document looks genuine (sandbox)", {"verdict": "clear"})
    today = date.today()
    analysis = await runtime.images.run(
        lambda: analyse(side, None, "national_id", ctx.row["country"], today), tenant=tenant
    )
    found = verdict(analysis.checks)
    zone = analysis.zone
    if zone is not None and ctx.names is None:
        ctx.names = (zone.given_names or None, zone.surname or None)
    evidence = {
        "verdict": found,
        "checks": [
            {"name": c.name, "status": c.status, "reason": c.reason} for c in analysis.checks
        ],
        "document_number": zone.document_number if zone else None,
        "retry_reasons": analysis.retry_reasons,
    }
    problems = [c.reason for c in analysis.checks if c.status in ("failed", "attention")]
    if found == "rejected":
        return StepOutcome("failed", "the document failed: " + "; ".join(problems), evidence)
    if found == "attention":
        return StepOutcome("review", "the document needs a look: " + "; ".join(problems), evidence)
    return StepOutcome("passed", "the document looks genuine", evidence)


def _frames(sub: Submission) -> list[Frame]:
    frames = []
    for t_ms, data in sub.frames:
        image = load_image(
            data, max_bytes=FRAME_MAX_BYTES, max_pixels=FRAME_MAX_PIXELS, max_side=640
        )
        frames.append(Frame(t_ms, image.pixels))
    return frames


async def selfie_liveness(ctx: Context, sub: Submission) -> StepOutcome:
    runtime, tenant = ctx.runtime, ctx.row["org_id"]
    challenge = sub.challenge or {}
    evidence: dict[str, Any] = {"challenge": challenge.get("steps"), "frames": len(sub.frames)}
    if sub.replayed_frames:
        return StepOutcome(
            "failed",
            f"replayed: {sub.replayed_frames} of the frames were submitted before",
            evidence,
            billable=False,
        )
    if not sub.frames:
        return StepOutcome("failed", "no selfie frames were sent", evidence, billable=False)
    try:
        frames = await runtime.images.run(lambda: _frames(sub), tenant=tenant)
    except FaceImageError as error:
        return StepOutcome(
            "failed", f"a selfie frame could not be read: {error}", evidence, billable=False
        )
    if not ctx.live:
        if ctx.suffix == "+liveness_fail":
            return StepOutcome(
                "failed", "the head did not follow the challenge (sandbox)", evidence
            )
        if ctx.suffix == "+face_mismatch":
            return StepOutcome(
                "failed", "the face is not the document's holder (sandbox)", evidence
            )
        return StepOutcome("passed", "a live person, the document's holder (sandbox)", evidence)
    embedder = runtime.face_embedder()
    steps = list(challenge.get("steps") or [])
    result = await runtime.images.run(
        lambda: liveness_engine.check(
            embedder,
            frames,
            steps,
            lead_ms=int(challenge.get("lead_ms", liveness_engine.LEAD_MS)),
            step_ms=int(challenge.get("step_ms", liveness_engine.STEP_MS)),
        ),
        tenant=tenant,
    )
    evidence |= {"liveness": result.code, "observed": result.observed, "signals": result.signals}
    if not result.passed:
        return StepOutcome("failed", f"liveness failed: {result.reason}", evidence)
    if ctx.portrait is None:
        return StepOutcome(
            "failed", ctx.portrait_problem or "no document portrait to match", evidence
        )
    distance = min(face_distance(ctx.portrait, v) for v in result.vectors)
    evidence |= {"distance": round(distance, 4), "threshold": MATCH_THRESHOLD}
    if distance >= MATCH_THRESHOLD:
        return StepOutcome("failed", "the face is not the document's holder", evidence)
    return StepOutcome("passed", "a live person who is the document's holder", evidence)


async def screening(ctx: Context, sub: Submission) -> StepOutcome:
    names = ctx.names or (
        ((ctx.customer or {}).get("first_name"), (ctx.customer or {}).get("last_name"))
        if ctx.customer
        else None
    )
    if not names or not any(names):
        return StepOutcome("review", "no name was found to screen", billable=False)
    first, last = names
    if not ctx.live:
        digits = "".join(c for c in (sub.id_number or "") if c.isdigit())
        mask = int(digits[-2]) if len(digits) >= 2 else 0
        hits = [
            {
                "check": check,
                "list_code": "sandbox",
                "matched_name": f"{first} {last}",
                "score": 1.0,
            }
            for bit, check in ((1, "pep"), (2, "sanction"))
            if mask & bit
        ]
        if hits:
            return StepOutcome(
                "review", f"{len(hits)} potential match(es) to review (sandbox)", {"hits": hits}
            )
        return StepOutcome("passed", "no sanctions or PEP match (sandbox)", {"hits": []})
    runtime = ctx.runtime
    checks = ["sanction", "pep"]
    engine = await runtime.part(ScreeningEngines).for_environment(True)
    subject = Subject(first_name=first, last_name=last, countries=(ctx.row["country"],))
    threshold = runtime.settings.aml_threshold
    result = await runtime.screen(
        engine, subject, tenant=ctx.row["org_id"], checks=checks, threshold=threshold, limit=10
    )
    aml = aml_result(
        result,
        checks=checks,
        threshold=threshold,
        screened_name=subject.full_name,
        dates=ListDates.of_engine(engine, runtime.settings),
    )
    if aml.status == "INCOMPLETE":
        missing = " ".join(u.reason for u in aml.unavailable)
        return StepOutcome("review", f"not every list could be screened: {missing}", billable=False)
    hits = [
        {
            "check": h.check,
            "list_code": h.list_code,
            "matched_name": h.matched_name,
            "score": h.score,
        }
        for h in aml.hits
    ]
    evidence = {"lists": [f"{u.code}@{u.version}" for u in aml.lists], "hits": hits}
    if hits:
        return StepOutcome("review", f"{len(hits)} potential match(es) to review", evidence)
    return StepOutcome("passed", "no sanctions or PEP match", evidence)


RUNNERS = {
    "id_number": id_number,
    "document": document,
    "selfie_liveness": selfie_liveness,
    "screening": screening,
}


async def run_all(ctx: Context, sub: Submission) -> dict[str, StepOutcome]:
    return {step: await RUNNERS[step](ctx, sub) for step in ctx.row["steps"]}
