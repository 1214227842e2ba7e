"""Response models of the account endpoints."""

from __future__ import annotations

from datetime import datetime

from pydantic import BaseModel, Field

from hakiki.core.pagination import Pagination


class Wallet(BaseModel):
    currency: str
    balance: int = Field(description="Settled balance in minor units.")
    reserved: int = Field(description="Held for live calls in flight.")
    available: int = Field(description="balance - reserved: what new calls can spend.")
    updated_at: datetime


class WalletTransaction(BaseModel):
    id: str
    kind: str = Field(description="credit, debit or reversal.")
    amount: int = Field(description="Signed, in minor units: debits are negative.")
    balance_after: int
    currency: str
    endpoint: str | None
    request_id: str | None
    description: str
    created_at: datetime


class WalletTransactionList(BaseModel):
    data: list[WalletTransaction]
    pagination: Pagination
