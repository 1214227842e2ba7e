"""Training a stored loan book into a model (the job's work, and the CLI's): progress written as
it goes, the model file and card stored, the book itself deleted once the model is trained.
A book that cannot train ends the model ``failed`` with the reason; nothing is retried then."""

from __future__ import annotations

import asyncio
import zlib
from typing import Any

import orjson

from hakiki.core.clock import utcnow
from hakiki.core.crypto import Vault
from hakiki.core.database import Database, read, transaction
from hakiki.credit.registry import repository
from hakiki.credit.registry.loan_file import AnalysisLookup, parse_csv, resolve_analyses
from hakiki.engines.credit.lender_training import Settings, TrainingError, train
from hakiki.engines.credit.loan_book import LoanBookError, read_book

FINAL = ("trained", "failed")


def seal_book(vault: Vault, data: bytes) -> bytes:
    return vault.seal(zlib.compress(data, 6))


def open_book(vault: Vault, sealed: bytes) -> bytes:
    return zlib.decompress(vault.unseal(sealed))


async def _progress(db: Database, model_id: str, stage: str, progress: int) -> None:
    async with transaction(db) as conn:
        await repository.update_model(
            conn,
            model_id,
            {"status": "training", "stage": stage, "progress": progress, "updated_at": utcnow()},
        )


async def fail(db: Database, model_id: str, reason: str) -> None:
    now = utcnow()
    async with transaction(db) as conn:
        found = await repository.get_model(conn, model_id)
        if found is None or found["status"] in FINAL:
            return
        await repository.update_model(
            conn,
            model_id,
            {
                "status": "failed",
                "stage": "failed",
                "failure_reason": reason,
                "book_encrypted": None,
                "updated_at": now,
            },
        )


def _train(header: list[str], rows: list[dict[str, str]], settings: Settings) -> dict[str, Any]:
    return train(read_book(header, rows), settings)


async def train_stored(db: Database, vault: Vault, model_id: str, lookup: AnalysisLookup) -> None:
    """Train model ``model_id`` from its stored book; idempotent (a trained or failed model is
    left as it is, so a job run twice trains once)."""
    async with read(db) as conn:
        model = await repository.get_model(conn, model_id)
    if model is None or model["status"] in FINAL or model["book_encrypted"] is None:
        return
    await _progress(db, model_id, "reading the loan book", 10)
    data = await asyncio.to_thread(open_book, vault, model["book_encrypted"])
    try:
        header, rows = await asyncio.to_thread(parse_csv, data)
        await _progress(db, model_id, "reading the statement analyses", 30)
        header = await resolve_analyses(header, rows, lookup)
        await _progress(db, model_id, "binning, fitting and scoring the holdout", 60)
        settings = Settings(version=model["version"], window_days=model["window_days"])
        document = await asyncio.to_thread(_train, header, rows, settings)
    except LoanBookError as error:
        await fail(db, model_id, f"The loan book has problems: {error.problems[0].text()}.")
        return
    except TrainingError as error:
        await fail(db, model_id, str(error))
        return
    card = document["card"]
    card["trained_at"] = utcnow().isoformat()
    card["file_name"] = model["file_name"]
    async with transaction(db) as conn:
        await repository.update_model(
            conn,
            model_id,
            {
                "status": "trained",
                "stage": "trained",
                "progress": 100,
                "document": orjson.dumps(document).decode(),
                "activatable": card["activatable"],
                "refusal_reason": card["refusal_reason"],
                "book_encrypted": None,  # the borrowers' rows are kept no longer than needed
                "trained_at": utcnow(),
                "updated_at": utcnow(),
            },
        )
