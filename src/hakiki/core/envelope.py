"""The result envelope every result of the API answers, and its one table of meanings
(docs/api.md#the-result-envelope): the spec's fields for AML-with-ID, taken by every category,
with the category's own payload in ``data`` and one verdict vocabulary (``Verdict``)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import TYPE_CHECKING, Any, Literal, Self, TypeVar

from pydantic import BaseModel, Field

from hakiki.core.endpoints import TestValue
from hakiki.core.privacy.consent import consent_id_field

if TYPE_CHECKING:
    from hakiki.core.calls import Call
    from hakiki.core.wallet.service import Charge

# The version of the result shape (CHANGELOG.md): 1 was the first stable one, the envelope
# (1.1 added ``consent_id``); 2 puts the jobs (bulk scans, statements, background requests,
# verification sessions) in it; 3 the monitoring enrolments (a baseline screening each).
API_VERSION = "3.1.0"

# ``provider`` of every sandbox answer, and of live answers our own engines compute (scores,
# screening, fraud scans, documents, statements): one value each, in every category.
SANDBOX_PROVIDER = "hakiki-sandbox"
ENGINE_PROVIDER = "hakiki"


class Outcome(StrEnum):
    """``status``: where the result stands (one meaning in every category)."""

    VERIFIED = "VERIFIED"
    COMPLETED = "COMPLETED"
    INCOMPLETE = "INCOMPLETE"
    NOT_FOUND = "NOT_FOUND"
    SOURCE_UNAVAILABLE = "SOURCE_UNAVAILABLE"
    MISMATCH = "MISMATCH"
    PENDING = "PENDING"
    FAILED = "FAILED"


@dataclass(frozen=True)
class OutcomeRow:
    response_code: str
    ok: bool
    found: bool
    soft_error: bool
    async_pending: bool
    billable: bool
    message: str


OUTCOMES: dict[Outcome, OutcomeRow] = {
    Outcome.VERIFIED: OutcomeRow("00", True, True, False, False, True, "Identity verified."),
    Outcome.COMPLETED: OutcomeRow("00", True, True, False, False, True, "Completed."),
    Outcome.INCOMPLETE: OutcomeRow(
        "03",
        False,
        True,
        True,
        False,
        True,
        "Part of the request could not be performed; only what ran was charged.",
    ),
    Outcome.NOT_FOUND: OutcomeRow(
        "01", True, False, False, False, True, "No record was found for this number."
    ),
    Outcome.SOURCE_UNAVAILABLE: OutcomeRow(
        "02",
        False,
        False,
        True,
        False,
        False,
        "The registry is unavailable right now; nothing was charged. Retry later.",
    ),
    Outcome.MISMATCH: OutcomeRow(
        "04",
        True,
        True,
        False,
        False,
        True,
        "A record was found but its name does not match the name supplied.",
    ),
    Outcome.PENDING: OutcomeRow(
        "05",
        True,
        False,
        False,
        True,
        True,
        "The registry is answering slowly; the verification continues in the background.",
    ),
    Outcome.FAILED: OutcomeRow(
        "09",
        False,
        False,
        True,
        False,
        False,
        "The verification could not be completed; nothing was charged.",
    ),
}


class Billing(BaseModel):
    charged: bool = Field(description="Whether this call debited the wallet.")
    amount: int = Field(description="Amount debited, in minor units of `currency`.")
    currency: str
    transaction_id: str | None = Field(description="The wallet transaction, when charged.")

    @classmethod
    def of(cls, charge: Charge | None, currency: str, **more: Any) -> Self:
        """What a call's charge (None: not charged) says to its caller."""
        return cls(
            charged=charge is not None,
            amount=charge.amount if charge else 0,
            currency=charge.currency if charge else currency,
            transaction_id=charge.transaction_id if charge else None,
            **more,
        )


class Verdict(StrEnum):
    """``verdict``: one vocabulary over every category's own words (which stay in ``data``)."""

    PASS = "PASS"
    REVIEW = "REVIEW"
    FAIL = "FAIL"


class ResultBase(BaseModel):
    """Fields of every billable call's result: verifications, screenings and fraud scans."""

    request_id: str = Field(description="Identifier of the request; also in X-Request-Id.")
    live: bool = Field(description="true for live keys, false in sandbox.")
    reference: str = Field(description="This result's reference, to quote (and poll, for KYC).")
    billing: Billing


