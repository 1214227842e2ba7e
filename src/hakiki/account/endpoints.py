"""The account surface's wallet entries in the endpoint catalogue (docs/api.md)."""

from __future__ import annotations

from hakiki.core.endpoints import Endpoint, declare

WALLET = declare(
    Endpoint(
        key="account.wallet",
        method="GET",
        path="/v3/account/wallet",
        scope=None,
        summary="The organisation's wallet balance",
    )
)
TRANSACTIONS = declare(
    Endpoint(
        key="account.transactions",
        method="GET",
        path="/v3/account/wallet/transactions",
        scope=None,
        summary="The wallet's ledger, newest first",
        errors=(400,),
    )
)
