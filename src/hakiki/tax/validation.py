"""The checks a tax request needs beyond its schema, with the pure format engine: each a 400
that names the field and says what is wrong."""

from __future__ import annotations

from hakiki.core.errors import ApiError
from hakiki.engines.tax.formats import (
    AUTHORITIES,
    FormatProblem,
    TaxpayerNumber,
    parse_certificate_number,
    parse_kenyan_id,
    parse_taxpayer_number,
)
from hakiki.tax.providers.base import TaxQuery
from hakiki.tax.schemas import PinRequest, TccRequest, WithholdingRequest


def _invalid(field: str, problem: str) -> ApiError:
    return ApiError(
        400,
        "invalid_request",
        f"{field}: {problem}.",
        details=[{"field": field, "problem": problem}],
    )


def taxpayer_number(country: str, raw: str, field: str) -> TaxpayerNumber:
    try:
        return parse_taxpayer_number(country, raw)
    except FormatProblem as problem:
        name = AUTHORITIES[country].number_name
        raise _invalid(field, f"not a {name}: {problem}") from None


def certificate(raw: str, field: str, what: str) -> str:
    try:
        return parse_certificate_number(raw, what)
    except FormatProblem as problem:
        raise _invalid(field, str(problem)) from None


def pin_query(body: PinRequest) -> TaxQuery:
    country = body.country_code
    if body.pin is None and body.national_id is None:
        raise _invalid("pin", "send pin, or national_id (KE) to look the PIN up by ID")
    reading = taxpayer_number(country, body.pin, "pin") if body.pin is not None else None
    national_id = None
    if body.national_id is not None:
        if country != "KE":
            raise _invalid(
                "national_id",
                f"a look-up by national ID is offered for KE only; for {country} send the TIN "
                "as pin",
            )
        try:
            national_id = parse_kenyan_id(body.national_id)
        except FormatProblem as problem:
            raise _invalid("national_id", str(problem)) from None
    return TaxQuery(
        "pin", country, pin=reading.number if reading else None, national_id=national_id
    )


def tcc_query(body: TccRequest) -> TaxQuery:
    reading = taxpayer_number(body.country_code, body.pin, "pin")
    number = certificate(
        body.certificate_number, "certificate_number", "a Tax Compliance Certificate number"
    )
    return TaxQuery("tcc", body.country_code, pin=reading.number, certificate_number=number)


def withholding_query(body: WithholdingRequest) -> TaxQuery:
    country = body.country_code
    number = certificate(
        body.certificate_number, "certificate_number", "a withholding certificate number"
    )
    withholder = taxpayer_number(country, body.withholder_pin, "withholder_pin")
    payee = taxpayer_number(country, body.payee_pin, "payee_pin")
    return TaxQuery(
        "withholding",
        country,
        certificate_number=number,
        withholder_pin=withholder.number,
        payee_pin=payee.number,
    )
