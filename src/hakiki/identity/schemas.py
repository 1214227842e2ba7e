"""What a verified identity looks like in every response that carries one."""

from __future__ import annotations

from typing import Annotated, Any, Literal, get_args

from pydantic import BaseModel, BeforeValidator
from pydantic_core import PydanticCustomError

# The countries Hakiki knows: the identity channels', the phone scan's and the address
# gazetteer's (tests/identity/test_country_codes.py keeps them the same).
SupportedCountry = Literal["KE", "NG", "TZ", "UG"]
SUPPORTED_COUNTRIES: tuple[str, ...] = get_args(SupportedCountry)


def _supported_country(value: Any) -> Any:
    listed = ", ".join(SUPPORTED_COUNTRIES)
    if not isinstance(value, str):
        raise PydanticCustomError(
            "country_code_type",
            "must be a two-letter country code in a string: one of {supported}",
            {"supported": listed},
        )
    code = value.strip().upper()
    if code not in SUPPORTED_COUNTRIES:
        raise PydanticCustomError(
            "unsupported_country",
            "{given} is not a supported country; use one of {supported}",
            {"given": repr(value[:10]), "supported": listed},
        )
    return code


CountryCode = Annotated[SupportedCountry, BeforeValidator(_supported_country)]
"""A country_code in a request: KE, NG, TZ or UG, in any case; anything else is a 400 naming
the field and listing these."""


class Identity(BaseModel):
    """The identity as the registry holds it. Persons carry names, businesses business_name."""

    first_name: str | None = None
    middle_name: str | None = None
    last_name: str | None = None
    business_name: str | None = None
    date_of_birth: str | None = None
    gender: str | None = None
    phone: str | None = None
    nationality: str | None = None


class NameScore(BaseModel):
    supplied: str
    on_record: str | None
    score: float


class NameComparison(BaseModel):
    match: bool
    score: float
    threshold: float
    first_name: NameScore
    last_name: NameScore
    reason: str


class ChannelRef(BaseModel):
    code: str
    country: str
