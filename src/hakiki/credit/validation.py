"""Checks the request models cannot express: an identity type the country's bureau takes and
a number in that type's format (a 400 naming the field)."""

from __future__ import annotations

import re

from hakiki.core.errors import ApiError
from hakiki.credit.providers.base import BureauQuery
from hakiki.credit.schemas import BureauRequest

FORMATS: dict[str, dict[str, tuple[re.Pattern[str], str]]] = {
    "KE": {
        "national_id": (re.compile(r"\d{6,9}"), "6 to 9 digits"),
        "passport": (re.compile(r"[A-Z]{1,2}\d{6,8}"), "one or two letters then 6 to 8 digits"),
        "alien_id": (re.compile(r"\d{6,10}"), "6 to 10 digits"),
        "company_registration": (
            re.compile(r"[A-Z0-9][A-Z0-9/\-]{3,19}"),
            "4 to 20 letters, digits, / or -",
        ),
    },
    "NG": {
        "bvn": (re.compile(r"\d{11}"), "11 digits"),
        "nin": (re.compile(r"\d{11}"), "11 digits"),
    },
}


def _invalid(field: str, problem: str) -> ApiError:
    return ApiError(
        400,
        "invalid_request",
        f"{field}: {problem}.",
        details=[{"field": field, "problem": problem}],
    )


def bureau_query(body: BureauRequest) -> BureauQuery:
    return query_of(
        body.country_code, body.id_type, body.id_number, body.report_reason, body.loan_amount
    )


def query_of(
    country: str, id_type: str, id_number: str, report_reason: str, loan_amount: int | None
) -> BureauQuery:
    """The query of a number of ``id_type`` in ``country``; a 400 naming the field when the
    country's bureau does not take the type or the number is not in its format."""
    types = FORMATS[country]
    if id_type not in types:
        raise _invalid(
            "id_type",
            f"{country} bureau reports take {', '.join(types)}, not {id_type}",
        )
    pattern, shape = types[id_type]
    number = re.sub(r"[\s]", "", id_number).upper()
    if not pattern.fullmatch(number):
        raise _invalid("id_number", f"a {country} {id_type} is {shape}")
    return BureauQuery(
        country=country,
        id_type=id_type,
        id_number=number,
        report_reason=report_reason,
        loan_amount=loan_amount,
    )
