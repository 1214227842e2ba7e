"""The life of one API call that does work: idempotency, wallet hold, request record.

call = await begin_call(request, principal, "screening.aml_with_id", payload)
if isinstance(call, Replay): return the stored response
async with guarded(call):          # releases the hold and the key claim on any error
    await hold_price(call)         # 402 before any upstream work (live only)
    ... do the work ...
    body = await finish_call(call, ...)   # one transaction: debit, log row, stored response
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from fastapi import Request
from fastapi.responses import Response
from sqlalchemy.ext.asyncio import AsyncConnection

from hakiki.core import billing, request_body
from hakiki.core.auth import Principal
from hakiki.core.endpoints import CATALOGUE
from hakiki.core.idempotency import service as idempotency
from hakiki.core.privacy.consent import ConsentRecord, answer_reference, with_id
from hakiki.core.request_log.service import log_row, redact
from hakiki.core.runtime import Runtime
from hakiki.core.settlement import Settlement
from hakiki.core.wallet.service import Charge, Hold


@dataclass
class Call:
    runtime: Runtime
    request: Request
    principal: Principal
    endpoint: str
    payload: dict[str, Any]
    claim: idempotency.Claim | None = None
    hold: Hold | None = None
    settling: asyncio.Future[bytes] | None = None  # its settlement, once submitted
    consent: ConsentRecord | None = None  # stored with the call's own writes when it settles

    @property
    def request_id(self) -> str:
        return str(self.request.scope["state"]["request_id"])

    @property
    def path(self) -> str:
        return str(self.request.scope["path"])


@dataclass(frozen=True)
class Subject:
    """The identity number a call is about, for the encrypted look-up columns of its log row."""

    country: str
    channel: str
    number: str


def runtime_of(request: Request) -> Runtime:
    runtime: Runtime = request.app.state.runtime
    return runtime


async def begin_call(
    request: Request, principal: Principal, endpoint: str, payload: dict[str, Any]
) -> Call | idempotency.Replay:
    runtime = runtime_of(request)
    call = Call(runtime, request, principal, endpoint, payload)
    key = request_body.header(request.scope, b"idempotency-key")
    if key is not None:
        fingerprint = idempotency.request_fingerprint(request.method, call.path, payload)
        claimed = await idempotency.claim(
            runtime.db,
            runtime.vault,
            principal.org_id,
            principal.environment,
            key,
            fingerprint,
            runtime.settings.idempotency_ttl_hours,
        )
        if isinstance(claimed, idempotency.Replay):
            return claimed
        call.claim = claimed
    return call


def replay_response(replay: idempotency.Replay) -> Response:
    return Response(
        replay.body,
        status_code=replay.status_code,
        media_type="application/json",
        headers={"Idempotent-Replayed": "true"},
    )


class guarded:
    """Releases the call's hold and idempotency claim when its block raises, unless its
    settlement committed. A class rather than an ``asynccontextmanager``: every call that does
    work enters it, and a generator-based one costs several times more."""

    def __init__(self, call: Call) -> None:
        self.call = call

    async def __aenter__(self) -> Call:
        return self.call

    async def __aexit__(self, kind: type[BaseException] | None, *_exc: object) -> None:
        call = self.call
        if kind is None:
            return
        if call.settling is not None and await _settled(call.settling):
            return  # committed: the charge and the stored response stand
        if call.hold is not None:
            billing.release_call_hold(call.runtime.settlements.holds, call.hold)
        if call.claim is not None:
            await idempotency.abandon(call.runtime.db, call.claim)


async def _settled(settling: asyncio.Future[bytes]) -> bool:
    """Whether a submitted settlement committed (waiting for it if the caller was cancelled)."""
    try:
        await asyncio.shield(settling)
    except BaseException:
        return False
    return True


async def hold_price(call: Call) -> None:
    """Reserve the call's price (live keys only); 402 when the wallet cannot cover it."""
    call.hold = await billing.hold_for_call(
        call.runtime.settlements.holds, call.principal, call.runtime.price(call.endpoint)
    )


