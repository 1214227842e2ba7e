"""Request and response models of the screening endpoints."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    StrictBool,
    StrictFloat,
    StrictStr,
    computed_field,
    field_validator,
)

from hakiki.core.envelope import Envelope
from hakiki.core.pagination import Pagination
from hakiki.identity.schemas import ChannelRef, CountryCode, Identity, NameComparison
from hakiki.lists.outcomes import (
    CheckOutcome,
    DatedList,
    Outcome,
    Status,
    check_outcomes,
    overall_status,
    performed_count,
)
from hakiki.screening.review_schemas import HitReview, SuppressedHit

Check = Literal["sanction", "pep"]
DEFAULT_CHECKS: tuple[Check, ...] = ("sanction", "pep")


class AmlWithIdRequest(BaseModel):
    """Verify an identity number, then screen the verified identity (one call, one charge)."""

    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={
            "examples": [
                {
                    "channel": "bvn",
                    "number": "22222222210",
                    "checks": ["sanction", "pep"],
                    "adverse_media": False,
                    "compare": True,
                    "first_name": "Adaeze",
                    "last_name": "Okafor",
                }
            ]
        },
    )

    channel: StrictStr = Field(
        min_length=1, description="Channel code from GET /v3/screening/channels, e.g. bvn."
    )
    number: StrictStr = Field(min_length=1, max_length=64, description="The identity number.")
    country_code: CountryCode | None = Field(
        default=None,
        description="The channel's country: KE, NG, TZ or UG. Needed only for codes used in "
        "several countries (nin: NG or UG; passport: NG or KE); without it they mean NG.",
    )
    checks: list[Check] = Field(
        default_factory=lambda: list(DEFAULT_CHECKS),
        min_length=1,
        description="AML checks to run on the verified identity.",
    )
    adverse_media: StrictBool = Field(default=False, description="Also search adverse media.")
    compare: StrictBool = Field(
        default=False,
        description="Compare first_name and last_name with the names on record "
        "(both required when true).",
    )
    first_name: StrictStr | None = Field(default=None, max_length=100)
    last_name: StrictStr | None = Field(default=None, max_length=100)
    threshold: StrictFloat | None = Field(
        default=None,
        ge=0.5,
        le=1.0,
        description="Score from which a list entry counts as a hit (default 0.80).",
    )
    monitor: StrictBool = Field(
        default=False,
        description="Also enrol the verified identity in ongoing monitoring (when a record is "
        "found; GET /v3/screening/monitored-subjects).",
    )
    reference: StrictStr | None = Field(
        default=None,
        min_length=1,
        max_length=100,
        description="Your reference for the subject, kept with its monitoring (monitor: true).",
    )

    @field_validator("checks")
    @classmethod
    def _unique_checks(cls, value: list[str]) -> list[str]:
        return list(dict.fromkeys(value))


class MediaDetails(BaseModel):
    """The article behind an adverse-media hit."""

    url: str | None
    source: str
    published: str | None
    categories: list[dict[str, Any]] = Field(
        description="Adverse categories with the words found (and those found only next to "
        "an exoneration such as 'acquitted of')."
    )


class PepPositionHeld(BaseModel):
    title: str | None = Field(description="The position, as the list names it (null: unnamed).")
    country: str | None = Field(description="The position's country (ISO alpha-2, lowercase).")
    start_date: str | None
    end_date: str | None
    tenure_ended: bool | None = Field(
        description="true: ended; false: still held; null: the list cannot tell."
    )


class PepDetails(BaseModel):
    """What the PEP list says about the person's public positions."""

    positions: list[PepPositionHeld]
    countries: list[str] = Field(description="The positions' and the person's countries.")
    tenure_ended: bool | None = Field(
        description="false when any position is still held, true when every one has ended, "
        "null when the list cannot tell."
    )


