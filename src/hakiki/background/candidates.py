"""Candidate requests: create (one per candidate, the package's price reserved), list, read
with checks and timeline, reinitiate, and the analyst's recording of a manual check."""

from __future__ import annotations

import json
import logging
import secrets
from datetime import timedelta
from typing import Any

from sqlalchemy.ext.asyncio import AsyncConnection

from hakiki.background import lifecycle, repository, timers
from hakiki.background.availability import offered
from hakiki.background.check_types import ALL_CODES, BY_COUNTRY
from hakiki.background.packages import Owner, get_package, package_price
from hakiki.background.sandbox import sandbox_path
from hakiki.background.schemas import (
    INVITED,
    REQUEST_MESSAGES,
    VERDICTS,
    CandidateOut,
    CandidateRequestDetail,
    CandidateRequestList,
    CandidateRequestOut,
    CandidateResult,
    CandidatesCreated,
    CandidatesRequest,
    CandidatesResult,
    CheckOut,
    CheckResultRequest,
    ReinitiatedResult,
    TimelineEntry,
    request_outcome,
)
from hakiki.background.system_packages import SYSTEM_PACKAGES
from hakiki.core import billing, clock, mail, mail_links
from hakiki.core.calls import Call, finish_write
from hakiki.core.crypto import Vault
from hakiki.core.database import read
from hakiki.core.envelope import E, Outcome, enveloped, rendered
from hakiki.core.errors import ApiError
from hakiki.core.ids import new_id
from hakiki.core.pagination import PageRequest
from hakiki.core.runtime import Runtime
from hakiki.engines.background.states import RefusedTransition, next_state
from hakiki.webhooks.service import add_callback
from hakiki.webhooks.signing import new_secret
from hakiki.webhooks.urls import UrlRefused, check_url

logger = logging.getLogger(__name__)
BASE_URL_SETTING = "HAKIKI_PUBLIC_BASE_URL"

# What a request's callback_url receives: the events of that request.
CALLBACK_EVENTS = ("background_check.updated", "background_check.completed")


def token_hash(vault: Vault, token: str) -> str:
    return vault.lookup_hash("background-invitation", token)


def new_token(vault: Vault) -> tuple[str, str]:
    token = secrets.token_urlsafe(32)
    return token, token_hash(vault, token)


def base_url(call: Call) -> str:
    """The base of the link in the API answer: the caller's own to use."""
    configured = call.runtime.settings.public_base_url
    return (configured or str(call.request.base_url)).rstrip("/")


def mail_base(call: Call) -> str | None:
    """The base of the link e-mailed to the candidate: configured (core.mail_links), or None,
    and the mail job notes that no e-mail was sent and why."""
    settings = call.runtime.settings
    base = mail_links.link_base(settings.public_base_url, call.request)
    if base is None and mail.configured(settings):
        logger.error("background: %s", mail_links.missing(BASE_URL_SETTING, call.request))
    return base


def mailed_url(base: str | None, token: str) -> str | None:
    return f"{base}/invitations/{token}" if base is not None else None


async def _package_snapshot(call: Call, package_id: str) -> dict[str, Any]:
    """The package as the request keeps it: later edits or its deletion change nothing."""
    if package_id in SYSTEM_PACKAGES:
        package = SYSTEM_PACKAGES[package_id]
        codes, name, country = list(package.check_types), package.name, package.country
    elif package_id.startswith("bpk_"):
        row = await get_package(call.runtime, call.principal.owner, package_id)
        codes, name, country = json.loads(row["check_types"]), row["name"], row["country"]
    else:
        raise ApiError(404, "not_found", f"No package {package_id[:60]!r}.")
    available = offered(call.runtime, call.principal.live, country)
    codes = [c for c in codes if c in available and available[c].available]
    return {"id": package_id, "name": name, "country": country, "check_types": codes}


