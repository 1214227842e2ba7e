"""What other domains ask of credit (no HTTP, no billing, nothing stored: the caller charges
and keeps what it needs): whether a bureau reports on a country's national identity numbers
for a key, and that report for one number, with the person's consent taken by the caller."""

from __future__ import annotations

from hakiki.core.clock import utcnow
from hakiki.core.runtime import Runtime
from hakiki.credit import sandbox, validation
from hakiki.credit.bureau import BUREAU_OF, NO_PUBLIC_API
from hakiki.credit.providers.base import BureauPull, BureauQuery, PullOutcome
from hakiki.credit.providers.registry import CreditBureaus

# The bureau's identity type of each country's national identity number.
NATIONAL_ID_TYPE = {"KE": "national_id", "NG": "nin"}


def _probe(country: str) -> BureauQuery:
    return BureauQuery(country, NATIONAL_ID_TYPE[country], "", "new_application", None)


def national_id_unavailable(runtime: Runtime, *, live: bool, country: str) -> str | None:
    """Why no bureau report on ``country``'s national identity numbers can be had with a
    live (or sandbox) key; None when one can."""
    if country in NO_PUBLIC_API:
        return f"Hakiki has no credit bureau channel in {country}: {NO_PUBLIC_API[country]}."
    if country not in NATIONAL_ID_TYPE:
        served = ", ".join(f"{c} ({b})" for c, b in BUREAU_OF.items())
        return f"Hakiki has no credit bureau channel in {country}; it reports in {served}."
    if live and runtime.part(CreditBureaus).find(_probe(country)) is None:
        return (
            f"no {BUREAU_OF[country]} credentials are configured on this server, so live "
            f"credit bureau reports in {country} are not available (sandbox keys can test them)."
        )
    return None


async def national_id_report(
    runtime: Runtime, *, live: bool, country: str, id_number: str
) -> BureauPull:
    """The bureau's report on a national identity number (a 400 ``ApiError`` naming
    ``id_number`` when it is not in the bureau's format). Live keys ask the configured bureau
    (``UNAVAILABLE`` when none is), sandbox keys the sandbox bureau."""
    query = validation.query_of(
        country, NATIONAL_ID_TYPE[country], id_number, "new_application", None
    )
    if not live:
        return sandbox.BUREAU.answer(query, utcnow())
    provider = runtime.part(CreditBureaus).find(query)
    if provider is None:
        reason = national_id_unavailable(runtime, live=live, country=country)
        return BureauPull(PullOutcome.UNAVAILABLE, BUREAU_OF[country], None, reason or "")
    return await provider.pull(query)
