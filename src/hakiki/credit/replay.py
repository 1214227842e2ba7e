"""Stored decisions: each with the model that made it and the applicant's inputs as the model
saw them (after the bureau report and statement analysis were read), encrypted, so the same
model replays the same score (credit.decision.replay)."""

from __future__ import annotations

import dataclasses
from typing import Any

import orjson
from sqlalchemy.ext.asyncio import AsyncConnection

from hakiki.core.auth import Principal
from hakiki.core.clock import utcnow
from hakiki.core.crypto import Vault
from hakiki.credit.registry import repository
from hakiki.engines.credit.features import Applicant, BureauFacts


def applicant_inputs(applicant: Applicant) -> dict[str, Any]:
    return dataclasses.asdict(applicant)


def applicant_of(inputs: dict[str, Any]) -> Applicant:
    bureau = inputs.get("bureau")
    facts = None
    if bureau is not None:
        facts = BureauFacts(**{**bureau, "other_lender_types": tuple(bureau["other_lender_types"])})
    return Applicant(**{**inputs, "bureau": facts})


async def save_decision(
    conn: AsyncConnection,
    vault: Vault,
    principal: Principal,
    *,
    request_id: str,
    reference: str,
    model: tuple[str | None, str],
    inputs: dict[str, Any],
    outcome: tuple[int, str],
) -> None:
    model_id, version = model
    score, decision = outcome
    await repository.save_decision(
        conn,
        {
            "reference": reference,
            "org_id": principal.org_id,
            "environment": principal.environment,
            "request_id": request_id,
            "model_id": model_id,
            "model_version": version,
            "score": score,
            "decision": decision,
            "inputs_encrypted": vault.encrypt(orjson.dumps(inputs).decode()),
            "created_at": utcnow(),
        },
    )


def stored_inputs(vault: Vault, row: dict[str, Any]) -> Applicant:
    inputs: dict[str, Any] = orjson.loads(vault.decrypt(row["inputs_encrypted"]))
    return applicant_of(inputs)