class Envelope(BaseModel):
    """The result envelope: every result of the API, in every category
    (docs/api.md#the-result-envelope); the category's payload is ``data``."""

    request_id: str = Field(description="Identifier of the request; also in X-Request-Id.")
    live: bool = Field(description="true for live keys, false in sandbox.")
    ok: bool = Field(
        description="false only when the call could not be completed in full "
        "(status SOURCE_UNAVAILABLE, FAILED or INCOMPLETE)."
    )
    response_code: str = Field(
        description="00 VERIFIED or COMPLETED, 01 NOT_FOUND, 02 SOURCE_UNAVAILABLE, "
        "03 INCOMPLETE, 04 MISMATCH, 05 PENDING, 09 FAILED."
    )
    status: Outcome = Field(
        description="Where the result stands: VERIFIED (a number checked against its "
        "registry), COMPLETED (a screening, scan, score, report or finished job), NOT_FOUND, "
        "MISMATCH, INCOMPLETE (part of it could not run), PENDING (it continues: poll or "
        "wait for the webhook), SOURCE_UNAVAILABLE, FAILED."
    )
    verdict: Verdict | None = Field(
        description="PASS, REVIEW or FAIL: the result's verdict in one vocabulary, mapped "
        "from the category's own words (kept in data; docs/api.md#verdicts); null while "
        "PENDING, when the call failed, and for results that judge nothing."
    )
    found: bool = Field(
        description="Whether the source held something about the subject: a registry or "
        "bureau record, a watch-list hit, a fraud record; for what is computed from the "
        "request alone (scores, documents, statements, jobs, reports), true once completed."
    )
    soft_error: bool = Field(
        description="A non-fatal problem upstream: retry later (nothing, or only what ran, "
        "was charged)."
    )
    async_pending: bool = Field(
        description="true while the result continues in the background (status PENDING): "
        "poll it by its reference."
    )
    reference: str = Field(
        description="This result's reference: to quote, and to poll for a PENDING one."
    )
    message: str = Field(description="Human-readable outcome.")
    data: Any = Field(
        description="The category's own payload; its `status` is FOUND, "
        "NOT_FOUND or PENDING where the category looks a subject up."
    )
    provider: str = Field(
        description="Who answered: the upstream registry or bureau for live look-ups, "
        f"`{ENGINE_PROVIDER}` for our own engines, `{SANDBOX_PROVIDER}` for every sandbox "
        "answer."
    )
    billing: Billing
    consent_id: str | None = consent_id_field()


E = TypeVar("E", bound=Envelope)


def provider_of(live: bool, upstream: str | None = None) -> str:
    """``provider`` of an answer: the sandbox's one value, or the upstream's, or ours."""
    if not live:
        return SANDBOX_PROVIDER
    return upstream or ENGINE_PROVIDER


DataStatus = Literal["FOUND", "NOT_FOUND", "PENDING"]


def data_status(outcome: Outcome, found: bool) -> DataStatus:
    """``data.status`` of a look-up: PENDING while it continues, never NOT_FOUND then."""
    if outcome is Outcome.PENDING:
        return "PENDING"
    return "FOUND" if found else "NOT_FOUND"


def enveloped(
    model: type[E],
    call: Call,
    charge: Charge | None,
    *,
    reference: str,
    data: Any,
    outcome: Outcome = Outcome.COMPLETED,
    verdict: Verdict | None = None,
    message: str | None = None,
    found: bool | None = None,
    provider: str | None = None,
    billing: Billing | None = None,
) -> E:
    """One result in the envelope, for a call's ``render`` (``charge``: what it debited)."""
    fields = envelope_fields(outcome)
    fields["verdict"] = verdict
    if message is not None:
        fields["message"] = message
    if found is not None:
        fields["found"] = found
    live = call.principal.live
    return model(
        request_id=call.request_id,
        live=live,
        reference=reference,
        data=data,
        provider=provider if provider is not None else provider_of(live),
        billing=billing if billing is not None else Billing.of(charge, call.principal.currency),
        **fields,
    )


