"""Organisations and keypairs: created by the operator (CLI) and by first start; the
organisation's wallet as its keys see it (/v3/account/wallet)."""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy.exc import IntegrityError

from hakiki.account import repository
from hakiki.account.schemas import Wallet, WalletTransaction, WalletTransactionList
from hakiki.core.auth import new_credentials
from hakiki.core.crypto import hash_secret
from hakiki.core.database import Database, read, transaction
from hakiki.core.errors import ApiError
from hakiki.core.ids import new_id
from hakiki.core.pagination import PageRequest
from hakiki.core.scopes import ALL_SCOPES, DEFAULT_SCOPES, ENVIRONMENTS
from hakiki.core.wallet import repository as wallet_repository
from hakiki.core.wallet.service import wallet_summary


@dataclass(frozen=True)
class Organisation:
    id: str
    name: str
    approved: bool
    currency: str


@dataclass(frozen=True)
class IssuedKey:
    client_id: str
    secret: str  # shown once, never stored
    environment: str
    scopes: list[str]
    org_name: str


def _org(row: dict[str, object]) -> Organisation:
    return Organisation(
        id=str(row["id"]),
        name=str(row["name"]),
        approved=bool(row["approved"]),
        currency=str(row["currency"]),
    )


async def create_org(
    db: Database, name: str, *, approved: bool = False, currency: str = "KES"
) -> Organisation:
    name = name.strip()
    if not name:
        raise ApiError(400, "invalid_request", "The organisation needs a name.")
    if len(currency) != 3 or not currency.isalpha():
        raise ApiError(400, "invalid_request", "currency must be an ISO 4217 code such as KES.")
    org = Organisation(new_id("org"), name, approved, currency.upper())
    try:
        async with transaction(db) as conn:
            await repository.insert_org(conn, org.id, org.name, org.approved, org.currency)
    except IntegrityError as exc:
        raise ApiError(409, "conflict", f"An organisation named {name!r} exists.") from exc
    return org


async def get_org(db: Database, name: str) -> Organisation:
    async with transaction(db) as conn:
        row = await repository.find_org_by_name(conn, name)
    if row is None:
        raise ApiError(404, "not_found", f"No organisation named {name!r}.")
    return _org(row)


async def approve_org(db: Database, name: str) -> Organisation:
    async with transaction(db) as conn:
        row = await repository.find_org_by_name(conn, name)
        if row is None:
            raise ApiError(404, "not_found", f"No organisation named {name!r}.")
        await repository.approve_org(conn, str(row["id"]))
    return Organisation(str(row["id"]), str(row["name"]), True, str(row["currency"]))


async def create_key(
    db: Database, org_name: str, environment: str, scopes: list[str] | None = None
) -> IssuedKey:
    if environment not in ENVIRONMENTS:
        raise ApiError(400, "invalid_request", "environment must be sandbox or live.")
    chosen = list(scopes) if scopes else list(DEFAULT_SCOPES)
    unknown = sorted(set(chosen) - set(ALL_SCOPES))
    if unknown:
        raise ApiError(
            400,
            "invalid_request",
            f"Unknown scope(s) {', '.join(unknown)}; known: {', '.join(ALL_SCOPES)}.",
        )
    client_id, secret = new_credentials(environment)
    async with transaction(db) as conn:
        org = await repository.find_org_by_name(conn, org_name)
        if org is None:
            raise ApiError(404, "not_found", f"No organisation named {org_name!r}.")
        await repository.insert_key(
            conn, new_id("key"), str(org["id"]), client_id, hash_secret(secret), environment, chosen
        )
    return IssuedKey(client_id, secret, environment, chosen, org_name)


async def revoke_key(db: Database, client_id: str) -> None:
    async with transaction(db) as conn:
        if not await repository.revoke_key(conn, client_id):
            raise ApiError(404, "not_found", f"No active key {client_id!r}.")


async def has_any_org(db: Database) -> bool:
    async with transaction(db) as conn:
        return await repository.count_orgs(conn) > 0


async def get_wallet(db: Database, org_id: str) -> Wallet:
    async with read(db) as conn:
        return Wallet(**await wallet_summary(conn, org_id))


async def list_transactions(db: Database, org_id: str, page: PageRequest) -> WalletTransactionList:
    async with read(db) as conn:
        total = await wallet_repository.count_transactions(conn, org_id)
        rows = await wallet_repository.list_transactions(
            conn, org_id, offset=page.offset, limit=page.page_size
        )
    return WalletTransactionList(
        data=[WalletTransaction(**row) for row in rows], pagination=page.describe(total)
    )
