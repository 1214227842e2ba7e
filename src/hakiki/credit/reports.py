"""Stored bureau reports read back by reference: what a credit decision, a 360 evaluation or a
background check names instead of pulling the bureau again."""

from __future__ import annotations

from hakiki.core.auth import Principal
from hakiki.core.crypto import Vault
from hakiki.core.database import Database, read
from hakiki.credit import repository
from hakiki.credit.schemas import CreditReport


async def stored_report(
    db: Database, vault: Vault, principal: Principal, reference: str
) -> CreditReport | None:
    """The report ``reference`` names, if the caller's organisation pulled it in this
    environment; None otherwise (another organisation's reference is as unknown as none)."""
    async with read(db) as conn:
        sealed = await repository.find_report(
            conn, principal.org_id, principal.environment, reference
        )
    if sealed is None:
        return None
    return CreditReport.model_validate_json(vault.decrypt(sealed))