def rendered(model: type[E], call: Call, charge: Charge | None, **fields: Any) -> bytes:
    """``enveloped`` as the JSON body a call answers."""
    return enveloped(model, call, charge, **fields).model_dump_json().encode()


# The verdict of a look-up of a number in its registry (KYC, KYB, tax, vehicle, the bureau,
# AML-with-ID's verification): a record that matches passes, a name that does not is for a
# person to review, no record fails; nothing is judged while PENDING or when the look-up failed.
LOOKUP_VERDICTS: dict[Outcome, Verdict | None] = {
    Outcome.VERIFIED: Verdict.PASS,
    Outcome.COMPLETED: Verdict.PASS,
    Outcome.MISMATCH: Verdict.REVIEW,
    Outcome.NOT_FOUND: Verdict.FAIL,
    Outcome.INCOMPLETE: Verdict.REVIEW,
    Outcome.PENDING: None,
    Outcome.SOURCE_UNAVAILABLE: None,
    Outcome.FAILED: None,
}


def envelope_fields(outcome: Outcome) -> dict[str, Any]:
    """The envelope's fields that follow from the outcome (``verdict`` a look-up's)."""
    row = OUTCOMES[outcome]
    return {
        "ok": row.ok,
        "response_code": row.response_code,
        "status": outcome,
        "verdict": LOOKUP_VERDICTS[outcome],
        "found": row.found,
        "soft_error": row.soft_error,
        "async_pending": row.async_pending,
        "message": row.message,
    }


_TOP_LEVEL = frozenset(Envelope.model_fields) | {"http_status", "error", "details"}


def in_data(values: Sequence[TestValue], also: frozenset[str] = frozenset()) -> list[TestValue]:
    """Sandbox test values whose expectations name the payload's fields (``risk.level``), with
    those paths moved under ``data.`` as the envelope carries them; the envelope's own fields
    and an error's stay where they are, but for ``also`` (a payload field named like one of
    the envelope's: a document's ``verdict``)."""
    return [
        replace(
            value,
            expect={
                (
                    path
                    if value.expect.get("http_status", 200) >= 400
                    or (path.split(".", 1)[0] in _TOP_LEVEL and path.split(".", 1)[0] not in also)
                    else f"data.{path}"
                ): expected
                for path, expected in value.expect.items()
            },
        )
        for value in values
    ]


class InData:
    """An endpoint's sandbox hook whose test values name payload fields at the top level (they
    were written before the envelope): the same hook, its expectations under ``data.``."""

    def __init__(self, hook: Any, also: frozenset[str] = frozenset()) -> None:
        self._hook = hook
        self._also = also

    def test_values(self) -> list[TestValue]:
        return in_data(self._hook.test_values(), self._also)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._hook, name)


def payload_answer(
    result: type[E],
    call: Call,
    charge: Charge | None,
    *,
    reference: str,
    verdict: Verdict | None,
    found: bool | None = None,
    **payload: Any,
) -> bytes:
    """A computed result (a scan, a score, a decision) in the envelope: ``payload`` is its
    ``data`` model's fields, ``status`` COMPLETED."""
    data_model: type[BaseModel] = result.model_fields["data"].annotation  # type: ignore[assignment]
    return rendered(
        result,
        call,
        charge,
        reference=reference,
        data=data_model(**payload),
        verdict=verdict,
        found=found,
    )


def example(
    data: dict[str, Any],
    *,
    reference: str,
    outcome: Outcome = Outcome.COMPLETED,
    verdict: Verdict | None = None,
    message: str,
) -> dict[str, Any]:
    """A sandbox answer in the envelope, for a model's OpenAPI example where the sandbox cannot
    be captured answering it (a job's later state, a request reinitiated after it expired)."""
    fields = envelope_fields(outcome)
    return {
        "request_id": "req_06h0qct25r1y07hn5km9hdw6s0",
        "live": False,
        "ok": fields["ok"],
        "response_code": fields["response_code"],
        "status": outcome.value,
        "verdict": verdict.value if verdict else None,
        "found": fields["found"],
        "soft_error": fields["soft_error"],
        "async_pending": fields["async_pending"],
        "reference": reference,
        "message": message,
        "data": data,
        "provider": SANDBOX_PROVIDER,
        "billing": {"charged": False, "amount": 0, "currency": "KES", "transaction_id": None},
    }
