"""Japanese chassis (frame) numbers: ``NZE121-1234567`` is Toyota's model code NZE121 (a
Corolla of the E120 generation) and the serial 1234567.

Used imports from Japan carry these instead of a 17-character VIN. The model code is looked up
in ``data/jdm_model_codes.csv`` (sources in ``data/SOURCES.md``) by its longest matching prefix;
an unknown code is still parsed, with the maker unknown.
"""

from __future__ import annotations

import csv
import re
from dataclasses import dataclass
from functools import cache
from importlib import resources

from hakiki.engines.vehicle.errors import IdentifierError

_CODE = re.compile(r"^[A-Z][A-Z0-9]{1,7}$")
_SERIAL = re.compile(r"^\d{4,8}$")
_GLUED = re.compile(r"^([A-Z][A-Z0-9]*[A-Z])(\d{4,8})$")  # a code ending in a letter, then digits
# Emission-class prefixes some papers print before the model code (DBA-NZE121-...).
_CLASS = re.compile(r"^[A-Z]{2,3}$")


@dataclass(frozen=True)
class ModelCode:
    prefix: str
    maker: str
    family: str
    generation: str


@dataclass(frozen=True)
class ChassisNumber:
    chassis_number: str  # normalised: MODELCODE-SERIAL
    model_code: str
    serial: str
    emission_class: str | None
    maker: str | None  # None when unknown, or when the code is used by several makers
    family: str | None
    generation: str | None
    candidates: tuple[ModelCode, ...]  # every matching row of the table


@cache
def model_codes() -> tuple[ModelCode, ...]:
    text = resources.files(__package__).joinpath("data/jdm_model_codes.csv").read_text("utf-8")
    rows = csv.DictReader(text.splitlines())
    return tuple(
        ModelCode(r["prefix"], r["maker"], r["family"], r["generation"] or "") for r in rows
    )


def lookup(model_code: str) -> tuple[ModelCode, ...]:
    """The table's rows with the longest prefix of ``model_code`` (several when makers share
    it)."""
    matching = [m for m in model_codes() if model_code.startswith(m.prefix)]
    if not matching:
        return ()
    longest = max(len(m.prefix) for m in matching)
    return tuple(m for m in matching if len(m.prefix) == longest)


def _split(text: str) -> tuple[str | None, str, str]:
    parts = [p for p in re.split(r"[\s\-]+", text) if p]
    if len(parts) == 3 and _CLASS.match(parts[0]):
        return parts[0], parts[1], parts[2]
    if len(parts) == 2:
        return None, parts[0], parts[1]
    if len(parts) == 1:
        glued = _GLUED.match(parts[0])
        if glued:
            return None, glued.group(1), glued.group(2)
        raise IdentifierError(
            "a Japanese chassis number is the model code, a dash and the serial "
            "(NZE121-1234567); write it with the dash as printed on the logbook"
        )
    raise IdentifierError("a Japanese chassis number has two parts: model code and serial")


def parse_chassis(raw: str) -> ChassisNumber:
    """Parse a Japanese frame number; `IdentifierError` when it does not have the shape."""
    emission_class, code, serial = _split(raw.strip().upper())
    if not _CODE.match(code):
        raise IdentifierError(f"{code!r} is not a model code (letters and digits, 2-8 long)")
    if not _SERIAL.match(serial):
        raise IdentifierError("the serial after the model code is 4 to 8 digits")
    candidates = lookup(code)
    makers = {c.maker for c in candidates}
    single = candidates[0] if len(makers) == 1 else None
    return ChassisNumber(
        chassis_number=f"{code}-{serial}",
        model_code=code,
        serial=serial,
        emission_class=emission_class,
        maker=single.maker if single else None,
        family=single.family if single and len(candidates) == 1 else None,
        generation=single.generation if single and len(candidates) == 1 else None,
        candidates=candidates,
    )