class AmlHit(BaseModel):
    check: str = Field(description="sanction, pep or adverse_media.")
    list_code: str = Field(description="The list, e.g. us_ofac_sdn.")
    list_version: str = Field(description="The list's publication date used.")
    programs: list[str] = Field(description="Sanctions programmes of the entry.")
    entity_id: str = Field(description="The entry's id on the list.")
    entity_name: str = Field(description="The entry's primary name.")
    entity_schema: str = Field(description="Person, Organization, Vessel or Aircraft.")
    matched_name: str = Field(description="The entry name or alias that matched.")
    matched_name_kind: str = Field(description="primary, alias or weak_alias.")
    score: float = Field(description="0 to 1; a hit is at or above the threshold.")
    explanation: dict[str, Any] = Field(
        description="Per feature (name, birth_date, country, identifier, gender): its score "
        "and the reason."
    )
    entity_fingerprint: str = Field(
        description="Digest of the list entry's content; a review of this hit holds until it "
        "changes."
    )
    review: HitReview | None = Field(
        default=None, description="The analyst's review of this hit for this subject, if any."
    )
    media: MediaDetails | None = Field(
        default=None, description="For adverse-media hits: the article (entity_name is its title)."
    )
    pep: PepDetails | None = Field(
        default=None,
        description="For pep hits: the positions held, their country and dates, and whether "
        "the tenure has ended.",
    )


class ListUsed(BaseModel):
    model_config = ConfigDict(frozen=True)  # the sandbox shares one per check

    code: str
    title: str
    version: str
    checks: list[str]
    licence: str | None = Field(default=None, description="As the operator declared it.")
    published: str | None = Field(
        default=None,
        description="The list version's date (ISO); null when the list carries none. The "
        "sandbox's lists are dated today.",
    )
    age_days: int | None = Field(
        default=None, description="Whole days since `published`; null when unknown."
    )
    stale: bool = Field(
        default=False,
        description="Older than the server's limit (HAKIKI_LIST_MAX_AGE_DAYS, default 90): "
        "people listed since are missed.",
    )

    @classmethod
    def of(cls, dated: DatedList) -> ListUsed:
        return cls(
            code=dated.code,
            title=dated.title,
            version=dated.version,
            checks=list(dated.checks),
            licence=dated.licence,
            published=dated.published,
            age_days=dated.age_days,
            stale=dated.stale,
        )


class UnavailableCheck(BaseModel):
    check: str
    reason: str


class CheckResult(BaseModel):
    """What came of one requested check."""

    check: str = Field(description="sanction, pep or adverse_media.")
    outcome: CheckOutcome = Field(
        description="clear: it ran and nothing reached the threshold; hits: it ran and found "
        "potential matches; not_performed: it could not run (see reason): its lack of hits "
        "means nothing."
    )
    reason: str | None = Field(description="Why the check was not performed; null otherwise.")
    lists: list[str] = Field(description="Codes of the lists screened for this check.")


class AmlResult(BaseModel):
    subject_key: str = Field(
        default="",
        description="Stable key of the screened subject for this organisation: quote it when "
        "reviewing a hit.",
    )
    checks: list[str] = Field(description="The checks that were asked for.")
    threshold: float
    screened_name: str = Field(description="The verified name that was screened.")
    hits: list[AmlHit] = Field(description="An empty array means no hits.")
    lists: list[ListUsed] = Field(description="The lists and versions screened.")
    unavailable: list[UnavailableCheck] = Field(
        description="Checks that were asked for but could not run, and why. A check listed "
        "here was NOT performed: its absence of hits means nothing."
    )
    suppressed: list[SuppressedHit] = Field(
        default_factory=list,
        description="Hits left out because an analyst marked them false positives for this "
        "subject (until the list entry changes).",
    )

    @computed_field(  # type: ignore[prop-decorator]
        description="Per requested check, in the order asked: clear, hits or not_performed "
        "(with the reason). The truth about what ran; `unavailable` lists the same gaps."
    )
    @property
    def outcomes(self) -> list[CheckResult]:
        return [
            CheckResult(check=o.check, outcome=o.outcome, reason=o.reason, lists=list(o.lists))
            for o in self._outcomes()
        ]

    @computed_field(  # type: ignore[prop-decorator]
        description="CLEAR only when every requested check ran and found nothing; "
        "POTENTIAL_MATCH when anything hit; INCOMPLETE when nothing hit but a requested check "
        "was not performed."
    )
    @property
    def status(self) -> Status:
        # An organisation's watchlist hit (check `watchlist`) answers a sanction or pep request
        # without being one of its checks: any hit is a potential match.
        return "POTENTIAL_MATCH" if self.hits else overall_status(self._outcomes())

    @computed_field(  # type: ignore[prop-decorator]
        description="true when every requested check was performed."
    )
    @property
    def complete(self) -> bool:
        return not self.unavailable

    def performed_count(self) -> int:
        """How many distinct requested checks ran (what the price is split over)."""
        return performed_count(self._outcomes())

    def _outcomes(self) -> list[Outcome]:
        return check_outcomes(
            self.checks,
            (hit.check for hit in self.hits),
            {u.check: u.reason for u in self.unavailable},
            ((lst.code, lst.checks) for lst in self.lists),
        )


