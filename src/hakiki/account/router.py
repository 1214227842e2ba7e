"""HTTP handlers of the account surface (/v3/account/...)."""

from __future__ import annotations

from fastapi import APIRouter, Depends, Request

from hakiki.account.schemas import Wallet, WalletTransaction, WalletTransactionList
from hakiki.core.auth import Principal, any_key
from hakiki.core.database import read
from hakiki.core.openapi import error_responses
from hakiki.core.pagination import PageRequest, page_params
from hakiki.core.wallet import repository as wallet_repository
from hakiki.core.wallet.service import wallet_summary

router = APIRouter(prefix="/v3/account", tags=["Account"])


@router.get(
    "/wallet",
    response_model=Wallet,
    summary="The organisation's wallet balance",
    responses=error_responses(401, 500),
)
async def get_wallet(request: Request, principal: Principal = Depends(any_key)) -> Wallet:
    async with read(request.app.state.runtime.db) as conn:
        return Wallet(**await wallet_summary(conn, principal.org_id))


@router.get(
    "/wallet/transactions",
    response_model=WalletTransactionList,
    summary="The wallet's ledger, newest first",
    responses=error_responses(400, 401, 500),
)
async def list_transactions(
    request: Request,
    principal: Principal = Depends(any_key),
    page: PageRequest = Depends(page_params),
) -> WalletTransactionList:
    async with read(request.app.state.runtime.db) as conn:
        total = await wallet_repository.count_transactions(conn, principal.org_id)
        rows = await wallet_repository.list_transactions(
            conn, principal.org_id, offset=page.offset, limit=page.page_size
        )
    return WalletTransactionList(
        data=[WalletTransaction(**row) for row in rows], pagination=page.describe(total)
    )
