"""The ``consent`` object a call that processes a data subject's personal data carries
(docs/privacy.md#consent): when and how the subject agreed, to which notice, for which
purposes, in which language. The route mechanism adds it to the request schema of every
endpoint whose catalogue entry has a consent rule (``Endpoint.consent_rule``), stores it
encrypted with the call, and answers its id as ``consent_id``."""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from functools import cache
from typing import Annotated, Any, Literal

import orjson
from pydantic import (
    AwareDatetime,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    StringConstraints,
    create_model,
    field_validator,
    model_validator,
)
from pydantic_core import PydanticCustomError

from hakiki.core.clock import utcnow
from hakiki.core.crypto import Vault
from hakiki.core.endpoints import TestValue
from hakiki.core.ids import new_id

ConsentMethod = Literal[
    "checkbox", "signature", "verbal", "ussd", "sms", "in_app", "paper", "other"
]
Purpose = Literal[
    "identity_verification",
    "aml_screening",
    "fraud_prevention",
    "credit_assessment",
    "credit_report",
    "background_check",
    "statement_analysis",
    "ongoing_monitoring",
    "other",
]
# A future obtained_at within this of the server's clock is a clock's drift, not a mistake.
CLOCK_SKEW = timedelta(minutes=5)
EXAMPLE: dict[str, Any] = {
    "obtained_at": "2026-11-20T09:14:00Z",
    "method": "checkbox",
    "notice_version": "privacy-notice-2026-09",
    "notice_url": "https://lender.example/privacy",
    "purposes": ["identity_verification", "credit_report"],
    "language": "en",
    "subject_reference": "cust-000123",
}


def _timestamp(value: Any) -> Any:
    if isinstance(value, datetime) or (isinstance(value, str) and "T" in value):
        return value
    raise PydanticCustomError(
        "consent_time",
        "must be the time the subject consented, in ISO 8601 with its zone "
        "(2026-11-20T09:14:00Z), in a string",
    )


def _notice_url(value: Any) -> Any:
    if isinstance(value, str) and value.startswith(("https://", "http://")) and " " not in value:
        return value
    raise PydanticCustomError(
        "notice_url",
        "must be the address of the notice the subject was shown, starting https://",
    )


_LANGUAGE = re.compile(r"[a-z]{2,3}(-[A-Z]{2})?")


def _language(value: Any) -> Any:
    if isinstance(value, str) and _LANGUAGE.fullmatch(value):
        return value
    raise PydanticCustomError(
        "consent_language",
        "must be the notice's language as a two-letter ISO 639-1 code in lower case (en, sw), "
        "optionally with a region (en-KE)",
    )


class Consent(BaseModel):
    """The data subject's consent to this processing (Kenya DPA 2019 s.30, s.32; Nigeria DPA
    2023 s.25, s.26): give ``notice_version`` or ``notice_url`` (or both)."""

    model_config = ConfigDict(extra="forbid", json_schema_extra={"examples": [EXAMPLE]})

    obtained_at: Annotated[AwareDatetime, BeforeValidator(_timestamp)] = Field(
        description="When the subject consented, ISO 8601 with its zone; not in the future."
    )
    method: ConsentMethod = Field(
        description="How: checkbox (a web or app form), signature, verbal (recorded), ussd, "
        "sms, in_app, paper, other."
    )
    notice_version: Annotated[str, StringConstraints(min_length=1, max_length=64)] | None = Field(
        None, description="The version of the privacy notice the subject was shown."
    )
    notice_url: (
        Annotated[str, StringConstraints(max_length=500), BeforeValidator(_notice_url)] | None
    ) = Field(None, description="Where that notice is published (https://...).")
    purposes: list[Purpose] = Field(
        min_length=1,
        max_length=9,
        description="What the subject agreed to: identity_verification, aml_screening, "
        "fraud_prevention, credit_assessment, credit_report, background_check, "
        "statement_analysis, ongoing_monitoring, other.",
    )
    language: Annotated[str, BeforeValidator(_language)] = Field(
        description="The notice's language as ISO 639-1 (en, sw, fr, ha, yo, ig), with an "
        "optional region (en-KE)."
    )
    subject_reference: Annotated[str, StringConstraints(min_length=1, max_length=100)] | None = (
        Field(
            None,
            description="Your own reference for the subject (a customer number): a subject's "
            "records are found by it for access and erasure requests. Stored encrypted.",
        )
    )

    @field_validator("obtained_at")
    @classmethod
    def _not_in_future(cls, value: datetime) -> datetime:
        if value > utcnow() + CLOCK_SKEW:
            raise PydanticCustomError(
                "consent_in_future",
                "is in the future: send the time the subject consented, in UTC or with its zone",
            )
        return value

    @field_validator("purposes")
    @classmethod
    def _distinct(cls, value: list[str]) -> list[str]:
        return list(dict.fromkeys(value))

    @model_validator(mode="after")
    def _names_a_notice(self) -> Consent:
        if self.method != ATTESTED and self.notice_version is None and self.notice_url is None:
            raise PydanticCustomError(
                "consent_notice",
                "must name the notice the subject was shown: give notice_version or "
                "notice_url (or both)",
            )
        return self


