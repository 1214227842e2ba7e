"""The status call of a registry check category: the check a reference names, as it stands,
in the envelope its call answered (decrypted), with this call's request_id."""

from __future__ import annotations

import json
from typing import Any, TypeVar

from pydantic import BaseModel

from hakiki.core import billing
from hakiki.core.auth import Principal
from hakiki.core.database import read
from hakiki.core.envelope import Outcome, envelope_fields
from hakiki.core.errors import ApiError
from hakiki.core.registry_checks import repository
from hakiki.core.registry_checks.kinds import CheckKind
from hakiki.core.registry_checks.schemas import CheckBilling
from hakiki.core.runtime import Runtime

M = TypeVar("M", bound=BaseModel)


async def stored_result(
    runtime: Runtime,
    principal: Principal,
    request_id: str,
    kind: CheckKind[Any],
    reference: str,
    model: type[M],
) -> M:
    """The caller's organisation and environment's check of ``kind`` named ``reference``;
    404 for any other (unknown, another organisation's or environment's, another category's)."""
    async with read(runtime.db) as conn:
        row = await repository.find(
            conn, principal.org_id, principal.environment, kind.category, reference
        )
        if row is None:
            raise ApiError(
                404,
                "not_found",
                f"No {kind.noun} with this reference for this organisation and environment.",
            )
        charge = await billing.charge_of(conn, row["org_id"], row["request_id"])
        reversal = await billing.refund_of(conn, charge)
    return model.model_validate(
        {
            "request_id": request_id,
            "live": row["environment"] == "live",
            "reference": row["reference"],
            "provider": row["provider"],
            "billing": CheckBilling.of(
                charge, principal.currency, reversal_transaction_id=reversal
            ).model_dump(),
            "data": json.loads(runtime.vault.decrypt(row["data_encrypted"])),
            **envelope_fields(Outcome(row["outcome"])),
            "message": row["message"],
        }
    )
