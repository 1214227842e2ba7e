"""Kenya's Business Registration Service (BRS) through Prembly (IdentityPass): company, business
name and LLP search with the CR12 particulars (directors, shareholders and their shares).

Sources, read through the project's documentation search:

* docs.prembly.com "Business Ownership Advance" (/docs/business-registration-service-brs-copy):
  ``POST https://api.prembly.com/verification/ke/brs/search/advanced`` with the headers
  ``x-api-key`` and ``app-id`` (as every Prembly endpoint), body ``{"check_type", "company_id"}``;
  ``check_type`` is ``CR12`` (company search), ``CR13`` (business search: business names) or
  ``LLP``; test data ``PVT/2016/028721``. Prembly's SDKs call the same path
  (``kenyaBusinessVerification``).
* docs.prembly.com "Response Codes and Verification Status": ``response_code`` "00" found,
  "01" not found, "02" registry unavailable, "03" insufficient Prembly wallet balance.

ASSUMPTIONS (the page's response sample is cut short in every copy we could read; written down
in docs/decisions.md): the record is Prembly's usual ``data`` object; the business is named in
``company_name``, ``business_name`` or ``name``; the CR12 people come as ``partners`` (BRS's own
word) or ``directors``/``shareholders`` lists, each with ``name``, ``type`` (e.g.
"Director/Shareholder"), ``nationality`` and ``shares`` (a list of ``{"name", "number"}`` or a
number). Every other key is read leniently and a body without a business name is garbage (02).
"""

from __future__ import annotations

from typing import Any

import httpx

from hakiki.engines.kyb.model import (
    Address,
    BeneficialOwner,
    Company,
    Director,
    Ownership,
    Party,
    PartyKind,
    Shareholder,
    percentages,
    status_of,
)
from hakiki.kyb.providers.base import (
    RegistryOutcome,
    RegistryQuery,
    RegistryResult,
    Upstream,
    iso_date,
    json_object,
    text,
)

PROVIDER = "prembly"
PATH = "/verification/ke/brs/search/advanced"
CHECK_TYPES = {"business_name": "CR13", "limited_liability_partnership": "LLP"}
KENYA_BO_THRESHOLD = 10.0  # Companies (Beneficial Ownership Information) Regulations 2020


class PremblyBrs:
    name = PROVIDER
    registry = "BRS (Kenya) via Prembly"

    def __init__(self, app_id: str, api_key: str, base_url: str, timeout: float) -> None:
        self._headers = {"x-api-key": api_key, "app-id": app_id, "accept": "application/json"}
        self._url = base_url.rstrip("/") + PATH
        self._http = Upstream(PROVIDER, "Prembly", timeout)

    def covers(self, query: RegistryQuery) -> bool:
        return query.country == "KE" and query.number is not None

    async def aclose(self) -> None:
        await self._http.aclose()

    async def lookup(self, query: RegistryQuery) -> RegistryResult:
        assert query.number is not None
        check_type = CHECK_TYPES.get(query.number.entity_type or "", "CR12")
        body = {"check_type": check_type, "company_id": query.number.number}
        response = await self._http.send("POST", self._url, json=body, headers=self._headers)
        if isinstance(response, RegistryResult):
            return response
        try:
            return self._interpret(response, query)
        except (ValueError, TypeError, KeyError, AttributeError) as exc:
            return self._http.unreadable(
                response, f"a body it could not read ({type(exc).__name__})"
            )

    def _interpret(self, response: httpx.Response, query: RegistryQuery) -> RegistryResult:
        status = response.status_code
        body = json_object(response)
        code = text((body or {}).get("response_code")) or ""
        reference = _reference(body or {})
        if status in (401, 402, 403) or code == "03":
            why = (
                "Prembly refused the look-up: its wallet balance is insufficient"
                if code == "03" or status == 402
                else f"Prembly refused the credentials (HTTP {status}): check "
                "HAKIKI_PREMBLY_APP_ID and HAKIKI_PREMBLY_API_KEY"
            )
            return self._http.result(RegistryOutcome.FAILED, why, reference)
        if status == 429:
            return self._http.result(
                RegistryOutcome.UNAVAILABLE, "Prembly rate-limited the look-up"
            )
        if status >= 500 or body is None:
            return self._http.unreadable(response, "no JSON body" if body is None else "an error")
        if code == "01":
            return self._http.result(
                RegistryOutcome.NOT_FOUND, "BRS holds no business with this number", reference
            )
        if code == "02":
            return self._http.result(
                RegistryOutcome.UNAVAILABLE, "Prembly reports the BRS unavailable", reference
            )
        data = body.get("data")
        if code != "00" or status >= 300 or not isinstance(data, dict):
            return self._http.unreadable(response, f"an unexpected body (response_code {code!r})")
        company = _company(data, query)
        if company is None:
            return self._http.unreadable(response, "a record without a business name")
        return RegistryResult(
            RegistryOutcome.FOUND,
            PROVIDER,
            company=company,
            ownership=_ownership(data) if query.ownership else None,
            reference=reference,
            message="found",
        )


