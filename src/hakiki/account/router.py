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
    """The organisation's wallet, in minor units of its `currency`: `balance` (settled),
    `reserved` (held for live calls and bulk scans in flight) and `available` (balance minus
    reserved: what new live calls can spend; below a call's price, that call is a 402). Any
    key of the organisation; free. Sandbox keys read the same wallet, and sandbox calls never
    change it."""
    return await service.get_wallet(call.runtime.db, call.principal.org_id)


@router.endpoint(TRANSACTIONS, response_model=WalletTransactionList)
async def list_transactions(
    call: Call, page: PageRequest = Depends(page_params)
) -> WalletTransactionList:
    """The wallet's ledger, newest first, paginated: credits (top-ups), one debit per billable
    live call (signed negative, with the `endpoint` price key and the call's `request_id`; a
    bulk scan row's is `<bulk_id>:<row>`) and reversals (a refunded charge). Append-only: the
    balance is the sum of the amounts. Any key of the organisation; free. Sandbox calls are
    never charged, so never listed."""
    return await service.list_transactions(call.runtime.db, call.principal.org_id, page)
