"""Nigeria's Corporate Affairs Commission (CAC) through Dojah: the second provider behind (or
ahead of) Prembly for a company, business name or incorporated trustees by number.

Sources (docs/decisions.md, "Issue 39: the chain for tax, KYB and vehicle"):

* api-docs.dojah.io "Lookup CAC (Basic, Advance)": ``GET {base}/api/v1/kyc/cac/advance`` with
  the ``AppId`` and ``Authorization`` headers and the query ``rc`` (the RC number), ``class``
  and ``type`` (``co``, ``bn`` or ``it``); "it returns information on company's board of
  directors". The sample answer is ``{"entity": {"Branch_Address", "City", "Classification",
  "Date_of_Registration", "Email", "Head_Office_Address", "LGA", "Name_of_Company",
  "Number_of_Affiliates", "RC_Number", "Share_capital", ...}}``, cut short in every copy we
  could read. The same page's curl example sends ``class=advance`` (its table says
  "premium"); Dojah's generated SDKs (dojah-inc/dojah-sdks ``KYB_getAdvancedCac``) send
  ``class=advance`` and ``type=co``: so does this adapter.
* Errors as every Dojah endpoint (hakiki.core.providers.dojah).

ASSUMPTIONS (not documented): the people come in an ``Affiliates`` list (the sample counts them
in ``Number_of_Affiliates``) or ``affiliates``/``directors``, each person in CAC's own fields
(``firstname``, ``otherName``, ``surname``, ``affiliateTypeFk.name``, ``numSharesAlloted``),
read as Prembly's Advance CAC reads them (prembly_cac.py); a ``Status``/``status`` field gives
the company's status. LP and LLP numbers are sent as ``type=co`` (Dojah documents no other
type). Phone numbers, e-mails and home addresses are never read.
"""

from __future__ import annotations

from typing import Any

import httpx

from hakiki.core.providers import dojah
from hakiki.kyb.providers.base import (
    RegistryOutcome,
    RegistryQuery,
    RegistryResult,
    Upstream,
    json_object,
    text,
)
from hakiki.kyb.providers.prembly_cac import company_from, ownership_from

PROVIDER = "dojah"
PATH = "/api/v1/kyc/cac/advance"
TYPES = {"business_name": "bn", "incorporated_trustees": "it"}
_CLASSES = {"BUSINESS NAME": "BN", "COMPANY": "RC", "INCORPORATED TRUSTEES": "IT"}
_VERDICTS = {
    "failed": RegistryOutcome.FAILED,
    "rejected": RegistryOutcome.FAILED,
    "unavailable": RegistryOutcome.UNAVAILABLE,
    "not_found": RegistryOutcome.NOT_FOUND,
}


class DojahCac:
    name = PROVIDER
    registry = "CAC (Nigeria) via Dojah"

    def __init__(self, app_id: str, secret_key: str, base_url: str, timeout: float) -> None:
        self._headers = dojah.headers(app_id, secret_key)
        self._url = base_url.rstrip("/") + PATH
        self._http = Upstream(PROVIDER, "Dojah", timeout)

    def covers(self, query: RegistryQuery) -> bool:
        return query.country == "NG" and query.number is not None

    async def aclose(self) -> None:
        await self._http.aclose()

    async def lookup(self, query: RegistryQuery) -> RegistryResult:
        assert query.number is not None
        digits = "".join(ch for ch in query.number.number if ch.isdigit())
        params = {
            "rc": digits,
            "class": "advance",
            "type": TYPES.get(query.number.entity_type or "", "co"),
        }
        response = await self._http.send("GET", self._url, params=params, headers=self._headers)
        if isinstance(response, RegistryResult):
            return response
        try:
            return self._interpret(response, query, digits)
        except (ValueError, TypeError, KeyError, AttributeError) as exc:
            return self._http.unreadable(
                response, f"a body it could not read ({type(exc).__name__})"
            )

    def _interpret(
        self, response: httpx.Response, query: RegistryQuery, digits: str
    ) -> RegistryResult:
        body = json_object(response)
        verdict = dojah.read_status(response.status_code, dojah.said(body or {}, digits), "CAC")
        if verdict is not None:
            outcome, message = verdict
            if outcome == "not_found":
                message = "CAC holds no business with this number (Dojah)"
            return self._http.result(_VERDICTS[outcome], message)
        entity = (body or {}).get("entity")
        if not isinstance(entity, dict):
            return self._http.unreadable(response, "no entity" if body else "no JSON body")
        record = _as_cac(entity)
        company = company_from(record, query)
        if company is None:
            return self._http.unreadable(response, "a record without a company name")
        return RegistryResult(
            RegistryOutcome.FOUND,
            PROVIDER,
            company=company,
            ownership=ownership_from(record) if query.ownership else None,
            reference=text(entity.get("reference") or entity.get("reference_id"), 120),
            message="found",
        )


def _first(entity: dict[str, Any], *keys: str) -> Any:
    for key in keys:
        value = entity.get(key)
        if value not in (None, "", []):
            return value
    return None


def _as_cac(entity: dict[str, Any]) -> dict[str, Any]:
    """Dojah's field names as CAC's (the ones prembly_cac reads)."""
    kind = text(_first(entity, "Classification", "classification", "type_of_company"))
    people: list[Any] = []
    for key in ("Affiliates", "affiliates", "directors", "Directors"):
        listed = entity.get(key)
        if isinstance(listed, list):
            people += listed
    return {
        "company_name": _first(entity, "Name_of_Company", "company_name", "Company_Name"),
        "rc_number": _first(entity, "RC_Number", "rc_number"),
        "company_status": _first(entity, "Status", "status", "company_status"),
        "company_address": _first(entity, "Head_Office_Address", "Branch_Address", "address"),
        "city": _first(entity, "City", "city"),
        "lga": _first(entity, "LGA", "lga"),
        "state": _first(entity, "State", "state"),
        "classification": _CLASSES.get((kind or "").upper(), kind),
        "registrationDate": _first(entity, "Date_of_Registration", "date_of_registration"),
        "share_capital": _first(entity, "Share_capital", "share_capital"),
        "affiliates": people,
    }
