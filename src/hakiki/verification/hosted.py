"""The hosted verification page (GET /verify/{token}) and its calls (POST .../start,
.../challenge, .../submit): the customer's side of a session, in English or Swahili, with no
third-party asset (its script and style are served from here) and the console's Content
Security Policy, plus camera=self. The token in the link is the only credential (stored as a
keyed hash); it works until the session is submitted or expires. Images and frames live in the
submitting request's memory only, never logged, and are not stored unless the organisation
opted in (verification/images.py: sealed, deleted after its retention period); frames are
remembered as keyed digests, so the same frames sent again are refused as a replay."""

from __future__ import annotations

import base64
import binascii
import json
import secrets
from datetime import datetime
from html import escape
from pathlib import Path
from typing import Any

import orjson
from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, JSONResponse, Response

from hakiki.core import clock, request_body
from hakiki.core.calls import runtime_of
from hakiki.core.clock import as_utc
from hakiki.core.database import read, transaction
from hakiki.core.errors import payload_too_large
from hakiki.core.jobs.queue import enqueue
from hakiki.core.runtime import Runtime
from hakiki.engines.face import liveness
from hakiki.identity.channels import find_channel
from hakiki.verification import consent, images, repository, sandbox, service, steps
from hakiki.verification.strings import STRINGS

router = APIRouter(include_in_schema=False)

STATIC = Path(__file__).parent / "static"
STATIC_FILES = {
    "verify.js": "text/javascript; charset=utf-8",
    "verify.css": "text/css; charset=utf-8",
}
SUBMIT_LIMIT = 8 << 20
SMALL_LIMIT = 4 << 10
MAX_CHALLENGES = 5
CHALLENGE_GRACE_SECONDS = 300  # the frames' upload over a slow connection
EARLY_MS = 500  # a submission may not come sooner than the challenge lasts, less this
HEADERS = {
    # The console's policy; the camera for this page only.
    "Content-Security-Policy": "default-src 'none'; script-src 'self'; style-src 'self'; "
    "img-src 'self' data: blob:; media-src 'self' blob:; connect-src 'self'; "
    "form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
    "Permissions-Policy": "camera=(self), microphone=(), geolocation=()",
    "Referrer-Policy": "no-referrer",  # the link's token must not leak
    "Cache-Control": "no-store",
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
}


def _language(request: Request) -> str:
    asked = request.query_params.get("lang", "")
    if asked in STRINGS:
        return asked
    accepted = request.headers.get("accept-language", "").lower()
    return "sw" if accepted.startswith("sw") else "en"


def _json(status: int, data: dict[str, Any]) -> JSONResponse:
    return JSONResponse(data, status_code=status, headers=HEADERS)


def _refused(status: int, code: str, message: str) -> JSONResponse:
    return _json(status, {"error": code, "message": message})


async def _session(runtime: Runtime, token: str) -> dict[str, Any] | None:
    if not 20 <= len(token) <= 100:
        return None
    async with read(runtime.db) as conn:
        return await repository.by_token(conn, service.token_hash(runtime.vault, token))


def _page(lang: str, title: str, body: str, status: int = 200) -> HTMLResponse:
    html = (
        f"<!doctype html><html lang={lang}><head><meta charset=utf-8>"
        '<meta name=viewport content="width=device-width, initial-scale=1">'
        f'<title>{escape(title)}</title><link rel=stylesheet href="/verify/static/verify.css">'
        f"</head><body><main>{body}</main></body></html>"
    )
    return HTMLResponse(html, status_code=status, headers=HEADERS)


def _message(lang: str, key: str, status: int = 200) -> HTMLResponse:
    text = STRINGS[lang]
    return _page(
        lang,
        text["title"],
        f"<h1>{escape(text['title'])}</h1><p id=done>{escape(text[key])}</p>",
        status,
    )


@router.get("/verify/static/{name}")
async def static(name: str) -> Response:
    if name not in STATIC_FILES:
        return Response(status_code=404)
    return Response(
        (STATIC / name).read_bytes(),
        media_type=STATIC_FILES[name],
        headers={"Cache-Control": "public, max-age=3600", "X-Content-Type-Options": "nosniff"},
    )


