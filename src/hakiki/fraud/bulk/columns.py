"""What each bulk scan type reads from a sheet, and the checks every row passes before the job
starts: the same rules as the single scans' request bodies, reported by row and column."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictStr, ValidationError

from hakiki.core.errors import plain_problem
from hakiki.fraud.bulk.files import MAX_PROBLEMS, Problem, Sheet, SheetError, column_letter
from hakiki.fraud.scan_schemas import IdScanRequest, PhoneScanRequest
from hakiki.identity.channels import countries_fitting, find_channel
from hakiki.webhooks.urls import UrlRefused, check_shape

ScanType = Literal["id", "phone", "face"]
MAX_REFERENCE = 100
MAX_NUMBERS_PER_FACE = 10
_NUMBER_SEPARATORS = re.compile(r"[;|]")


class FaceRow(BaseModel):
    model_config = ConfigDict(extra="forbid")

    image_url: StrictStr = Field(min_length=1, max_length=2000)
    identity_numbers: list[StrictStr] = Field(default=[], max_length=MAX_NUMBERS_PER_FACE)


@dataclass(frozen=True)
class Layout:
    required: tuple[str, ...]
    optional: tuple[str, ...]
    model: type[BaseModel]

    @property
    def columns(self) -> tuple[str, ...]:
        return (*self.required, *self.optional, "reference")


LAYOUTS: dict[str, Layout] = {
    "id": Layout(
        ("number",),
        ("channel", "country_code", "first_name", "last_name", "date_of_birth", "phone"),
        IdScanRequest,
    ),
    "phone": Layout(("phone",), ("country_code",), PhoneScanRequest),
    "face": Layout(("image_url",), ("identity_numbers",), FaceRow),
}
# Other names people give these columns.
ALIASES = {
    "id_number": "number",
    "identity_number": "number",
    "phone_number": "phone",
    "msisdn": "phone",
    "dob": "date_of_birth",
    "birth_date": "date_of_birth",
    "country": "country_code",
    "url": "image_url",
    "image": "image_url",
}


def canonical(name: str) -> str:
    key = re.sub(r"[\s\-]+", "_", name.strip().casefold())
    return ALIASES.get(key, key)


@dataclass(frozen=True)
class Columns:
    index: dict[str, int]  # canonical name -> position
    names: list[str]  # the header as written

    def where(self, field: str) -> tuple[str, str] | tuple[None, None]:
        if field not in self.index:
            return None, None
        position = self.index[field]
        return self.names[position], column_letter(position)


def read_header(sheet: Sheet, scan_type: str, defaults: dict[str, str]) -> Columns:
    layout = LAYOUTS[scan_type]
    problems: list[Problem] = []
    index: dict[str, int] = {}
    for position, written in enumerate(sheet.header):
        name = canonical(written)
        where = (1, written or "(blank)", column_letter(position))
        if not name:
            problems.append(Problem(*where, "a column has no name"))
        elif name not in layout.columns:
            allowed = ", ".join(layout.columns)
            problems.append(
                Problem(*where, f"unknown column for a {scan_type} scan; use {allowed}")
            )
        elif name in index:
            problems.append(Problem(*where, f"column {name} appears twice"))
        else:
            index[name] = position
    wanted = list(layout.required) + (["channel"] if scan_type == "id" else [])
    for name in wanted:
        if name not in index and name not in defaults:
            extra = " (or send the channel form field for all rows)" if name == "channel" else ""
            problems.append(Problem(1, None, None, f"the column {name} is missing{extra}"))
    if problems:
        raise SheetError(problems[:MAX_PROBLEMS])
    return Columns(index, sheet.header)


def _fields(cells: list[str], columns: Columns, defaults: dict[str, str]) -> dict[str, str]:
    fields = dict(defaults)
    for name, position in columns.index.items():
        value = cells[position].strip() if position < len(cells) else ""
        if value:
            fields[name] = value
    return fields


def _check_row(
    scan_type: str, fields: dict[str, str]
) -> tuple[dict[str, Any], list[tuple[str, str]]]:
    """The row ready for the scanner, and its problems as (field, text)."""
    layout = LAYOUTS[scan_type]
    problems: list[tuple[str, str]] = []
    reference = fields.pop("reference", None)
    if reference is not None and len(reference) > MAX_REFERENCE:
        problems.append(("reference", f"longer than {MAX_REFERENCE} characters"))
    body: dict[str, Any] = dict(fields)
    if scan_type == "face":
        numbers = _NUMBER_SEPARATORS.split(body.get("identity_numbers", ""))
        body["identity_numbers"] = [n.strip() for n in numbers if n.strip()]
    try:
        parsed = layout.model.model_validate(body)
    except ValidationError as error:
        for issue in error.errors():
            field = str(issue["loc"][0]) if issue["loc"] else ""
            problems.append((field, plain_problem(issue)))
        return {}, problems
    row = parsed.model_dump(mode="json", exclude_none=True)
    if isinstance(parsed, IdScanRequest):
        channel = find_channel(parsed.channel, parsed.country_code)
        others = [] if parsed.country_code else countries_fitting(parsed.channel, parsed.number)
        if channel is None:
            problems.append(("channel", f"unknown channel {parsed.channel!r} for this country"))
        elif others:  # a Ugandan NIN in a nin row without a country: not a Nigerian NIN
            fits = " or ".join(others)
            problem = f"the number fits the {fits} {channel.code} format, not the {channel.country}"
            problems.append(("country_code", f"{problem} one: give country_code {fits}"))
        else:
            row["channel"], row["country_code"] = channel.code, channel.country
    if isinstance(parsed, FaceRow):
        try:
            check_shape(parsed.image_url, live=False)
        except UrlRefused as refused:
            problems.append(("image_url", f"the URL {refused}"))
    if reference is not None:
        row["reference"] = reference
    return row, problems


def validate_rows(sheet: Sheet, scan_type: str, defaults: dict[str, str]) -> list[dict[str, Any]]:
    """Every row checked; SheetError listing the first problems (row, column) if any fails."""
    columns = read_header(sheet, scan_type, defaults)
    width = len(sheet.header)
    rows: list[dict[str, Any]] = []
    problems: list[Problem] = []
    for number, cells in sheet.rows:
        if number in sheet.widths:
            extra = f"{sheet.widths[number]:,} cells but the header has {width}"
            problems.append(Problem(number, None, column_letter(width), extra))
        else:
            row, found = _check_row(scan_type, _fields(cells, columns, defaults))
            for field, text in found:
                name, at = columns.where(field)
                if name is None and field in defaults:
                    text = f"{field} (form field): {text}"
                problems.append(Problem(number, name, at, text))
            row["row"] = number
            rows.append(row)
        if len(problems) >= MAX_PROBLEMS:
            break
    if problems:
        raise SheetError(problems[:MAX_PROBLEMS])
    if not rows:
        raise SheetError([Problem(None, None, None, "the file has a header but no rows")])
    return rows