ATTESTED = "attested"


def attested(purposes: tuple[str, ...]) -> Any:
    """The type of a ``consent`` that also takes ``true``, the bureau pull's first shape
    (accepted through API 1.x, CHANGELOG.md): the caller's attestation, recorded at the call's
    time with ``purposes``, method ``attested``. Anything else is read as the object."""

    def read(value: Any) -> Any:
        if value is False:
            raise PydanticCustomError(
                "consent_refused",
                "must be the subject's consent object (docs/privacy.md#consent): false says "
                "they did not consent, and this call needs their consent",
            )
        if value is True:
            return Consent.model_construct(
                _fields_set=set(),  # the idempotency fingerprint sees {}: the same on a retry
                obtained_at=utcnow(),
                method=ATTESTED,
                notice_version=None,
                notice_url=None,
                purposes=list(purposes),
                language=None,
                subject_reference=None,
            )
        return value

    return Annotated[Consent, BeforeValidator(read)]


@dataclass
class ConsentRecord:
    """A consent about to be stored with its call (``Call.consent``)."""

    id: str
    source: str  # api | attested | hosted | console
    body: dict[str, Any]
    subject_reference: str | None

    def row(
        self,
        vault: Vault,
        *,
        org_id: str,
        environment: str,
        request_id: str,
        endpoint: str,
        reference: str | None,
        identifier_hash: str | None,
    ) -> dict[str, Any]:
        return {
            "id": self.id,
            "org_id": org_id,
            "environment": environment,
            "request_id": request_id,
            "endpoint": endpoint,
            "reference": reference,
            "source": self.source,
            "subject_hash": subject_hash(vault, org_id, self.subject_reference),
            "identifier_hash": identifier_hash,
            "consent_encrypted": vault.encrypt(orjson.dumps(self.body).decode()),
            "created_at": utcnow(),
        }


CONSOLE = "console"


def console_notice_version(text: str) -> str:
    """The version of an attestation's text: a digest, so a changed text is a new version."""
    return f"console-attestation-{hashlib.sha256(text.encode()).hexdigest()[:12]}"


def attested_in_console(
    text: str, purposes: tuple[str, ...], user_id: str, subject_reference: str | None = None
) -> ConsentRecord:
    """The consent a console user attests on a form that processes a subject (a required
    checkbox with ``text``, the endpoint catalogue's): ``source: console``, method
    ``attested``, the text as shown, recorded at the submission, the user's id as
    ``attested_by``; stored with the call like the API's (``Call.consent``)."""
    body = {
        "obtained_at": utcnow().isoformat(),
        "method": ATTESTED,
        "notice_version": console_notice_version(text),
        "notice_url": None,
        "notice_text": text,
        "purposes": list(purposes),
        "language": "en",
        "subject_reference": subject_reference,
        "attested_by": user_id,
    }
    return ConsentRecord(new_id("cns"), CONSOLE, body, subject_reference)


def subject_hash(vault: Vault, org_id: str, subject_reference: str | None) -> str | None:
    """The keyed digest a subject's consent records are found by (per organisation)."""
    if subject_reference is None:
        return None
    return vault.lookup_hash("subject_reference", org_id, subject_reference)