def _check_rows(
    runtime: Runtime, request_id: str, snapshot: dict[str, Any], live: bool
) -> list[dict[str, Any]]:
    offered = BY_COUNTRY[snapshot["country"]]
    return [
        {
            "request_id": request_id,
            "code": code,
            "kind": offered[code].kind,
            "status": "pending",
            "result": None,
            "evidence_encrypted": None,
            "price": runtime.price(offered[code].price_key) if live else 0,
            "transaction_id": None,
            "due_at": None,
            "completed_at": None,
            "recorded_by_encrypted": None,
        }
        for code in snapshot["check_types"]
    ]


def request_out(
    vault: Vault, row: dict[str, Any], invitation_url: str | None = None
) -> CandidateRequestOut:
    candidate = json.loads(vault.decrypt(row["candidate_encrypted"]))
    snapshot = json.loads(row["package_snapshot"])
    return CandidateRequestOut(
        reference=row["reference"],
        live=row["environment"] == "live",
        state=row["status"],
        result=row["result"],
        package=snapshot,
        candidate=CandidateOut(
            first_name=candidate["first_name"],
            last_name=candidate["last_name"],
            email=candidate["email"],
            phone=candidate.get("phone"),
        ),
        invitation_url=invitation_url if row["status"] == "pending" else None,
        expires_at=row["expires_at"],
        submitted_at=row["submitted_at"],
        completed_at=row["completed_at"],
        price=row["price"],
        charged_amount=row["charged_amount"],
        currency=row["currency"],
        callback_url=row["callback_url"],
        created_at=row["created_at"],
    )


async def _check_callback(call: Call, url: str | None) -> None:
    """The webhooks' own URL rules: https with live keys, no credentials, a public host."""
    if url is None:
        return
    try:
        await check_url(
            url,
            live=call.principal.live,
            allow_private=call.runtime.settings.webhooks_allow_private,
        )
    except UrlRefused as refused:
        raise ApiError(
            400,
            "invalid_request",
            f"callback_url: {refused}.",
            details=[{"field": "callback_url", "problem": str(refused)}],
        ) from None


async def create(call: Call, body: CandidatesRequest) -> bytes:
    runtime, principal = call.runtime, call.principal
    await _check_callback(call, body.callback_url)
    snapshot = await _package_snapshot(call, body.package_id)
    if not snapshot["check_types"]:
        raise ApiError(400, "invalid_request", "package_id: the package has no available check.")
    price, _hours = package_price(runtime, snapshot["country"], snapshot["check_types"])
    price = price if principal.live else 0
    settings = runtime.settings
    now = clock.utcnow()
    expires_at = now + timedelta(days=settings.background_invitation_days)
    base, mailed = base_url(call), mail_base(call)
    callback_secret = new_secret() if body.callback_url else None
    made: list[tuple[dict[str, Any], list[dict[str, Any]], str]] = []
    for candidate in body.candidates:
        token, hashed = new_token(runtime.vault)
        request_id = new_id("bgr")
        reference = new_id("bgc")
        row = {
            "id": request_id,
            "reference": reference,
            "org_id": principal.org_id,
            "environment": principal.environment,
            "request_id": call.request_id,
            "package_id": snapshot["id"],
            "package_snapshot": json.dumps(snapshot),
            "status": "pending",
            "result": None,
            "candidate_encrypted": runtime.vault.encrypt(
                json.dumps(candidate.model_dump(exclude_none=True))
            ),
            "submission_encrypted": None,
            "sandbox_path": None if principal.live else sandbox_path(candidate.email),
            "token_hash": hashed,
            "invitation": 1,
            "expires_at": expires_at,
            "submitted_at": None,
            "completed_at": None,
            "callback_url": body.callback_url,
            "price": price,
            "charged_amount": 0,
            "currency": principal.currency,
            "hold_id": None,
            "created_at": now,
            "updated_at": now,
        }
        made.append((row, _check_rows(runtime, request_id, snapshot, principal.live), token))

    async def write(conn: AsyncConnection) -> None:
        hold_seconds = int(settings.background_hold_days * 86400)
        for row, checks, token in made:
            if price > 0:  # 402 here rolls every candidate back: nothing sent
                hold = await billing.reserve(conn, principal, price, row["reference"], hold_seconds)
                row["hold_id"] = hold.id
            created = await repository.insert_request(conn, row, checks)
            if body.callback_url and callback_secret:  # before the first event: it gets that too
                await add_callback(
                    conn,
                    runtime.vault,
                    org_id=principal.org_id,
                    environment=principal.environment,
                    url=body.callback_url,
                    secret=callback_secret,
                    resource_id=row["reference"],
                    event_types=list(CALLBACK_EVENTS),
                )
            await repository.append(conn, created, now, "invited", "pending", "invitation created")
            await lifecycle.announce(conn, created, "background_check.updated")
            await timers.schedule_invitation(conn, runtime, row, mailed_url(mailed, token))

    def render() -> bytes:
        requests = [
            request_out(runtime.vault, row, f"{base}/invitations/{token}")
            for row, _checks, token in made
        ]
        return rendered(
            CandidatesResult,
            call,
            None,
            reference=requests[0].reference,
            data=CandidatesCreated(requests=requests, callback_secret=callback_secret),
            outcome=Outcome.PENDING,
            message=INVITED,
        )

    return await finish_write(
        call, write, render, description="Background check invitations", status_code=201
    )


