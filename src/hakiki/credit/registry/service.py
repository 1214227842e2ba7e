"""The credit model registry: upload a loan book (checked whole first, then trained by a job),
list and read models with their cards, activate one per environment (only one whose data was
enough), roll back to the one before, and the model a decision of an environment uses."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Any

import orjson
from sqlalchemy.ext.asyncio import AsyncConnection

from hakiki.core.calls import Call, finish_call, finish_write
from hakiki.core.clock import utcnow
from hakiki.core.crypto import Vault
from hakiki.core.database import Database, read
from hakiki.core.errors import ApiError
from hakiki.core.ids import new_id
from hakiki.core.jobs.queue import enqueue
from hakiki.core.pagination import PageRequest
from hakiki.credit.registry import loan_file, repository
from hakiki.credit.registry.schemas import ActiveModel, CreditModel, CreditModelList
from hakiki.credit.registry.tasks import TRAIN_TASK
from hakiki.credit.registry.training import seal_book
from hakiki.engines.credit.loan_book import LoanBookError
from hakiki.engines.credit.scorecard import Scorecard

Owner = tuple[str, str]  # (organisation id, environment)


@dataclass(frozen=True)
class InUse:
    """The model a decision uses: the organisation's active one, or the demo's (id None)."""

    model_id: str | None
    scorecard: Scorecard


_LOADED: dict[str, Scorecard] = {}  # trained models never change: parsed once per process


def scorecard_of(model_id: str, document: str) -> Scorecard:
    found = _LOADED.get(model_id)
    if found is None:
        if len(_LOADED) > 256:
            _LOADED.clear()
        found = _LOADED[model_id] = Scorecard.from_dict(orjson.loads(document))
    return found


def active_of(history: list[tuple[str, str | None]]) -> list[str | None]:
    """The activation stack that ``history`` (action, model id; oldest first) leaves: an
    activation pushes its model, a rollback pops back to the one before."""
    stack: list[str | None] = []
    for action, model_id in history:
        if action == "activate":
            stack.append(model_id)
        elif stack:
            stack.pop()
    return stack


async def _history(conn: AsyncConnection, owner: Owner) -> list[tuple[str, str | None]]:
    org_id, environment = owner
    rows = await repository.activations(conn, org_id, environment, limit=100_000)
    return [(r["action"], r["model_id"]) for r in reversed(rows)]


async def active_model_id(conn: AsyncConnection, owner: Owner) -> str | None:
    stack = active_of(await _history(conn, owner))
    return stack[-1] if stack else None


async def model_in_use(db: Database, owner: Owner, demo: Scorecard) -> InUse:
    async with read(db) as conn:
        model_id = await active_model_id(conn, owner)
        if model_id is None:
            return InUse(None, demo)
        model = await repository.get_model(conn, model_id)
    assert model is not None and model["document"] is not None
    return InUse(model_id, scorecard_of(model_id, model["document"]))


async def stored_scorecard(db: Database, model_id: str) -> Scorecard | None:
    async with read(db) as conn:
        model = await repository.get_model(conn, model_id)
    if model is None or model["document"] is None:
        return None
    return scorecard_of(model_id, model["document"])


def model_out(row: dict[str, Any], active_id: str | None, card: bool) -> CreditModel:
    document = orjson.loads(row["document"]) if card and row.get("document") else None
    return CreditModel(
        model_id=row["id"],
        version=row["version"],
        live=row["environment"] == "live",
        status=row["status"],
        stage=row["stage"],
        progress=row["progress"],
        active=row["id"] == active_id,
        activatable=row["activatable"],
        refusal_reason=row["refusal_reason"],
        failure_reason=row["failure_reason"],
        file_name=row["file_name"],
        rows=row["rows"],
        window_days=row["window_days"],
        created_at=row["created_at"],
        trained_at=row["trained_at"],
        card=document["card"] if document else None,
    )


def _checked(data: bytes) -> int:
    return len(loan_file.read(data).loan_ids)


async def new_model(
    conn: AsyncConnection,
    vault: Vault,
    owner: Owner,
    data: bytes,
    rows: int,
    file_name: str,
    window_days: int,
    request_id: str,
) -> dict[str, Any]:
    """Store a checked loan book as a pending model of ``owner`` (version ``lender-N``)."""
    org_id, environment = owner
    number = await repository.count_models(conn, org_id, environment) + 1
    now = utcnow()
    row = {
        "id": new_id("cmo"),
        "org_id": org_id,
        "environment": environment,
        "version": f"lender-{number}",
        "status": "pending",
        "stage": "queued",
        "progress": 0,
        "file_name": file_name[:255] or "loans.csv",
        "rows": rows,
        "window_days": window_days,
        "book_encrypted": await asyncio.to_thread(seal_book, vault, data),
        "document": None,
        "activatable": None,
        "refusal_reason": None,
        "failure_reason": None,
        "request_id": request_id,
        "created_at": now,
        "trained_at": None,
        "updated_at": now,
    }
    await repository.insert_model(conn, row)
    return row


async def check_book(data: bytes) -> int:
    """The number of loans of a valid book; 400 naming each problem's row and column."""
    try:
        return await asyncio.to_thread(_checked, data)
    except LoanBookError as error:
        raise loan_file.as_api_error(error) from error


