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
    types = FORMATS[body.country_code]
    if body.id_type not in types:
        raise _invalid(
            "id_type",
            f"{body.country_code} bureau reports take {', '.join(types)}, not {body.id_type}",
        )
    pattern, shape = types[body.id_type]
    number = re.sub(r"[\s]", "", body.id_number).upper()
    if not pattern.fullmatch(number):
        raise _invalid("id_number", f"a {body.country_code} {body.id_type} is {shape}")
    return BureauQuery(
        country=body.country_code,
        id_type=body.id_type,
        id_number=number,
        report_reason=body.report_reason,
        loan_amount=body.loan_amount,
    )