@router.get("/verify/{token}", response_class=HTMLResponse)
async def page(token: str, request: Request) -> HTMLResponse:
    runtime = runtime_of(request)
    lang = _language(request)
    row = await _session(runtime, token)
    if row is None or service.dead(row):
        return _message(lang, "gone", 404)
    if row["status"] not in ("created", "started"):
        return _message(lang, "already")
    text = STRINGS[lang]
    wanted = service.steps_of(row)
    channel = find_channel(str(row["id_channel"]), row["country"]) if row["id_channel"] else None
    config = {
        "lang": lang,
        "steps": wanted,
        "id_label": channel.name if channel else "",
        "strings": text,
        "other": {"en": "Kiswahili", "sw": "English"}[lang],
        "other_lang": "sw" if lang == "en" else "en",
    }
    # Data, not script: the page's script reads it (script-src 'self' runs no inline code).
    blob = escape(json.dumps(config), quote=False)
    body = (
        f"<h1>{escape(text['title'])}</h1>"
        f'<p><a id=switch href="?lang={config["other_lang"]}">{config["other"]}</a></p>'
        f'<script type="application/json" id=config>{blob}</script>'
        f"<div id=app><p>{escape(text['needs_script'])}</p></div>"
        '<script src="/verify/static/verify.js"></script>'
    )
    return _page(lang, text["title"], body)


async def _small_json(request: Request) -> dict[str, Any] | None:
    declared = request_body.content_length(request.scope)
    if declared is not None and declared > SMALL_LIMIT:
        return None
    try:
        data = orjson.loads(
            await Request(request.scope, request_body.bounded(request.receive, SMALL_LIMIT)).body()
        )
    except Exception:
        return None
    return data if isinstance(data, dict) else None


@router.post("/verify/{token}/start")
async def start(token: str, request: Request) -> JSONResponse:
    """The customer consented (recorded with the time and the page's language)."""
    runtime = runtime_of(request)
    row = await _session(runtime, token)
    if row is None or service.dead(row):
        return _refused(404, "not_found", "This link does not work any more.")
    body = await _small_json(request)
    if body is None or body.get("consent") is not True:
        return _refused(400, "consent_required", "The customer's consent is required.")
    lang = body.get("language") if body.get("language") in STRINGS else "en"
    now = clock.utcnow()
    async with transaction(runtime.db) as conn:
        locked = await repository.lock(conn, row["id"])
        if locked is None:
            return _refused(404, "not_found", "This link does not work any more.")
        if locked["status"] == "created":
            await consent.record(conn, runtime, row, str(lang), now)
            await repository.move(
                conn,
                row["id"],
                "created",
                {
                    "status": "started",
                    "consent_at": now,
                    "started_at": now,
                    "language": lang,
                    "updated_at": now,
                },
            )
        elif locked["status"] != "started":
            return _refused(409, "already_submitted", "This link was already used.")
    return _json(200, {"status": "started", "steps": service.steps_of(row)})


@router.post("/verify/{token}/challenge")
async def challenge(token: str, request: Request) -> JSONResponse:
    """A fresh random challenge with its nonce (the previous one stops working)."""
    runtime = runtime_of(request)
    row = await _session(runtime, token)
    if row is None or service.dead(row):
        return _refused(404, "not_found", "This link does not work any more.")
    issued = {
        "nonce": secrets.token_urlsafe(18),
        "steps": list(liveness.new_steps()),
        "lead_ms": liveness.LEAD_MS,
        "step_ms": liveness.STEP_MS,
        "issued_at": clock.utcnow().isoformat(),
    }
    async with transaction(runtime.db) as conn:
        locked = await repository.lock(conn, row["id"])
        if locked is None or locked["status"] != "started":
            return _refused(409, "not_started", "Consent first, and only until submitted.")
        if int(locked["challenges_issued"]) >= MAX_CHALLENGES:
            return _refused(429, "too_many_challenges", "Too many attempts on this link.")
        await repository.update_session(
            conn,
            row["id"],
            {
                "challenge_encrypted": runtime.vault.encrypt(json.dumps(issued)),
                "challenges_issued": int(locked["challenges_issued"]) + 1,
                "updated_at": clock.utcnow(),
            },
        )
    return _json(200, {k: issued[k] for k in ("nonce", "steps", "lead_ms", "step_ms")} | {"fps": 4})


def _image(text: Any) -> bytes | None:
    if not isinstance(text, str) or not text:
        return None
    if text.startswith("data:"):
        text = text.partition(",")[2]
    try:
        return base64.b64decode(text, validate=True)
    except (binascii.Error, ValueError):
        return None


def _read_submission(body: dict[str, Any]) -> tuple[steps.Submission, str] | str:
    """The submission, or what is wrong with it."""
    frames: list[tuple[int, bytes]] = []
    sent = body.get("frames") or []
    if not isinstance(sent, list) or len(sent) > steps.MAX_FRAMES:
        return f"frames: at most {steps.MAX_FRAMES}"
    for item in sent:
        if not isinstance(item, dict) or not isinstance(item.get("t"), int):
            return "frames: each needs t (milliseconds) and image"
        data = _image(item.get("image"))
        if data is None:
            return "frames: an image is not base64"
        frames.append((int(item["t"]), data))
    number = body.get("id_number")
    document = _image(body.get("document_image")) if body.get("document_image") else None
    nonce = body.get("nonce")
    return (
        steps.Submission(
            id_number=number if isinstance(number, str) else None,
            document=document,
            frames=frames,
            challenge=None,
        ),
        nonce if isinstance(nonce, str) else "",
    )