def _reference(body: dict[str, Any]) -> str | None:
    verification = body.get("verification")
    return text(verification.get("reference"), 120) if isinstance(verification, dict) else None


def _first(data: dict[str, Any], *keys: str) -> str | None:
    for key in keys:
        if (value := text(data.get(key))) is not None:
            return value
    return None


def _company(data: dict[str, Any], query: RegistryQuery) -> Company | None:
    name = _first(data, "company_name", "business_name", "name", "companyName")
    if name is None:
        return None
    assert query.number is not None
    registry_status = _first(data, "status", "company_status", "business_status")
    address = _first(
        data,
        "physical_address",
        "registered_office",
        "address",
        "company_address",
        "postal_address",
    )
    return Company(
        name=name,
        number=_first(data, "registration_number", "company_number", "reg_no")
        or query.number.number,
        country="KE",
        entity_type=_first(data, "company_type", "type", "business_type")
        or query.number.entity_type,
        status=status_of(registry_status),
        registry_status=registry_status,
        registration_date=iso_date(
            data.get("registration_date") or data.get("date_of_registration")
        ),
        address=Address(address, "KE") if address else None,
    )


def _shares(value: Any) -> int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, str) and value.strip().replace(",", "").isdigit():
        return int(value.strip().replace(",", ""))
    if isinstance(value, list):
        counted = [
            _shares(item.get("number") if isinstance(item, dict) else item) for item in value
        ]
        known = [n for n in counted if n is not None]
        return sum(known) if known else None
    return None


def _party(person: dict[str, Any]) -> Party | None:
    name = _first(person, "name", "full_name", "fullName")
    if name is None:
        return None
    corporate = "corporate" in (text(person.get("id_type")) or "").lower()
    kind: PartyKind = "entity" if corporate else "person"
    nationality = text(person.get("nationality"), 40)
    code = nationality.upper() if nationality and len(nationality) == 2 else None
    if nationality and nationality.lower() in ("kenyan", "kenya"):
        code = "KE"
    return Party(name=name.title() if name.isupper() else name, kind=kind, nationality=code)


def _ownership(data: dict[str, Any]) -> Ownership:
    people = [p for p in data.get("partners") or [] if isinstance(p, dict)]
    people += [
        {**p, "type": "director"} for p in data.get("directors") or [] if isinstance(p, dict)
    ]
    people += [
        {**p, "type": "shareholder"} for p in data.get("shareholders") or [] if isinstance(p, dict)
    ]
    directors: list[Director] = []
    holders: list[Shareholder] = []
    for person in people:
        party = _party(person)
        if party is None:
            continue
        roles = (text(person.get("type")) or "director").lower()
        if "director" in roles or "secretary" in roles or "partner" in roles:
            role = "secretary" if "secretary" in roles else "director"
            directors.append(Director(party, role))
        shares = _shares(person.get("shares"))
        if "shareholder" in roles or shares:
            holders.append(Shareholder(party, shares, _share_class(person.get("shares"))))
    shareholders = percentages(tuple(holders))
    owners = tuple(
        BeneficialOwner(h.party, h.percentage, ("shareholding",), direct=True)
        for h in shareholders
        if h.party.kind == "person" and (h.percentage or 0) >= KENYA_BO_THRESHOLD
    )
    notes = (
        "Beneficial owners are derived from direct shareholdings of at least 10% "
        "(Kenya's threshold); indirect holdings are not in the CR12.",
    )
    return Ownership(
        directors=tuple(directors),
        shareholders=shareholders,
        beneficial_owners=owners,
        share_capital=text(data.get("share_capital") or data.get("nominal_capital")),
        notes=notes,
    )


def _share_class(value: Any) -> str | None:
    if isinstance(value, list) and value and isinstance(value[0], dict):
        return text(value[0].get("name"), 60)
    return None