def answer(call: Call, model: type[E], request: CandidateRequestOut) -> E:
    """A request in the envelope (docs/api.md#background-checks)."""
    outcome = request_outcome(request.state)
    return enveloped(
        model,
        call,
        None,
        reference=request.reference,
        data=request,
        outcome=outcome,
        verdict=VERDICTS.get(request.result or "") if outcome is Outcome.COMPLETED else None,
        message=REQUEST_MESSAGES[request.state],
    )


def _not_found(reference: str) -> ApiError:
    return ApiError(404, "not_found", f"No candidate request {reference[:60]!r}.")


async def owned(runtime: Runtime, owner: Owner, reference: str) -> dict[str, Any]:
    environment, org_id = owner
    async with read(runtime.db) as conn:
        row = await repository.get_owned_request(conn, org_id, environment, reference)
    if row is None:
        raise _not_found(reference)
    return row


def check_out(vault: Vault, check: dict[str, Any], country: str) -> CheckOut:
    evidence = check["evidence_encrypted"]
    known = BY_COUNTRY[country].get(check["code"]) or ALL_CODES[check["code"]]
    return CheckOut(
        code=check["code"],
        name=known.name,
        kind=check["kind"],
        status=check["status"],
        result=check["result"],
        evidence=json.loads(vault.decrypt(evidence)) if evidence else None,
        due_at=check["due_at"],
        completed_at=check["completed_at"],
        recorded_by=vault.decrypt(who) if (who := check["recorded_by_encrypted"]) else None,
        charged=check["transaction_id"] is not None,
    )


async def detail(runtime: Runtime, owner: Owner, reference: str) -> CandidateRequestDetail:
    row = await owned(runtime, owner, reference)
    async with read(runtime.db) as conn:
        return await detail_of(conn, runtime.vault, row)


async def get(call: Call, reference: str) -> CandidateResult:
    """A request with its checks and timeline, in the envelope."""
    return answer(
        call, CandidateResult, await detail(call.runtime, call.principal.owner, reference)
    )


async def detail_of(
    conn: AsyncConnection, vault: Vault, row: dict[str, Any]
) -> CandidateRequestDetail:
    checks = await repository.checks_of(conn, row["id"])
    entries = await repository.timeline_of(conn, row["id"])
    return CandidateRequestDetail(
        **request_out(vault, row).model_dump(),
        checks=[
            check_out(vault, c, json.loads(row["package_snapshot"])["country"]) for c in checks
        ],
        timeline=[
            TimelineEntry(at=e["at"], event=e["event"], status=e["status"], detail=e["detail"])
            for e in entries
        ],
    )


async def listing(
    runtime: Runtime, owner: Owner, page: PageRequest, filters: dict[str, Any]
) -> CandidateRequestList:
    environment, org_id = owner
    async with read(runtime.db) as conn:
        total = await repository.count_requests(conn, org_id, environment, filters)
        rows = await repository.list_requests(
            conn, org_id, environment, filters, page.offset, page.page_size
        )
    return CandidateRequestList(
        data=[request_out(runtime.vault, r) for r in rows], pagination=page.describe(total)
    )


