"""Which check types a key can put in a package now: the data's own availability, and the
credit bureau check only where this server reaches the country's bureau (sandbox keys always
reach the sandbox bureau; live keys need the bureau's credentials)."""

from __future__ import annotations

from dataclasses import replace

from hakiki.background.check_types import BY_COUNTRY, CheckType
from hakiki.core.runtime import Runtime
from hakiki.credit import service as credit_service


def effective(runtime: Runtime, live: bool, check: CheckType, country: str | None) -> CheckType:
    """``check`` as a key of ``live`` sees it in ``country`` (None: in any country)."""
    if check.code != "credit_bureau" or not check.available:
        return check
    countries = [country] if country else [c for c in check.countries if offered_in(c, check)]
    reasons = [
        credit_service.national_id_unavailable(runtime, live=live, country=c) for c in countries
    ]
    if any(reason is None for reason in reasons):
        return check
    return replace(check, available=False, unavailable_reason=" ".join(map(str, reasons)))


def offered_in(country: str, check: CheckType) -> bool:
    found = BY_COUNTRY[country].get(check.code)
    return found is not None and found.available


def offered(runtime: Runtime, live: bool, country: str) -> dict[str, CheckType]:
    """The check types of ``country`` as a key of ``live`` sees them."""
    return {
        code: effective(runtime, live, check, country)
        for code, check in BY_COUNTRY[country].items()
    }
