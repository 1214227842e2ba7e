"""Bureau pulls: the applicant's consent checked (by the schema), the number checked against
its type's format, the report asked of the country's bureau (or the sandbox), normalised, kept
encrypted under a reference the organisation can decide with, and charged once when the bureau
answered (found or not found; an unavailable or refusing bureau is not charged)."""

from __future__ import annotations

from sqlalchemy.ext.asyncio import AsyncConnection

from hakiki.core.billing import Charge
from hakiki.core.calls import Call, Subject, finish_call, hold_price
from hakiki.core.clock import utcnow
from hakiki.core.envelope import (
    OUTCOMES,
    Billing,
    Outcome,
    data_status,
    envelope_fields,
    provider_of,
)
from hakiki.core.errors import ApiError
from hakiki.credit import repository, sandbox, validation
from hakiki.credit.providers.base import BureauPull, BureauQuery, PullOutcome
from hakiki.credit.providers.registry import CreditBureaus
from hakiki.credit.schemas import BureauData, BureauRequest, BureauResult

BUREAU_OF = {"KE": "Metropol", "NG": "FirstCentral"}
# Countries whose licensed bureaus document no API for third parties (docs/decisions.md, "Uganda
# and Tanzania: credit bureaus and tax"): asked, they answer 503 in both modes, never a guess.
NO_PUBLIC_API = {
    "UG": "none of Uganda's licensed credit reference bureaus (Metropol Uganda, Compuscan/CRB "
    "Africa) documents an API for third parties publicly",
    "TZ": "none of Tanzania's licensed credit reference bureaus (Creditinfo Tanzania, Dun & "
    "Bradstreet Credit Bureau Tanzania) documents an API for third parties publicly",
}
_OUTCOMES = {
    PullOutcome.FOUND: Outcome.VERIFIED,
    PullOutcome.NOT_FOUND: Outcome.NOT_FOUND,
    PullOutcome.UNAVAILABLE: Outcome.SOURCE_UNAVAILABLE,
    PullOutcome.FAILED: Outcome.FAILED,
}
_MESSAGES = {
    Outcome.VERIFIED: "Bureau report retrieved.",
    Outcome.NOT_FOUND: "The bureau holds no record for this number.",
    Outcome.SOURCE_UNAVAILABLE: "The bureau is unavailable right now; nothing was charged. "
    "Retry later.",
    Outcome.FAILED: "The bureau refused the request; nothing was charged.",
}


async def _live(call: Call, query: BureauQuery) -> BureauPull:
    provider = call.runtime.part(CreditBureaus).find(query)
    if provider is None:
        raise ApiError(
            503,
            "channel_unavailable",
            f"Credit bureau reports in {query.country} ({BUREAU_OF[query.country]}) by "
            f"{query.id_type} are not available in live mode: no bureau credentials are "
            "configured on this server. Nothing was charged; sandbox keys can test them.",
        )
    await hold_price(call)
    return await provider.pull(query)


def refuse_undocumented(country: str) -> None:
    """503 for a country whose bureaus document no API, before anything is held or charged."""
    reason = NO_PUBLIC_API.get(country)
    if reason is not None:
        raise ApiError(
            503,
            "channel_unavailable",
            f"Credit bureau reports in {country} are not available, in sandbox or live mode: "
            f"{reason}. Nothing was charged.",
        )


async def pull(call: Call, body: BureauRequest) -> bytes:
    refuse_undocumented(body.country_code)
    query = validation.bureau_query(body)
    if call.principal.live:
        answer = await _live(call, query)
    else:
        answer = sandbox.BUREAU.answer(query, utcnow())
    outcome = _OUTCOMES[answer.outcome]
    reference = "crb_" + call.request_id.removeprefix("req_")
    vault, principal = call.runtime.vault, call.principal
    report = answer.report

    async def write(conn: AsyncConnection) -> None:
        assert report is not None
        await repository.save_report(
            conn,
            {
                "reference": reference,
                "org_id": principal.org_id,
                "environment": principal.environment,
                "request_id": call.request_id,
                "bureau": answer.bureau,
                "subject_hash": vault.lookup_hash(query.country, query.id_type, query.id_number),
                "report_encrypted": vault.encrypt(report.model_dump_json()),
                "created_at": utcnow(),
            },
        )

    def render(charge: Charge | None) -> bytes:
        result = BureauResult(
            request_id=call.request_id,
            live=principal.live,
            reference=reference,
            provider=provider_of(principal.live, answer.bureau),
            billing=Billing.of(charge, principal.currency),
            data=BureauData(status=data_status(outcome, report is not None), report=report),
            **{**envelope_fields(outcome), "message": _MESSAGES[outcome]},
        )
        return result.model_dump_json().encode()

    return await finish_call(
        call,
        billable=OUTCOMES[outcome].billable,
        response_code=OUTCOMES[outcome].response_code,
        subject=Subject(query.country, query.id_type, query.id_number),
        render=render,
        description=f"Credit bureau report: {answer.bureau} {query.country} ({outcome.value})",
        write=write if report is not None else None,
    )
