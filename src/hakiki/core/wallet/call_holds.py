"""Live calls' holds, kept in this process's memory (docs/decisions.md#wallet).

A live call reserves its price before its upstream work so that a wallet that cannot pay is
refused (402) before anything is spent. Reserving in the database cost a write transaction per
call outside the group commit, and calls serialised on it. Here a hold is an entry in a
per-organisation ledger: the wallet's available balance as last seen in the database, minus the
holds of this process's calls not yet settled. The database stays the judge: the settlement
debits only when ``balance - reserved`` covers the price (``wallet.charge_many``, with the
wallet's row locked), so several processes charging one wallet, each with its own ledger, can
never overdraw it; a call admitted on a stale view is refused there with 402.

The view is refreshed from every settlement transaction (which has the wallet row locked, so it
includes other processes' debits), re-read before a refusal (a top-up is seen at once) and
re-read when older than ``max_age`` seconds. A process that dies loses its holds with it:
nothing to expire.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from hakiki.core.database import Database, read
from hakiki.core.ids import new_id
from hakiki.core.wallet import repository
from hakiki.core.wallet.service import Hold, insufficient_funds


@dataclass
class _Wallet:
    available: int = 0  # balance - reserved, as last seen in the database
    seen_at: float = float("-inf")  # monotonic time of that view
    version: int = 0  # bumped by each settlement, so a read that raced one is dropped
    held: int = 0  # this process's unsettled call holds
    loading: asyncio.Future[None] | None = None


class CallHolds:
    def __init__(self, db: Database, max_age: float = 1.0) -> None:
        self._db = db
        self._max_age = max_age
        self._wallets: dict[str, _Wallet] = {}
        self._holds: dict[str, Hold] = {}

    async def hold(self, org_id: str, amount: int, currency: str) -> Hold:
        """Reserve ``amount``; 402 when the available balance less this process's holds is
        short, checked against a fresh read before refusing."""
        wallet = self._wallets.setdefault(org_id, _Wallet())
        if time.monotonic() - wallet.seen_at > self._max_age:
            await self._refresh(org_id, wallet)
        if wallet.available - wallet.held < amount:
            await self._refresh(org_id, wallet)
            if wallet.available - wallet.held < amount:
                raise insufficient_funds(amount, currency)
        wallet.held += amount
        hold = Hold(new_id("hold"), org_id, amount, currency, in_memory=True)
        self._holds[hold.id] = hold
        return hold

    def release(self, hold: Hold) -> None:
        """Give a hold back (at most once)."""
        if self._holds.pop(hold.id, None) is not None:
            self._wallets[hold.org_id].held -= hold.amount

    def settled(self, holds: Iterable[Hold], available: Mapping[str, int]) -> None:
        """A settlement committed: its calls' holds end and the wallets it locked are known,
        in one step, so no moment counts a call's price twice."""
        for hold in holds:
            self.release(hold)
        now = time.monotonic()
        for org_id, amount in available.items():
            wallet = self._wallets.get(org_id)
            if wallet is not None:
                wallet.available, wallet.seen_at = amount, now
                wallet.version += 1

    def held(self, org_id: str) -> int:
        wallet = self._wallets.get(org_id)
        return wallet.held if wallet else 0

    async def _refresh(self, org_id: str, wallet: _Wallet) -> None:
        """Read the wallet once for all callers waiting on it (single flight)."""
        if wallet.loading is not None:
            await asyncio.shield(wallet.loading)
            return
        wallet.loading = asyncio.get_running_loop().create_future()
        try:
            version = wallet.version
            async with read(self._db) as conn:
                row = await repository.get_wallet(conn, org_id)
            if wallet.version == version:  # else a settlement meanwhile saw a newer state
                available = int(row["balance"]) - int(row["reserved"]) if row else 0
                wallet.available, wallet.seen_at = available, time.monotonic()
        finally:
            wallet.loading.set_result(None)
            wallet.loading = None