def _refused(row: dict[str, Any], what: str) -> ApiError:
    return ApiError(
        409,
        "conflict",
        f"The request {row['reference']} is {row['status']}: {what}.",
        details=[{"field": "status", "problem": row["status"]}],
    )


async def reinitiate(call: Call, reference: str) -> bytes:
    runtime, principal = call.runtime, call.principal
    found = await owned(runtime, principal.owner, reference)
    try:
        next_state(found["status"], "reinitiate")
    except RefusedTransition:
        raise _refused(found, "only a stalled or expired request can be reinitiated") from None
    token, hashed = new_token(runtime.vault)
    url = f"{base_url(call)}/invitations/{token}"
    mailed = mailed_url(mail_base(call), token)
    now = clock.utcnow()
    done: dict[str, Any] = {}

    async def write(conn: AsyncConnection) -> None:
        row = await repository.lock_request(conn, found["id"])
        assert row is not None
        try:
            next_state(row["status"], "reinitiate")
        except RefusedTransition:
            raise _refused(row, "only a stalled or expired request can be reinitiated") from None
        checks = await repository.checks_of(conn, row["id"])
        open_checks = [c for c in checks if c["status"] != "completed"]
        values: dict[str, Any] = {
            "token_hash": hashed,
            "invitation": int(row["invitation"]) + 1,
            "expires_at": now + timedelta(days=runtime.settings.background_invitation_days),
            "submitted_at": None,
        }
        still_owed = sum(int(c["price"]) for c in open_checks)
        if row["hold_id"] is None and still_owed > 0:  # the expiry released it: reserve again
            hold = await billing.reserve(
                conn,
                principal,
                still_owed,
                f"{row['reference']}:{values['invitation']}",
                int(runtime.settings.background_hold_days * 86400),
            )
            values["hold_id"] = hold.id
        for check in open_checks:
            await repository.update_check(
                conn, row, check["code"], {"status": "pending", "due_at": None}
            )
        moved = await lifecycle.transition(
            conn,
            row,
            "reinitiate",
            now,
            "a fresh invitation; the previous link no longer works",
            values,
        )
        assert moved is not None  # locked above
        await timers.schedule_invitation(conn, runtime, moved, mailed)
        done["row"] = moved

    def render() -> bytes:
        again = request_out(runtime.vault, done["row"], url)
        return answer(call, ReinitiatedResult, again).model_dump_json().encode()

    return await finish_write(call, write, render, description="Background check reinitiated")


async def record_result(call: Call, reference: str, code: str, body: CheckResultRequest) -> bytes:
    runtime, principal = call.runtime, call.principal
    found = await owned(runtime, principal.owner, reference)
    now = clock.utcnow()
    recorded: dict[str, Any] = {}

    async def write(conn: AsyncConnection) -> None:
        row = await repository.lock_request(conn, found["id"])
        assert row is not None
        check = next(
            (c for c in await repository.checks_of(conn, row["id"]) if c["code"] == code), None
        )
        if check is None:
            raise ApiError(404, "not_found", f"The request {reference} has no check {code[:40]!r}.")
        if check["kind"] != "manual":
            raise ApiError(
                409, "conflict", f"{code} is automated: Hakiki's engines record its result."
            )
        if check["status"] != "awaiting_analyst" or row["status"] not in ("in_progress", "stalled"):
            raise ApiError(
                409,
                "conflict",
                f"The check {code} is {check['status']} and the request {row['status']}: only "
                "a check awaiting an analyst, after the candidate submitted, takes a result.",
                details=[{"field": "status", "problem": row["status"]}],
            )
        await lifecycle.finish_check(
            conn,
            runtime.vault,
            row,
            check,
            result=body.result,
            evidence=dict(body.evidence),
            at=now,
            billable=True,
            recorded_by=principal.actor,
        )
        latest = await repository.get_request(conn, row["id"])
        assert latest is not None
        recorded["detail"] = await detail_of(conn, runtime.vault, latest)

    def render() -> bytes:
        return answer(call, CandidateResult, recorded["detail"]).model_dump_json().encode()

    return await finish_write(call, write, render, description=f"Background check {code} recorded")