@router.post("/verify/{token}/submit")
async def submit(token: str, request: Request) -> JSONResponse:
    runtime = runtime_of(request)
    declared = request_body.content_length(request.scope)
    if declared is not None and declared > SUBMIT_LIMIT:
        raise payload_too_large(SUBMIT_LIMIT)
    row = await _session(runtime, token)
    if row is None:
        return _refused(404, "not_found", "This link does not work.")
    if row["status"] not in ("created", "started"):
        return _refused(
            409,
            "already_submitted",
            "This link was already used: a replayed submission is refused.",
        )
    if service.dead(row):
        return _refused(410, "expired", "This link has expired.")
    raw = await Request(request.scope, request_body.bounded(request.receive, SUBMIT_LIMIT)).body()
    try:
        body = orjson.loads(raw)
    except orjson.JSONDecodeError:
        return _refused(400, "invalid_request", "The body is not JSON.")
    if not isinstance(body, dict):
        return _refused(400, "invalid_request", "The body is not a JSON object.")
    read_back = _read_submission(body)
    if isinstance(read_back, str):
        return _refused(400, "invalid_request", read_back)
    submission, nonce = read_back
    wanted = service.steps_of(row)
    now = clock.utcnow()
    digests = [
        runtime.vault.lookup_hash("liveness-frame", steps.frame_digest(d))
        for _t, d in submission.frames
    ]
    async with transaction(runtime.db) as conn:
        locked = await repository.lock(conn, row["id"])
        if locked is None or locked["status"] != "started":
            return _refused(
                409,
                "already_submitted",
                "This link was already used: a replayed submission is refused.",
            )
        issued = (
            json.loads(runtime.vault.decrypt(locked["challenge_encrypted"]))
            if locked["challenge_encrypted"]
            else None
        )
        if "selfie_liveness" in wanted:
            if issued is None or not secrets.compare_digest(
                nonce.encode(), str(issued["nonce"]).encode()
            ):
                return _refused(
                    409,
                    "challenge_mismatch",
                    "The liveness frames are not bound to this session's current challenge "
                    "(its nonce): a replay or a stale page.",
                )
            elapsed = (
                now - as_utc(datetime.fromisoformat(issued["issued_at"]))
            ).total_seconds() * 1000
            lasts = int(issued["lead_ms"]) + int(issued["step_ms"]) * len(issued["steps"])
            if elapsed < lasts - EARLY_MS:
                return _refused(
                    409,
                    "challenge_too_fast",
                    "The frames came sooner than the challenge lasts: not captured live.",
                )
            if elapsed > lasts + CHALLENGE_GRACE_SECONDS * 1000:
                return _refused(
                    409, "challenge_expired", "The challenge has expired: take the selfie again."
                )
            submission.challenge = issued
            seen = await repository.seen_frames(conn, digests)
            submission.replayed_frames = sum(d in seen for d in digests)
            fresh = [d for d in dict.fromkeys(digests) if d not in seen]
            await repository.remember_frames(conn, row["id"], fresh, now)
        await images.keep_submitted(
            conn, runtime.vault, row, submission.document, submission.frames, now
        )
        await repository.move(
            conn,
            row["id"],
            "started",
            {
                "status": "submitted",
                "submitted_at": now,
                "updated_at": now,
                "challenge_encrypted": None,
            },
        )
        await enqueue(
            conn,
            service.INTERRUPTED_TASK,
            {"session_id": row["id"]},
            delay_seconds=service.INTERRUPTED_AFTER_SECONDS,
        )
    customer = (
        json.loads(runtime.vault.decrypt(row["customer_encrypted"]))
        if row["customer_encrypted"]
        else None
    )
    context = steps.Context(
        runtime=runtime,
        row=row | {"steps": wanted},
        customer=customer,
        suffix=None if row["environment"] == "live" else sandbox.path_of(row["customer_reference"]),
    )
    outcomes = await steps.run_all(context, submission)
    del submission  # the images and frames end here
    async with transaction(runtime.db) as conn:
        finished = await service.finish(runtime, conn, row["id"], outcomes)
    status = finished["status"] if finished else "submitted"
    redirect = row["redirect_url"]
    if redirect:
        joiner = "&" if "?" in redirect else "?"
        redirect = f"{redirect}{joiner}session_id={row['id']}&status={status}"
    return _json(200, {"status": status, "redirect_url": redirect})