def _log_row(
    call: Call,
    status_code: int,
    response_code: str | None,
    subject: Subject | None,
    charge: Charge | None,
) -> dict[str, Any]:
    vault = call.runtime.vault
    fields: dict[str, Any] = {
        "response_code": response_code,
        "request_body": redact(call.payload, _logged_fields(call.endpoint)),
        "transaction_id": charge.transaction_id if charge else None,
    }
    if subject:
        fields["channel"] = f"{subject.country}:{subject.channel}"
        fields["subject_hash"] = vault.lookup_hash(subject.country, subject.channel, subject.number)
        fields["subject_encrypted"] = vault.encrypt(subject.number)
    return log_row(
        call.request_id,
        call.principal,
        call.request.method,
        call.path,
        status_code,
        float(call.request.scope["state"]["started"]),
        **fields,
    )


def _logged_fields(key: str) -> tuple[str, ...]:
    """The endpoint's request-log allow-list (none for a key the catalogue does not know)."""
    endpoint = CATALOGUE.get(key)
    return endpoint.logged_fields if endpoint is not None else ()


async def finish_call(
    call: Call,
    *,
    billable: bool,
    response_code: str | None,
    subject: Subject | None,
    render: Callable[[Charge | None], bytes],
    description: str,
    status_code: int = 200,
    write: Callable[[AsyncConnection], Awaitable[None]] | None = None,
    price: int | None = None,
) -> bytes:
    """Charge the call (settle its hold, or debit at once when it has none), run the call's own
    ``write``, write the request record and store the idempotent response, all in one
    transaction (grouped with other calls' by the settlement writer); return the body. A live
    billable call is charged exactly once; sandbox calls never are. ``price``: what to charge
    when not the endpoint's price (a call that did only part of its work,
    ``billing.part_price``); its hold, if any, is released whole."""
    call.request.scope["state"]["logged"] = True
    runtime = call.runtime
    charge = billing.call_charge(
        call.principal,
        key=call.endpoint,
        price=runtime.price(call.endpoint) if price is None else price,
        hold=call.hold,
        billable=billable,
        request_id=call.request_id,
        description=description,
    )

    def row(charge: Charge | None) -> dict[str, Any]:
        return _log_row(call, status_code, response_code, subject, charge)

    consent_row = None
    if call.consent is not None:
        render, consent_row = _with_consent(call, call.consent, render, subject)
    if charge is None and call.claim is None and write is None and consent_row is None:
        body = render(None)
        runtime.request_log.add(row(None))
        if call.hold is not None:
            billing.release_call_hold(runtime.settlements.holds, call.hold)
            call.hold = None
        return body
    call.settling = runtime.settlements.submit(
        Settlement(
            charge, render, row, call.claim, status_code, write, call.hold, consent_row=consent_row
        )
    )
    body = await call.settling
    call.hold = None
    call.claim = None
    return body


def _with_consent(
    call: Call,
    consent: ConsentRecord,
    render: Callable[[Charge | None], bytes],
    subject: Subject | None,
) -> tuple[Callable[[Charge | None], bytes], Callable[[bytes], dict[str, Any]]]:
    """The call's answer with its ``consent_id``, and the consent's row (encrypted, linked to
    the request and to the resource the answer names), written in the call's transaction."""
    vault = call.runtime.vault
    identifier = (
        vault.lookup_hash(subject.country, subject.channel, subject.number) if subject else None
    )

    def answered(charge: Charge | None) -> bytes:
        return with_id(render(charge), consent.id)

    def consent_row(body: bytes) -> dict[str, Any]:
        return consent.row(
            vault,
            org_id=call.principal.org_id,
            environment=call.principal.environment,
            request_id=call.request_id,
            endpoint=call.endpoint,
            reference=answer_reference(body),
            identifier_hash=identifier,
        )

    return answered, consent_row


async def finish_write(
    call: Call,
    write: Callable[[AsyncConnection], Awaitable[None]],
    render: Callable[[], bytes],
    *,
    description: str,
    status_code: int = 200,
) -> bytes:
    """Finish a free call that writes rows of its own (a review, a webhook endpoint): its
    rows, the request record and the stored idempotent response in one transaction. ``render``
    runs after ``write``, so it can answer with what the write found."""
    return await finish_call(
        call,
        billable=False,
        response_code=None,
        subject=None,
        render=lambda _charge: render(),
        description=description,
        status_code=status_code,
        write=write,
    )
