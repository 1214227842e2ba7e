"""The statement as read, and what the analysis says about it."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, datetime
from typing import Any, Literal

Severity = Literal["high", "medium", "info"]
Verdict = Literal["genuine", "suspicious", "tampered"]


class Refused(Exception):
    """A file the analysis cannot read: ``code`` names why, ``field`` the form field to fix."""

    def __init__(self, code: str, message: str, field: str = "file") -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.field = field


@dataclass
class Transaction:
    receipt: str
    time: datetime
    details: str
    status: str  # Completed, Failed, ...
    paid_in: int  # minor units, >= 0
    withdrawn: int  # minor units, >= 0
    balance: int | None
    page: int = 0  # 1-based for PDFs, the row for sheets

    @property
    def completed(self) -> bool:
        return self.status.lower() in ("completed", "success", "successful", "")


@dataclass
class Header:
    name: str | None = None
    phone: str | None = None
    account: str | None = None
    period_start: date | None = None
    period_end: date | None = None


@dataclass
class PdfFacts:
    """What the file itself says: metadata, structure and drawing evidence."""

    producer: str | None = None
    creator: str | None = None
    author: str | None = None
    created: datetime | None = None
    modified: datetime | None = None
    eof_markers: int = 1
    prev_offsets: list[int] = field(default_factory=list)
    linearized: bool = False
    encrypted: bool = False
    pages: int = 0
    amount_fonts: dict[str, list[str]] = field(default_factory=dict)  # font -> receipts
    overlays: list[dict[str, Any]] = field(default_factory=list)
    page_labels: dict[int, tuple[int, int]] = field(default_factory=dict)  # "Page n of N"
    active_content: list[str] = field(default_factory=list)  # javascript, embedded_file


@dataclass
class Statement:
    layout: str  # e.g. mpesa_openpdf_v1
    parser_version: str
    issuer: str  # mpesa, airtel_money, mtn_momo, bank
    file_format: str  # pdf, csv, xlsx
    header: Header
    transactions: list[Transaction]  # chronological (oldest first)
    summary: dict[str, tuple[int, int]] = field(default_factory=dict)  # type -> (in, out)
    pdf: PdfFacts | None = None
    formula_cells: list[str] = field(default_factory=list)  # sheet cells like "B7"
    # an XLSX's declared last row and its real one, when rows lie outside the declaration
    dimension_rows: tuple[int, int] | None = None


@dataclass(frozen=True)
class Declared:
    name: str | None = None
    phone: str | None = None
    monthly_obligations: int = 0  # minor units


@dataclass(frozen=True)
class Signal:
    code: str
    severity: Severity
    message: str
    evidence: dict[str, Any]

    def as_dict(self) -> dict[str, Any]:
        return {
            "code": self.code,
            "severity": self.severity,
            "message": self.message,
            "evidence": self.evidence,
        }


@dataclass
class Analysis:
    statement: Statement
    metrics: dict[str, Any]
    score: dict[str, Any]
    signals: list[Signal]
    verdict: Verdict
    statement_key: str  # identifies the statement across files (duplicate detection)
