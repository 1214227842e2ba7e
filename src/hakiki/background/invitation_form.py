"""The invitation form's fields: what the package's checks need, read and checked from the
posted form (every problem named by its field, never a 500)."""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field
from datetime import date
from typing import Any

from starlette.datastructures import FormData, UploadFile

from hakiki.background.check_types import CANDIDATE_FIELDS, package_needs
from hakiki.engines.tax.formats import FormatProblem, parse_taxpayer_number

DOCUMENT_TYPES = {"application/pdf", "image/jpeg", "image/png"}
DOCUMENT_MAGIC = {
    b"%PDF": "application/pdf",
    b"\xff\xd8\xff": "image/jpeg",
    b"\x89PNG": "image/png",
}
DOCUMENT_BYTES = 5 << 20
TEXT_LIMIT = 500
_ID = re.compile(r"^[A-Za-z0-9/-]{4,30}$")
_COMPANY = re.compile(r"^[A-Za-z0-9/ -]{2,40}$")

DOCUMENT_LABELS = {
    "police_clearance": "Police clearance certificate (PDF, JPEG or PNG, 5 MB at most)",
    "certificate": "Highest qualification certificate (PDF, JPEG or PNG, 5 MB at most)",
}

CONSENT = (
    "I consent to {org} and its verification provider checking the information and documents "
    "I give here, and the records listed below, for the purpose of a background check. I "
    "understand my data is kept encrypted and used only for this check, and that I can ask "
    "{org} about the result."
)
# The Credit Reference Bureau Regulations want the consent to a report to name it.
CREDIT_CONSENT = (
    " This includes a report on my national ID number from the credit reference bureau "
    "named above, for this background check only."
)


@dataclass
class Submission:
    given: dict[str, Any] = field(default_factory=dict)
    documents: list[dict[str, Any]] = field(default_factory=list)
    errors: dict[str, str] = field(default_factory=dict)


def needs(snapshot: dict[str, Any]) -> tuple[list[str], list[str]]:
    return package_needs(snapshot["country"], snapshot["check_types"])


def _text(form: FormData, name: str) -> str:
    value = form.get(name)
    return value.strip() if isinstance(value, str) else ""


def _check_text(name: str, value: str, country: str) -> str | None:
    if len(value) > TEXT_LIMIT:
        return f"at most {TEXT_LIMIT} characters"
    if "\x00" in value or any(0xD800 <= ord(c) <= 0xDFFF for c in value):
        return "contains characters that are not text"
    multiline = name == "referees"
    if any((ord(c) < 32 and not (multiline and c in "\r\n")) or ord(c) == 127 for c in value):
        return "contains control characters"
    if name == "date_of_birth":
        try:
            born = date.fromisoformat(value)
        except ValueError:
            return "must be a date written as YYYY-MM-DD"
        if not date(1900, 1, 1) <= born <= date.today():
            return "must be a real date of birth"
    if name == "id_number" and not _ID.fullmatch(value):
        return "must be 4 to 30 letters, digits, / or -"
    if name == "tax_pin":
        try:
            parse_taxpayer_number(country, value)
        except FormatProblem as problem:
            return f"not a taxpayer number: {problem}"
    if name == "company_numbers":
        numbers = [n.strip() for n in value.split(",") if n.strip()]
        if not numbers or len(numbers) > 5 or not all(_COMPANY.fullmatch(n) for n in numbers):
            return "one to five registration numbers, separated by commas"
    return None


async def _document(upload: UploadFile) -> tuple[bytes | None, str | None]:
    data = await upload.read(DOCUMENT_BYTES + 1)
    if not data:
        return None, "is required"
    if len(data) > DOCUMENT_BYTES:
        return None, "is larger than 5 MB"
    kind = next((t for magic, t in DOCUMENT_MAGIC.items() if data.startswith(magic)), None)
    if kind is None:
        return None, "must be a PDF, JPEG or PNG file"
    return data, None


async def read_submission(form: FormData, snapshot: dict[str, Any]) -> Submission:
    country = snapshot["country"]
    fields, documents = needs(snapshot)
    out = Submission()
    if form.get("consent") != "yes":
        out.errors["consent"] = "tick the box to give your consent"
    for name in fields:
        value = _text(form, name)
        if not value:
            out.errors[name] = "is required"
            continue
        problem = _check_text(name, value, country)
        if problem:
            out.errors[name] = problem
        else:
            out.given[name] = value
    for name in documents:
        upload = form.get(name)
        if not isinstance(upload, UploadFile):
            out.errors[name] = "is required"
            continue
        data, problem = await _document(upload)
        if problem or data is None:
            out.errors[name] = problem or "is required"
            continue
        kind = next(t for magic, t in DOCUMENT_MAGIC.items() if data.startswith(magic))
        out.documents.append(
            {
                "kind": name,
                "content_type": kind,
                "size": len(data),
                "sha256": hashlib.sha256(data).hexdigest(),
                "data": data,
                "filename": (upload.filename or name)[:200],
            }
        )
    return out


def label(name: str) -> str:
    return CANDIDATE_FIELDS.get(name) or DOCUMENT_LABELS.get(name, name)
