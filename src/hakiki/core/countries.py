"""``country_code`` in a request, refused in the API's words when the category does not serve
it (issue 35): every category that depends on a country takes ``country_code``, and a code it
does not serve is a 400 naming the field and listing the codes it serves."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from pydantic_core import PydanticCustomError


def served_country(served: Iterable[str], what: str) -> Callable[[Any], str]:
    """A BeforeValidator: ``value``, stripped and upper-cased, if it is one of ``served``; else
    a 400 "'XX' is not a country <what> serve; use one of KE, ...". Non-strings too."""
    codes = tuple(served)
    listed = ", ".join(codes)

    def check(value: Any) -> str:
        if not isinstance(value, str):
            raise PydanticCustomError(
                "country_code_type",
                "must be a two-letter country code in a string: one of {supported}",
                {"supported": listed},
            )
        code = value.strip().upper()
        if code not in codes:
            raise PydanticCustomError(
                "unsupported_country",
                "{given} is not a country {what} serve; use one of {supported}",
                {"given": repr(value[:10]), "what": what, "supported": listed},
            )
        return code

    return check
