"""Nigerian registration plates (FRSC), read offline (sources in ``data/SOURCES.md``).

* Since 2011: ``ABC-123DE``. The three letters are the code of the Local Government Area where
  the vehicle was registered, then a three-digit serial and two series letters (written with
  spaces too: ``LSR 123 AA``).
* 1992 to 2011: ``AB 123-CDE``, the LGA code at the end.
* Diplomatic plates: up to three digits (the mission), ``CD`` or ``CMD``, and a number;
  consular ones ``CC``.

Spaces and dashes are ignored. The LGA (and its state) is named only for codes in the table
below, each from a published list; any other three letters still read as a plate whose LGA
code Hakiki does not know (``lga`` null), never as a guess.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from hakiki.engines.vehicle.errors import IdentifierError
from hakiki.engines.vehicle.plates import Plate

LAGOS = "Lagos"
FCT = "Federal Capital Territory"
ONDO = "Ondo"

# Code -> (LGA, state). Lagos: autoreportng.com, "Lagos State number plate codes and what they
# mean" (2020); the FCT: zikoko.com's list of plate abbreviations; Ondo: autoreportng.com,
# "Ondo State number plates codes and their meaning" (2020), 15 of its 18 LGAs (data/SOURCES.md).
# A code not here is unknown.
LGA_CODES: dict[str, tuple[str, str]] = {
    "AGL": ("Ajeromi-Ifelodun", LAGOS),
    "AKD": ("Ibeju-Lekki", LAGOS),
    "APP": ("Apapa", LAGOS),
    "BDG": ("Badagry", LAGOS),
    "EKY": ("Eti-Osa", LAGOS),
    "EPE": ("Epe", LAGOS),
    "FKJ": ("Ifako-Ijaiye", LAGOS),
    "GGE": ("Agege", LAGOS),
    "JJJ": ("Ojo", LAGOS),
    "KJA": ("Ikeja", LAGOS),
    "KRD": ("Ikorodu", LAGOS),
    "KSF": ("Kosofe", LAGOS),
    "KTU": ("Alimosho", LAGOS),
    "LND": ("Lagos Mainland", LAGOS),
    "LSD": ("Oshodi-Isolo", LAGOS),
    "LSR": ("Surulere", LAGOS),
    "MUS": ("Mushin", LAGOS),
    "SMK": ("Somolu", LAGOS),
    "ABC": ("Abuja Municipal Area Council", FCT),
    "BWR": ("Bwari", FCT),
    "KWR": ("Kwali", FCT),
    "AKR": ("Akure South", ONDO),
    "JTA": ("Akure North", ONDO),
    "FGB": ("Ifedore", ONDO),
    "WWW": ("Owo", ONDO),
    "LEL": ("Ile-Oluji/Okeigbo", ONDO),
    "NND": ("Ondo West", ONDO),
    "BDR": ("Ondo East", ONDO),
    "WEN": ("Idanre", ONDO),
    "SUA": ("Akoko South-East", ONDO),
    "REE": ("Odigbo", ONDO),
    "GBA": ("Ilaje", ONDO),
    "KTP": ("Okitipupa", ONDO),
    "ANG": ("Akoko North-West", ONDO),
    "FFN": ("Ose", ONDO),
    "KAA": ("Akoko North-East", ONDO),
}


def _place(code: str) -> tuple[str | None, str | None]:
    lga, state = LGA_CODES.get(code, (None, None))
    return lga, state


def _described(code: str, what: str) -> str:
    lga, state = _place(code)
    where = (
        f"registered in {lga} LGA, {state}" if lga else f"LGA code {code} (not in Hakiki's table)"
    )
    return f"{what}, {where}"


def _current(m: re.Match[str]) -> Plate:
    code, number, suffix = m.groups()
    lga, state = _place(code)
    description = _described(code, "Vehicle plate of the 2011 format (LGA code first)")
    return Plate(f"{code}-{number}{suffix}", "civilian", description, code, number, suffix,
                 state=state, lga=lga, lga_code=code)  # fmt: skip


def _old(m: re.Match[str]) -> Plate:
    series, number, code = m.groups()
    lga, state = _place(code)
    description = _described(code, "Vehicle plate of the 1992-2011 format (LGA code last)")
    return Plate(f"{series} {number}-{code}", "civilian_old", description, series, number, code,
                 state=state, lga=lga, lga_code=code)  # fmt: skip


def _mission(category: str, letters: str) -> Callable[[re.Match[str]], Plate]:
    def build(m: re.Match[str]) -> Plate:
        mission, kind, number = m.groups()
        what = "Diplomatic" if category == "diplomatic" else "Consular"
        return Plate(
            f"{mission} {kind} {number}",
            category,  # type: ignore[arg-type]
            f"{what} vehicle ({letters})",
            kind,
            number,
            None,
            mission_code=int(mission),
        )

    return build


_RULES: tuple[tuple[re.Pattern[str], Callable[[re.Match[str]], Plate]], ...] = (
    (re.compile(r"^([A-Z]{3})(\d{3})([A-Z]{2})$"), _current),
    (re.compile(r"^([A-Z]{2})(\d{3})([A-Z]{3})$"), _old),
    (re.compile(r"^(\d{1,3})(CMD|CD)(\d{1,3})$"), _mission("diplomatic", "CD or CMD")),
    (re.compile(r"^(\d{1,3})(CC)(\d{1,3})$"), _mission("consular", "CC")),
)
_STRIP = re.compile(r"[\s\-]")


def parse_nigerian_plate(raw: str) -> Plate:
    """The plate's format, parts and issuing LGA; `IdentifierError` when it fits no format."""
    compact = _STRIP.sub("", raw).upper()
    if not compact:
        raise IdentifierError("the registration number is empty")
    for pattern, build in _RULES:
        match = pattern.match(compact)
        if match:
            return build(match)
    raise IdentifierError(
        f"{compact[:20]!r} fits no Nigerian plate format (since 2011 ABC-123DE or ABC 123 DE, "
        "LGA code first; 1992-2011 AB 123-CDE; diplomatic 12 CD 34)"
    )
