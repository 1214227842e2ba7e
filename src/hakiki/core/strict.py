"""Strict request field types for what JSON's loose readings would let through.

pydantic reads ``0`` (and ``"0"``) as the date 1970-01-01 and ``true`` as the number 1.0; a
request carrying them is a mistake, so these types make it a 400 naming the field. Numbers use
pydantic's ``StrictFloat``/``StrictInt`` (a JSON integer is still a valid float); dates use
``IsoDate``.
"""

from __future__ import annotations

import re
from datetime import date, datetime
from typing import Annotated, Any

from pydantic import BeforeValidator, Field
from pydantic.json_schema import SkipJsonSchema
from pydantic_core import PydanticCustomError

_ISO_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")


def _iso_date(value: Any) -> Any:
    if isinstance(value, date) and not isinstance(value, datetime):
        return value
    if isinstance(value, str) and _ISO_DATE.fullmatch(value.strip()):
        return value.strip()
    raise PydanticCustomError("iso_date", "must be a date written as YYYY-MM-DD, in a string")


IsoDate = Annotated[date, BeforeValidator(_iso_date)]
"""A calendar date sent as ``"YYYY-MM-DD"``: no number, boolean or timestamp."""


def _from_credentials(value: object) -> None:
    raise PydanticCustomError(
        "identity_from_credentials",
        "is not accepted: who acts is recorded from the credentials (the signed-in console "
        "user, or the API key's client id), never from the body; leave this field out",
    )


# A field a client might send to name who acted (a reviewer, an analyst): refused with a 400
# naming it, left out of the schema and of model_dump (issue 30: audit identities come from the
# authenticated caller).
FromCredentials = Annotated[
    SkipJsonSchema[None], BeforeValidator(_from_credentials), Field(exclude=True)
]