def record_of(value: Consent | None) -> ConsentRecord | None:
    """What to store of a request's ``consent`` (None: it carried none)."""
    if value is None:
        return None
    source = ATTESTED if value.method == ATTESTED else "api"
    body = value.model_dump(mode="json", exclude_unset=False)
    return ConsentRecord(new_id("cns"), source, body, value.subject_reference)


@cache
def with_consent(model: type[BaseModel], required: bool) -> type[BaseModel]:
    """``model`` with a ``consent`` field (required, or optional): the one way every request
    schema gains it. A model that declares ``consent`` itself is kept as it is."""
    if "consent" in model.model_fields:
        return model
    description = (
        "Required: the data subject's consent to this processing (docs/privacy.md#consent)."
        if required
        else "Optional: the data subject's consent to this processing, stored encrypted with "
        "the call; its id is answered as `consent_id` (docs/privacy.md#consent)."
    )
    field: Any = (Consent, Field(description=description))
    if not required:
        field = (Consent | None, Field(None, description=description))
    consented: type[BaseModel] = create_model(
        model.__name__, __base__=model, __module__=model.__module__, consent=field
    )
    extra = model.model_config.get("json_schema_extra")
    given = extra.get("examples") if isinstance(extra, dict) else None
    if required and isinstance(extra, dict) and isinstance(given, list):
        examples = [
            {**e, "consent": EXAMPLE} if isinstance(e, dict) and "consent" not in e else e
            for e in given
        ]
        consented.model_config = {
            **model.model_config,
            "json_schema_extra": {**extra, "examples": examples},
        }
        consented.model_rebuild(force=True)
    return consented


def _absent(value: str | None) -> bool:
    return value is None


def consent_id_field() -> Any:
    """The ``consent_id`` of an answer: present when the call stored a consent, else left out
    (the route mechanism adds it to the answer, core/calls.py)."""
    return Field(
        None,
        exclude_if=_absent,
        description="The consent stored with this call (GET /v3/privacy/consents/{consent_id}); "
        "present only when the request carried `consent`.",
    )


def with_id(body: bytes, consent_id: str) -> bytes:
    """A call's JSON answer (an object) with ``consent_id`` added as its last field."""
    end = body.rstrip().rfind(b"}")
    if end < 0:
        return body
    head = body[:end].rstrip()
    separator = b"" if head.endswith(b"{") else b","
    return head + separator + b'"consent_id":' + orjson.dumps(consent_id) + body[end:]


def example(purposes: tuple[str, ...]) -> dict[str, Any]:
    """The documented consent object, for ``purposes``."""
    return {**EXAMPLE, "purposes": list(purposes)}


class Consented:
    """The sandbox hook of an endpoint that requires ``consent``: its test values carry the
    documented consent object (those that send a ``consent`` of their own keep it)."""

    def __init__(self, hook: Any, purposes: tuple[str, ...]) -> None:
        self._hook = hook
        self._consent = example(purposes)

    def test_values(self) -> list[TestValue]:
        return [self._with_consent(value) for value in self._hook.test_values()]

    def _with_consent(self, value: TestValue) -> TestValue:
        if value.body is not None and "consent" not in value.body:
            return replace(value, body={**value.body, "consent": self._consent})
        if value.multipart is not None and "consent" not in value.multipart.fields:
            fields = {**value.multipart.fields, "consent": orjson.dumps(self._consent).decode()}
            return replace(value, multipart=replace(value.multipart, fields=fields))
        return value

    def __getattr__(self, name: str) -> Any:
        return getattr(self._hook, name)


_NOT_THE_RESOURCE = frozenset({"request_id", "consent_id", "transaction_id"})


def answer_reference(body: bytes) -> str | None:
    """The resource a call's JSON answer names: its ``reference`` (a result), else its ``id``
    (a record), else its first ``..._id`` (``analysis_id``, ``bulk_id``)."""
    try:
        answer = orjson.loads(body)
    except orjson.JSONDecodeError:
        return None
    if not isinstance(answer, dict):
        return None
    for key in ("reference", "id"):
        if isinstance(answer.get(key), str):
            return str(answer[key])[:80]
    for key, value in answer.items():
        if key.endswith("_id") and key not in _NOT_THE_RESOURCE and isinstance(value, str):
            return value[:80]
    return None