class AmlWithIdData(BaseModel):
    status: Literal["FOUND", "NOT_FOUND", "PENDING"] = Field(
        description="Whether a record was found."
    )
    channel: ChannelRef
    identity: Identity | None = Field(description="The record found; null when none was.")
    aml: AmlResult | None = Field(
        description="The screening of the found identity; null when no identity was found "
        "(nothing was screened)."
    )
    comparison: NameComparison | None = Field(
        default=None, description="Present when compare was true and a record was found."
    )
    monitored_subject_id: str | None = Field(
        default=None,
        description="With monitor: true and a record found, the identity's id in ongoing "
        "monitoring.",
    )


class AmlWithIdResult(Envelope):
    data: AmlWithIdData


class TestValue(BaseModel):
    number: str
    status: str
    aml: list[str]
    description: str


class ChannelProvider(BaseModel):
    name: str = Field(description="The upstream provider, e.g. prembly, dojah, smile_id.")
    position: int = Field(description="Its place in the channel's order: 1 is tried first.")
    state: Literal["closed", "open", "half_open"] = Field(
        description="Its circuit breaker in this process: closed (in use), open (skipped after "
        "repeated failures until a cool-down ends), half_open (the next call is a trial)."
    )


class ChannelInfo(BaseModel):
    code: str
    country: str
    subject: Literal["person", "business"]
    name: str
    format: str
    example: str
    sandbox: bool = Field(description="Usable with sandbox keys (always).")
    live: bool = Field(description="Usable with live keys: a provider is configured.")
    live_provider: str | None = Field(
        description="The provider tried first for live calls (the answer's `provider` names the "
        "one that answered)."
    )
    live_providers: list[ChannelProvider] = Field(
        description="Every provider of the channel here, in the order tried, with its breaker "
        "state: a call falls back to the next on an outage (docs/providers.md)."
    )
    requires: list[str] = Field(description="Request fields needed besides the number.")
    test_values: list[TestValue] = Field(description="Golden sandbox numbers for this channel.")


class RegistryCheckChannel(BaseModel):
    category: Literal["tax", "kyb", "vehicle"]
    country: str
    check: str = Field(
        description="What is checked: pin, tcc or withholding (tax), the register, e.g. CAC "
        "(kyb), plate (vehicle)."
    )
    live: bool = Field(description="Usable with live keys here: a provider is configured.")
    live_provider: str | None = Field(description="The provider tried first for live calls.")
    live_providers: list[ChannelProvider] = Field(
        description="Every provider of the check here, in the order tried, with its breaker "
        "state: a call falls back to the next on an outage (docs/providers.md)."
    )


class ChannelList(BaseModel):
    data: list[ChannelInfo]
    pagination: Pagination
    sandbox_rules: dict[str, str] = Field(description="How any valid number drives outcomes.")
    registry_checks: list[RegistryCheckChannel] = Field(
        description="The tax, KYB and vehicle checks live keys can make here, each with its "
        "providers in order and their breakers (not paginated: a handful)."
    )
