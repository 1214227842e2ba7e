"""Request and response models of the name-screening endpoints (/v3/screening/aml and kin)."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    StrictBool,
    StrictFloat,
    StrictInt,
    StrictStr,
)
from pydantic_core import PydanticCustomError

from hakiki.core.envelope import Envelope, Outcome, Verdict
from hakiki.engines.screening.countries import to_country_code
from hakiki.engines.screening.model import Schema
from hakiki.screening import examples
from hakiki.screening.schemas import AmlResult

SubjectType = Literal["person", "business", "vessel", "aircraft"]
AmlCheck = Literal["sanction", "pep", "adverse_media", "watchlist"]
DEFAULT_AML_CHECKS: tuple[AmlCheck, ...] = ("sanction", "pep")


def _known_country(value: str) -> str:
    """A country of a subject, as the screening engine reads it (a code or a name in many
    languages); one it cannot read was silently dropped before issue 35: now a 400."""
    if to_country_code(value) is None:
        raise PydanticCustomError(
            "unknown_country",
            "{given} is not a country the screening knows: give its ISO 3166-1 code (KE, "
            "KEN) or its name (Kenya)",
            {"given": repr(value[:40])},
        )
    return value


CountryName = Annotated[StrictStr, AfterValidator(_known_country)]

SCHEMA_BY_TYPE: dict[str, Schema] = {
    "person": "Person",
    "business": "Organization",
    "vessel": "Vessel",
    "aircraft": "Aircraft",
}


class _Subject(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: StrictStr | None = Field(
        default=None, max_length=300, description="Full name (or business name) as one string."
    )
    countries: list[CountryName] = Field(
        default_factory=list,
        max_length=10,
        description="Nationalities, residence or registration countries: ISO codes or names.",
    )
    identifiers: list[StrictStr] = Field(
        default_factory=list,
        max_length=10,
        description="Document or registration numbers (passport, national ID, IMO...).",
    )
    threshold: StrictFloat | None = Field(
        default=None, ge=0.5, le=1.0, description="Score from which an entry is a hit (0.80)."
    )
    limit: StrictInt = Field(default=10, ge=1, le=50, description="At most this many hits.")
    monitor: StrictBool = Field(
        default=False,
        description="Also enrol the subject in ongoing monitoring (its sanction and pep checks "
        "re-run whenever a list changes; GET /v3/screening/monitored-subjects).",
    )
    reference: StrictStr | None = Field(
        default=None,
        min_length=1,
        max_length=100,
        description="Your reference for the subject, kept with its monitoring (monitor: true).",
    )


class PersonFields(_Subject):
    first_name: StrictStr | None = Field(default=None, max_length=100)
    middle_name: StrictStr | None = Field(default=None, max_length=200)
    last_name: StrictStr | None = Field(default=None, max_length=100)
    birth_date: StrictStr | None = Field(
        default=None,
        pattern=r"^\d{4}(-\d{2}(-\d{2})?)?$",
        description="YYYY, YYYY-MM or YYYY-MM-DD.",
    )
    gender: Literal["male", "female"] | None = None


class PersonScreeningRequest(PersonFields):
    """A natural person: `name`, or `first_name`/`middle_name`/`last_name`."""

    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={
            "examples": [{"first_name": "Sandbox", "last_name": "Politically Exposed"}]
        },
    )


class IndividualScreeningRequest(PersonScreeningRequest):
    adverse_media: StrictBool = Field(default=False, description="Also search adverse media.")


class BusinessScreeningRequest(_Subject):
    """A business: its registered name, plus countries and registration numbers if known."""

    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={"examples": [{"name": "Sandbox Sanction Trading Limited"}]},
    )

    name: StrictStr = Field(min_length=1, max_length=300, description="Registered name.")
    adverse_media: StrictBool = Field(default=False, description="Also search adverse media.")


class SanctionScreeningRequest(PersonFields):
    """Any subject against sanctions lists."""

    model_config = ConfigDict(
        extra="forbid", json_schema_extra={"examples": [*examples.SANCTION_REQUESTS]}
    )

    subject_type: SubjectType = Field(default="person")


class AmlScreeningRequest(PersonFields):
    """Any subject, checks chosen."""

    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={
            "examples": [
                {
                    "name": "Sandbox Every List",
                    "subject_type": "person",
                    "checks": ["sanction", "pep", "adverse_media"],
                    "birth_date": "1975-05-05",
                    "countries": ["TZ"],
                }
            ]
        },
    )

    subject_type: SubjectType = Field(default="person")
    checks: list[AmlCheck] = Field(
        default_factory=lambda: list(DEFAULT_AML_CHECKS),
        min_length=1,
        description="What to screen.",
    )


class ScreenedSubject(BaseModel):
    name: str
    subject_type: str
    birth_date: str | None = None
    countries: list[str]
    identifiers_given: int


class ScreeningData(BaseModel):
    subject: ScreenedSubject
    aml: AmlResult
    monitored_subject_id: str | None = Field(
        default=None, description="With monitor: true, the subject's id in ongoing monitoring."
    )


class ScreeningResult(Envelope):
    """The answer of every name-screening endpoint: status COMPLETED, or INCOMPLETE (ok false)
    when a requested check could not run (data.aml.outcomes says which and why); verdict
    REVIEW with a hit, PASS when every check ran clear."""

    data: ScreeningData


# The screening's own words, in the envelope: (status, verdict).
SCREENING_WORDS: dict[tuple[str, bool], tuple[Outcome, Verdict | None]] = {
    ("CLEAR", True): (Outcome.COMPLETED, Verdict.PASS),
    ("POTENTIAL_MATCH", True): (Outcome.COMPLETED, Verdict.REVIEW),
    ("POTENTIAL_MATCH", False): (Outcome.INCOMPLETE, Verdict.REVIEW),
    ("INCOMPLETE", False): (Outcome.INCOMPLETE, None),
}
