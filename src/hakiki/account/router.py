"""HTTP handlers of the account surface (/v3/account/...)."""

from __future__ import annotations

from fastapi import APIRouter, Depends, Request

from hakiki.account import service
from hakiki.account.schemas import Wallet, WalletTransactionList
from hakiki.core.auth import AnyKey
from hakiki.core.calls import runtime_of
from hakiki.core.openapi import error_responses
from hakiki.core.pagination import PageRequest, page_params

router = APIRouter(prefix="/v3/account", tags=["Account"])


@router.get(
    "/wallet",
    response_model=Wallet,
    summary="The organisation's wallet balance",
    responses=error_responses(401, 500),
)
async def get_wallet(request: Request, principal: AnyKey) -> Wallet:
    return await service.get_wallet(runtime_of(request).db, principal.org_id)


@router.get(
    "/wallet/transactions",
    response_model=WalletTransactionList,
    summary="The wallet's ledger, newest first",
    responses=error_responses(400, 401, 500),
)
async def list_transactions(
    request: Request,
    principal: AnyKey,
    page: PageRequest = Depends(page_params),
) -> WalletTransactionList:
    return await service.list_transactions(runtime_of(request).db, principal.org_id, page)
