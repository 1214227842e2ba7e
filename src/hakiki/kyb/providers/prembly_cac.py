"""Nigeria's Corporate Affairs Commission (CAC) through Prembly (IdentityPass): a company,
business name or incorporated trustees by number, with its directors, shareholders and persons
with significant control ("Advance CAC").

Sources, read through the project's documentation search (docs/decisions.md, "Nigeria: TIN,
CAC and plates"):

* docs.prembly.com "Advance CAC" (/docs/advance-cac-copy): ``POST
  https://api.prembly.com/verification/cac/advance`` with the headers ``app-id`` and
  ``x-api-key``, body ``{"rc_number", "company_type", "company_name"}``; ``company_type`` is BN,
  RC or IT (default RC), ``company_name`` optional; test data ``rc_number`` 092932, RC. The
  sample answer's ``data`` is a LIST of records, each with ``company_id``, ``rc_number``,
  ``company_name``, ``state``, ``company_address``, ``company_status``, ``city``,
  ``branchAddress``, ``lga``, ``entity_type``, ``registrationDate``.
* docs.prembly.com "Know Your Business": CAC Advanced "returns company name, registration
  date, company classification (BN, RC, IT, LP, LLP), registered address, share capital, and
  director profiles".
* "Response Codes and Verification Status": ``response_code`` "00" found, "01" not found,
  "02" source unavailable, "03" insufficient Prembly balance.

ASSUMPTIONS (the sample is cut short after ``registrationDate`` in every copy we could read):
the people come in a ``directors`` list (an integrator's open-source client reads it so), or
``affiliates``/``shareholders``/``persons_with_significant_control`` lists, each person with
``firstname``, ``otherName`` and ``surname`` (CAC's own field names; ``name`` too), a role in
``affiliateTypeFk.name`` (or ``type``/``role``: DIRECTOR, SECRETARY, SHAREHOLDER, PERSON WITH
SIGNIFICANT CONTROL...), shares in ``numSharesAlloted``/``shares``, ``isCorporate`` for a
corporate holder, ``nationality``; the share capital in ``share_capital``/``shareCapital``. A
record without a company name is garbage (02). Phone numbers, e-mails and home addresses in the
same objects are never read.

Beneficial owners: Nigeria's threshold of significant control is 5% of the shares or votes
(Companies and Allied Matters Act 2020, s. 119; Persons with Significant Control Regulations
2022); listed persons with significant control are owners whatever their holding.
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
PATH = "/verification/cac/advance"
COMPANY_TYPES = {
    "business_name": "BN",
    "incorporated_trustees": "IT",
    "limited_partnership": "LP",
    "limited_liability_partnership": "LLP",
}
NIGERIA_BO_THRESHOLD = 5.0  # CAMA 2020 s. 119; PSC Regulations 2022
_PEOPLE = ("directors", "affiliates", "shareholders", "persons_with_significant_control", "psc")
_LIST_ROLES = {
    "directors": "director",
    "shareholders": "shareholder",
    "persons_with_significant_control": "person with significant control",
    "psc": "person with significant control",
}


class PremblyCac:
    name = PROVIDER
    registry = "CAC (Nigeria) via Prembly"

    def __init__(self, app_id: str, api_key: str, base_url: str, timeout: float) -> None:
        self._headers = {"x-api-key": api_key, "app-id": app_id, "accept": "application/json"}
        self._url = base_url.rstrip("/") + PATH
        self._http = Upstream(PROVIDER, "Prembly", timeout)

    def covers(self, query: RegistryQuery) -> bool:
        return query.country == "NG" and query.number is not None

    async def aclose(self) -> None:
        await self._http.aclose()

    async def lookup(self, query: RegistryQuery) -> RegistryResult:
        assert query.number is not None
        number = query.number
        digits = "".join(ch for ch in number.number if ch.isdigit())
        body = {
            "rc_number": digits,
            "company_type": COMPANY_TYPES.get(number.entity_type or "", "RC"),
        }
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
        verification = (body or {}).get("verification")
        reference = (
            text(verification.get("reference"), 120) if isinstance(verification, dict) else None
        )
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
                RegistryOutcome.NOT_FOUND, "CAC holds no business with this number", reference
            )
        if code == "02":
            return self._http.result(
                RegistryOutcome.UNAVAILABLE, "Prembly reports the CAC unavailable", reference
            )
        record = _record(body.get("data"), query)
        if code != "00" or status >= 300 or record is None:
            return self._http.unreadable(response, f"an unexpected body (response_code {code!r})")
        company = company_from(record, query)
        if company is None:
            return self._http.unreadable(response, "a record without a company name")
        return RegistryResult(
            RegistryOutcome.FOUND,
            PROVIDER,
            company=company,
            ownership=ownership_from(record) if query.ownership else None,
            reference=reference,
            message="found",
        )


def _record(data: Any, query: RegistryQuery) -> dict[str, Any] | None:
    """The record for the number asked: ``data`` is a list (Advance CAC) or one object."""
    if isinstance(data, dict):
        return data
    if not isinstance(data, list):
        return None
    records = [r for r in data if isinstance(r, dict)]
    assert query.number is not None
    digits = "".join(ch for ch in query.number.number if ch.isdigit())
    same = [r for r in records if _digits(r.get("rc_number")) == digits]
    chosen = same or records
    return chosen[0] if chosen else None


def _digits(value: Any) -> str:
    return "".join(ch for ch in (text(value) or "") if ch.isdigit())


def _first(data: dict[str, Any], *keys: str) -> str | None:
    for key in keys:
        if (value := text(data.get(key))) is not None:
            return value
    return None


def company_from(data: dict[str, Any], query: RegistryQuery) -> Company | None:
    name = _first(data, "company_name", "companyName", "approvedName", "name")
    if name is None:
        return None
    assert query.number is not None
    registry_status = _first(data, "company_status", "status")
    address = _first(data, "company_address", "address", "branchAddress")
    if address is None:
        parts = [_first(data, key) for key in ("city", "lga", "state")]
        address = ", ".join(dict.fromkeys(p for p in parts if p)) or None
    kind = _first(data, "entity_type", "company_type", "classification")
    return Company(
        name=name,
        number=query.number.number,
        country="NG",
        entity_type=query.number.entity_type or _entity_type(kind),
        status=status_of(registry_status),
        registry_status=registry_status,
        registration_date=iso_date(data.get("registrationDate") or data.get("registration_date")),
        address=Address(address, "NG") if address else None,
    )


def _entity_type(kind: str | None) -> str | None:
    types = {"RC": "company", "BN": "business_name", "IT": "incorporated_trustees"}
    types |= {"LP": "limited_partnership", "LLP": "limited_liability_partnership"}
    return types.get((kind or "").upper(), kind.lower() if kind else None)


def _shares(value: Any) -> int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, str) and value.strip().replace(",", "").isdigit():
        return int(value.strip().replace(",", ""))
    return None


def _role(person: dict[str, Any], listed_in: str) -> str:
    kind = person.get("affiliateTypeFk")
    named = text(kind.get("name")) if isinstance(kind, dict) else None
    word = named or _first(person, "type", "role", "affiliate_type")
    return (word or _LIST_ROLES.get(listed_in, "director")).lower()


def _party(person: dict[str, Any]) -> Party | None:
    parts = [_first(person, key) for key in ("firstname", "otherName", "surname")]
    words = [p for p in parts if p and p.upper() != "N/A"]
    name = " ".join(words) if words else _first(person, "name", "full_name", "corporationName")
    if name is None:
        return None
    corporate = person.get("isCorporate") is True or bool(_first(person, "corporationName"))
    kind: PartyKind = "entity" if corporate else "person"
    nationality = text(person.get("nationality"), 40)
    code = nationality.upper() if nationality and len(nationality) == 2 else None
    if nationality and nationality.lower() in ("nigerian", "nigeria"):
        code = "NG"
    return Party(name=name.title() if name.isupper() else name, kind=kind, nationality=code)


def ownership_from(data: dict[str, Any]) -> Ownership:
    directors: list[Director] = []
    holders: list[Shareholder] = []
    controllers: list[Party] = []
    seen: set[tuple[str, str]] = set()
    for listed_in in _PEOPLE:
        for person in data.get(listed_in) or []:
            if not isinstance(person, dict) or (party := _party(person)) is None:
                continue
            role = _role(person, listed_in)
            if (party.name, role) in seen:
                continue
            seen.add((party.name, role))
            if "director" in role or "secretary" in role:
                directors.append(
                    Director(party, "secretary" if "secretary" in role else "director")
                )
            shares = _shares(person.get("numSharesAlloted") or person.get("shares"))
            if "shareholder" in role or "member" in role or shares:
                holders.append(Shareholder(party, shares, text(person.get("typeOfShares"), 60)))
            if "significant control" in role or role == "psc":
                controllers.append(party)
    shareholders = percentages(tuple(holders))
    owners = [
        BeneficialOwner(h.party, h.percentage, ("shareholding",), direct=True)
        for h in shareholders
        if h.party.kind == "person" and (h.percentage or 0) >= NIGERIA_BO_THRESHOLD
    ]
    named = {o.party.name for o in owners}
    owners += [
        BeneficialOwner(p, None, ("significantInfluenceOrControl",), direct=None)
        for p in controllers
        if p.name not in named
    ]
    notes = (
        "Beneficial owners are the persons CAC lists with significant control and direct "
        "shareholdings of at least 5% (Nigeria's threshold); indirect holdings are not derived.",
    )
    return Ownership(
        directors=tuple(directors),
        shareholders=shareholders,
        beneficial_owners=tuple(owners),
        share_capital=text(data.get("share_capital") or data.get("shareCapital")),
        notes=notes,
    )
