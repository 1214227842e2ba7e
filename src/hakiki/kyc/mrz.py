"""A passport request's MRZ, checked with the pure TD3 engine: 400s that name the field."""

from __future__ import annotations

from hakiki.core.errors import ApiError
from hakiki.engines.mrz.td3 import MrzFormatError, parse_td3
from hakiki.identity.channels import Channel
from hakiki.kyc.schemas import MrzSummary

# ICAO 9303 codes of the issuing states served.
ISSUING_STATES = {"NG": "NGA", "KE": "KEN", "UG": "UGA", "TZ": "TZA"}


def _invalid(message: str, field: str, problem: str) -> ApiError:
    return ApiError(400, "invalid_request", message, details=[{"field": field, "problem": problem}])


def check_mrz(lines: list[str], channel: Channel, number: str) -> MrzSummary:
    try:
        zone = parse_td3(lines[0], lines[1])
    except MrzFormatError as error:
        raise _invalid(f"mrz is not a passport (TD3) MRZ: {error}.", "mrz", str(error)) from None
    if zone.failures:
        names = ", ".join(f.field for f in zone.failures)
        raise ApiError(
            400,
            "invalid_request",
            f"The MRZ check digits do not match for: {names}. The zone was misread or altered.",
            details=[
                {
                    "field": f"mrz.{f.field}",
                    "problem": f"check digit is {f.found}, the data gives {f.expected}",
                }
                for f in zone.failures
            ],
        )
    if zone.document_number != number:
        raise _invalid(
            "The MRZ's document number is not the number sent.",
            "mrz.document_number",
            "differs from number",
        )
    state = ISSUING_STATES[channel.country]
    if zone.issuing_state != state:
        raise _invalid(
            f"The MRZ's issuing state is {zone.issuing_state}, not {state} ({channel.country}).",
            "mrz.issuing_state",
            f"is {zone.issuing_state}, expected {state} for country_code {channel.country}",
        )
    return MrzSummary(
        issuing_state=zone.issuing_state,
        nationality=zone.nationality,
        surname=zone.surname,
        given_names=zone.given_names,
        document_number=zone.document_number,
        birth_date=zone.birth_date,
        expiry_date=zone.expiry_date,
        sex=zone.sex,
    )