async def upload(call: Call, data: bytes, file_name: str, window_days: int) -> bytes:
    runtime, principal = call.runtime, call.principal
    rows = await check_book(data)
    record: dict[str, Any] = {}

    async def write(conn: AsyncConnection) -> None:
        record.update(
            await new_model(
                conn,
                runtime.vault,
                (principal.org_id, principal.environment),
                data,
                rows,
                file_name,
                window_days,
                call.request_id,
            )
        )
        payload = {
            "model_id": record["id"],
            "org_id": principal.org_id,
            "environment": principal.environment,
        }
        await enqueue(conn, TRAIN_TASK, payload)

    def render(_charge: object) -> bytes:
        return model_out(record, None, card=False).model_dump_json().encode()

    return await finish_call(
        call,
        billable=False,
        response_code=None,
        subject=None,
        render=render,
        description="Credit model training upload",
        status_code=202,
        write=write,
    )


def _not_found(model_id: str) -> ApiError:
    return ApiError(
        404,
        "not_found",
        f"No credit model {model_id} in this environment.",
        details=[{"field": "model_id", "problem": "unknown model"}],
    )


async def get_model(db: Database, owner: Owner, model_id: str) -> CreditModel:
    async with read(db) as conn:
        found = await repository.get_owned(conn, owner[0], owner[1], model_id)
        if found is None:
            raise _not_found(model_id)
        active = await active_model_id(conn, owner)
    return model_out(found, active, card=True)


async def list_models(
    db: Database, owner: Owner, page: PageRequest, demo_version: str, status: str | None = None
) -> CreditModelList:
    org_id, environment = owner
    async with read(db) as conn:
        total = await repository.count_models(conn, org_id, environment, status)
        rows = await repository.list_owned(
            conn, org_id, environment, status, offset=page.offset, limit=page.page_size
        )
        active = await active_model_id(conn, owner)
        version = demo_version
        if active is not None:
            found = await repository.get_model(conn, active)
            version = found["version"] if found else demo_version
    return CreditModelList(
        data=[model_out(r, active, card=True) for r in rows],
        active_version=version,
        pagination=page.describe(total),
    )


def _conflict(message: str, problem: str) -> ApiError:
    return ApiError(409, "conflict", message, details=[{"field": "model_id", "problem": problem}])


async def _version(conn: AsyncConnection, model_id: str | None, demo_version: str) -> str:
    if model_id is None:
        return demo_version
    found = await repository.get_model(conn, model_id)
    return found["version"] if found else demo_version


async def activate_in(
    conn: AsyncConnection, owner: Owner, model_id: str, request_id: str, demo_version: str
) -> ActiveModel:
    """Make ``model_id`` the environment's active model, in the caller's transaction: 404 if it
    is not the owner's, 409 while it is not trained or when its data was too little (with the
    card's reason)."""
    org_id, environment = owner
    found = await repository.get_owned(conn, org_id, environment, model_id)
    if found is None:
        raise _not_found(model_id)
    if found["status"] != "trained":
        raise _conflict(
            f"Model {model_id} is {found['status']}, not trained: it cannot be activated.",
            f"model {found['status']}",
        )
    if not found["activatable"]:
        raise _conflict(
            f"Model {model_id} cannot be activated. {found['refusal_reason']}", "too little data"
        )
    previous = await active_model_id(conn, owner)
    await repository.add_activation(
        conn,
        {
            "org_id": org_id,
            "environment": environment,
            "model_id": model_id,
            "action": "activate",
            "request_id": request_id,
            "created_at": utcnow(),
        },
    )
    before = await _version(conn, previous, demo_version)
    return ActiveModel(
        model_id=model_id, version=found["version"], demo=False, previous_version=before
    )


async def rollback_in(
    conn: AsyncConnection, owner: Owner, model_id: str, request_id: str, demo_version: str
) -> ActiveModel:
    """Roll ``model_id``, the active model, back to the model active before it (the demo model
    at the bottom): 404 when it is not the owner's, 409 when it is not the active one (another
    change came first, or the demo model is active)."""
    org_id, environment = owner
    if await repository.get_owned(conn, org_id, environment, model_id) is None:
        raise _not_found(model_id)
    stack = active_of(await _history(conn, owner))
    if not stack or stack[-1] != model_id:
        active = await _version(conn, stack[-1] if stack else None, demo_version)
        raise _conflict(
            f"Model {model_id} is not the active model ({active} is): nothing to roll back.",
            "not the active model",
        )
    back_to = stack[-2] if len(stack) > 1 else None
    await repository.add_activation(
        conn,
        {
            "org_id": org_id,
            "environment": environment,
            "model_id": back_to,
            "action": "rollback",
            "request_id": request_id,
            "created_at": utcnow(),
        },
    )
    return ActiveModel(
        model_id=back_to,
        version=await _version(conn, back_to, demo_version),
        demo=back_to is None,
        previous_version=await _version(conn, stack[-1], demo_version),
    )


async def change(call: Call, demo_version: str, model_id: str, *, rollback: bool) -> bytes:
    """Activate ``model_id``, or roll it back: the change, the request record and the stored
    idempotent answer in one transaction."""
    principal = call.principal
    owner = (principal.org_id, principal.environment)
    answer: list[ActiveModel] = []

    async def write(conn: AsyncConnection) -> None:
        if rollback:
            answer.append(await rollback_in(conn, owner, model_id, call.request_id, demo_version))
        else:
            answer.append(await activate_in(conn, owner, model_id, call.request_id, demo_version))

    return await finish_write(
        call,
        write,
        lambda: answer[0].model_dump_json().encode(),
        description="Credit model rolled back" if rollback else "Credit model activated",
    )
