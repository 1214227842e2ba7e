"""HTTP handlers of the account surface's wallet (/v3/account/wallet)."""

from __future__ import annotations

from fastapi import Depends

from hakiki.account import service
from hakiki.account.endpoints import TRANSACTIONS, WALLET
from hakiki.account.schemas import Wallet, WalletTransactionList
from hakiki.core.calls import Call
from hakiki.core.pagination import PageRequest, page_params
from hakiki.core.routing import EndpointRouter

router = EndpointRouter(tags=["Account"])


@router.endpoint(WALLET, response_model=Wallet)
async def get_wallet(call: Call) -> Wallet:
    return await service.get_wallet(call.runtime.db, call.principal.org_id)


@router.endpoint(TRANSACTIONS, response_model=WalletTransactionList)
async def list_transactions(
    call: Call, page: PageRequest = Depends(page_params)
) -> WalletTransactionList:
    return await service.list_transactions(call.runtime.db, call.principal.org_id, page)
