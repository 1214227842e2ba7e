"""Request and response models of the KYB endpoints."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    StrictBool,
    StrictFloat,
    StrictStr,
    field_validator,
)
from pydantic_core import PydanticCustomError

from hakiki.core.envelope import Envelope
from hakiki.core.registry_checks.schemas import CheckBilling, State
from hakiki.engines.screening.countries import to_country_code
from hakiki.screening.schemas import AmlResult, UnavailableCheck

Check = Literal["sanction", "pep"]
DEFAULT_CHECKS: tuple[Check, ...] = ("sanction", "pep")


# Territory codes that are not a country with a company registry.
_NOT_COUNTRIES = frozenset({"zz", "eu"})


def _country(value: Any) -> Any:
    if not isinstance(value, str) or len(value.strip()) != 2 or not value.strip().isalpha():
        raise PydanticCustomError(
            "country_code", "must be a two-letter ISO 3166-1 country code in a string, e.g. KE"
        )
    code = to_country_code(value.strip())
    if code is None or code in _NOT_COUNTRIES or len(code) != 2:
        # issue 35: "XX" was looked up and answered 200 NOT_FOUND.
        raise PydanticCustomError(
            "unsupported_country",
            "{given} is not an ISO 3166-1 country code; use KE, NG, UG or TZ for their registries, "
            "or another country's two-letter code (NG, GB, US...) for the global registries",
            {"given": repr(value[:10])},
        )
    return code.upper()


AnyCountry = Annotated[str, BeforeValidator(_country)]


class KybRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    country_code: AnyCountry = Field(
        description="Where the business is registered: KE (BRS) and NG (CAC) through Prembly, "
        "UG or TZ for their registries; "
        "any other ISO 3166-1 code goes to the global fallback (OpenCorporates, GLEIF)."
    )
    registration_number: StrictStr | None = Field(
        default=None,
        min_length=1,
        max_length=64,
        description="The registry's number (Kenya PVT-AAB1234C, CPR/2009/12345, C.12345, "
        "BN-...; Uganda's 14-digit BRN; Tanzania's incorporation number or BN...). Case and "
        "spacing are ignored; a number that fits none of the country's formats is a 400.",
    )
    lei: StrictStr | None = Field(
        default=None,
        min_length=1,
        max_length=30,
        description="A Legal Entity Identifier (20 characters, check digits verified): looked "
        "up in GLEIF.",
    )
    name: StrictStr | None = Field(
        default=None,
        min_length=1,
        max_length=200,
        description="The registered name, to search outside KE (without a number or LEI).",
    )


class BusinessRequest(KybRequest):
    """Give `registration_number` (KE, UG, TZ and elsewhere), or `lei`, or `name` (outside KE)."""

    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={
            "examples": [{"country_code": "KE", "registration_number": "PVT-KYB00000"}]
        },
    )


class OwnershipRequest(KybRequest):
    """As for the business, plus the screening of every director and owner."""

    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={
            "examples": [{"country_code": "KE", "registration_number": "PVT-KYB00020"}]
        },
    )

    screen_owners: StrictBool = Field(
        default=True,
        description="Screen every director, shareholder, owner and parent against sanctions "
        "and PEP lists.",
    )
    checks: list[Check] = Field(
        default_factory=lambda: list(DEFAULT_CHECKS),
        min_length=1,
        description="The checks run on each person (entities: sanction only).",
    )
    threshold: StrictFloat | None = Field(
        default=None, ge=0.5, le=1.0, description="Score from which an entry is a hit (0.80)."
    )

    @field_validator("checks")
    @classmethod
    def _unique(cls, value: list[str]) -> list[str]:
        return list(dict.fromkeys(value))


class QueryEcho(BaseModel):
    country: str
    registration_number: str | None = Field(description="The number in its normal form.")
    registration_format: str | None = Field(description="Which format it fits, e.g. KE-BRS-2015.")
    implied_entity_type: str | None = Field(
        description="What the number's prefix says the business is (private_company, "
        "business_name, limited_liability_partnership, ...); null where the format says nothing."
    )
    lei: str | None
    name: str | None


class SourceInfo(BaseModel):
    provider: str = Field(
        description="The adapter: prembly, gleif, opencorporates, hakiki-sandbox."
    )
    registry: str = Field(description="What it read.")
    detail: str | None = Field(
        default=None,
        description="Why a look-up could not complete (e.g. OpenCorporates' usage limit, with "
        "its own message); null otherwise.",
    )


class AddressOut(BaseModel):
    text: str
    country: str | None
    post_code: str | None


class IdentifierOut(BaseModel):
    scheme: str
    id: str


class CompanyOut(BaseModel):
    name: str
    registration_number: str
    country: str
    entity_type: str | None
    status: Literal[
        "registered", "dissolved", "struck_off", "in_liquidation", "inactive", "unknown"
    ]
    registry_status: str | None = Field(description="The registry's own word for the status.")
    registration_date: str | None
    dissolution_date: str | None
    address: AddressOut | None
    identifiers: list[IdentifierOut]
    source_url: str | None


class PartyOut(BaseModel):
    name: str
    kind: Literal["person", "entity"]
    nationality: str | None
    aml: AmlResult | None = Field(
        description="This party's screening (null when screen_owners is false); the same "
        "person in several roles is screened once."
    )


class DirectorOut(PartyOut):
    role: str
    appointed_on: str | None


class ShareholderOut(PartyOut):
    shares: int | None
    share_class: str | None
    percentage: float | None


class BeneficialOwnerOut(PartyOut):
    percentage: float | None
    interests: list[str] = Field(description="BODS interest types, e.g. shareholding.")
    direct: bool | None


class ParentOut(PartyOut):
    ultimate: bool
    relationship: str
    identifiers: list[IdentifierOut]


class OwnershipOut(BaseModel):
    directors: list[DirectorOut]
    shareholders: list[ShareholderOut]
    beneficial_owners: list[BeneficialOwnerOut]
    parents: list[ParentOut] = Field(description="Parent entities (GLEIF), direct and ultimate.")
    share_capital: str | None
    notes: list[str] = Field(description="What the source does not say.")


class ScreeningSummary(BaseModel):
    status: Literal["CLEAR", "POTENTIAL_MATCH"] = Field(
        description="POTENTIAL_MATCH when any party has a hit: a lead to review, not a verdict."
    )
    parties_screened: int
    hits: int
    parties_with_hits: list[str]
    unavailable: list[UnavailableCheck] = Field(
        description="Checks that could not run on this server (e.g. no PEP list loaded)."
    )


class KybData(BaseModel):
    status: Literal["FOUND", "NOT_FOUND", "PENDING"]
    state: State = Field(
        description="pending, then completed or failed; final states never change."
    )
    query: QueryEcho
    source: SourceInfo
    company: CompanyOut | None = Field(description="The register's record; null when none.")


class BusinessResult(Envelope):
    billing: CheckBilling
    data: KybData


class OwnershipData(KybData):
    ownership: OwnershipOut | None
    screening: ScreeningSummary | None = Field(
        description="The owners' screening in short; null when not screened or nothing found."
    )
    bods: list[dict[str, Any]] | None = Field(
        description="The ownership as Beneficial Ownership Data Standard 0.4 statements: "
        "entity, person and relationship statements."
    )


class OwnershipResult(Envelope):
    billing: CheckBilling
    data: OwnershipData


class KybResult(Envelope):
    """Either KYB check as it stands (the status call): an ownership check's data has
    `ownership`, `screening` and `bods`."""

    billing: CheckBilling
    data: OwnershipData | KybData = Field(union_mode="left_to_right")
