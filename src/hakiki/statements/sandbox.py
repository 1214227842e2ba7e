"""The sandbox of statement analysis: the same local engine as live, free, on documented
sample statements (sandbox_data/, made by scripts/make_statement_samples.py) that give each
verdict, and the 400s of a bad upload."""

from __future__ import annotations

import base64
from functools import cache
from importlib import resources
from typing import Any

from hakiki.core.endpoints import Examples, Multipart, TestValue
from hakiki.core.envelope import in_data

INVALID = {"http_status": 400, "error": "invalid_request"}
HOLDER, HOLDER_PHONE, PASSWORD = "JANE WANJIKU MWANGI", "0722000111", "12345678"


@cache
def sample(name: str) -> dict[str, str]:
    data = (resources.files("hakiki.statements") / "sandbox_data" / name).read_bytes()
    return {
        "filename": name,
        "content_type": "application/pdf",
        "content_base64": base64.b64encode(data).decode(),
    }


def _invalid(field: str) -> dict[str, Any]:
    return {**INVALID, "details.0.field": field}


def _upload(file: str, **fields: str) -> Multipart:
    return Multipart(fields={"statement_type": "mpesa", **fields}, files={"file": sample(file)})


def _analyze_values() -> list[TestValue]:
    pending = {
        "http_status": 202,
        "live": False,
        "status": "PENDING",
        "async_pending": True,
        "state": "pending",
        "file_format": "pdf",
    }
    return [
        TestValue(
            description="a genuine M-Pesa statement with the holder's name and phone: 202 "
            "pending, then completed with verdict genuine",
            multipart=_upload(
                "mpesa-genuine.pdf", declared_name=HOLDER, declared_phone=HOLDER_PHONE
            ),
            expect=pending,
        ),
        TestValue(
            description="the same statement declared for someone else: completed with verdict "
            "suspicious (declared_name_mismatch, declared_phone_mismatch)",
            multipart=_upload(
                "mpesa-genuine.pdf", declared_name="PETER OTIENO", declared_phone="0733999888"
            ),
            expect=pending,
        ),
        TestValue(
            description="a balance overlaid on a white box: completed with verdict tampered "
            "(overlaid_text, balance_break)",
            multipart=_upload("mpesa-tampered.pdf"),
            expect=pending,
        ),
        TestValue(
            description="a locked statement with its password 12345678: completed, genuine",
            multipart=_upload("mpesa-locked.pdf", password=PASSWORD),
            expect=pending,
        ),
        TestValue(
            description="the locked statement with a wrong password: 400 naming password",
            multipart=_upload("mpesa-locked.pdf", password="00000000"),
            expect=_invalid("password"),
        ),
        TestValue(
            description="a scanned (image-only) statement: 400 naming file",
            multipart=_upload("scanned.pdf"),
            expect=_invalid("file"),
        ),
        TestValue(
            description="an unknown statement_type: 400 naming statement_type",
            multipart=_upload("mpesa-genuine.pdf", statement_type="paypal"),
            expect=_invalid("statement_type"),
        ),
    ]


ANALYZE = Examples(in_data(_analyze_values()))


def _list_values() -> list[TestValue]:
    empty = {"http_status": 200, "data": [], "pagination.total_items": 0}
    return [
        TestValue(
            description="the first page of a new organisation's analyses: none yet",
            query={"page": 1},
            expect={**empty, "pagination.page": 1},
        ),
        TestValue(
            description="filtered by status, verdict and creation dates",
            query={
                "status": "completed",
                "verdict": "tampered",
                "created_from": "2026-01-01",
                "created_to": "2026-12-31T23:59:59Z",
            },
            expect=empty,
        ),
        TestValue(
            description="an unknown verdict: 400 naming verdict",
            query={"verdict": "forged"},
            expect=_invalid("verdict"),
        ),
        TestValue(
            description="a created_from that is not ISO 8601: 400 naming created_from",
            query={"created_from": "yesterday"},
            expect=_invalid("created_from"),
        ),
    ]


LIST = Examples(_list_values())
