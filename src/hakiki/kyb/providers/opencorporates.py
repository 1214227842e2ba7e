"""OpenCorporates API v0.4: company registers of many jurisdictions, with their officers.

From the API reference (https://api.opencorporates.com/documentation/API-Reference, v0.4.8):

* every call takes ``api_token`` as a query parameter (``HAKIKI_OPENCORPORATES_API_TOKEN``);
* ``GET /v0.4/companies/{jurisdiction_code}/{company_number}``: ``{"api_version", "results":
  {"company": {"name", "company_number", "jurisdiction_code", "incorporation_date",
  "dissolution_date", "company_type", "current_status", "inactive",
  "registered_address_in_full", "registered_address": {..., "country"}, "opencorporates_url",
  "officers": [{"officer": {"name", "position", "start_date", "end_date", "nationality",
  "inactive"}}]}}}``; an unknown company is a 404;
* ``GET /v0.4/companies/search?q=...&jurisdiction_code=...``: ``{"results": {"companies":
  [{"company": {...}}], "total_count"}}``;
* errors carry ``{"error": {"message": "..."}}``: 401 for a missing or invalid token, 403 when
  the account's usage limit is reached (the message says which), and 429 when calls come too
  fast. A limit is reported as it is (02, not charged, with OpenCorporates' message), never
  answered from a cache.

Jurisdiction codes are the ISO country in lower case (``gb``, ``ug``, ``tz``); a country whose
register is kept per state (``us_de``) is not reachable by country alone (docs/decisions.md).
"""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

import httpx

from hakiki.engines.kyb.model import Address, Company, Director, Ownership, Party, status_of
from hakiki.kyb.providers.base import (
    RegistryOutcome,
    RegistryQuery,
    RegistryResult,
    Upstream,
    iso_date,
    json_object,
    text,
)

PROVIDER = "opencorporates"


class OpenCorporates:
    name = PROVIDER
    registry = "OpenCorporates"

    def __init__(self, api_token: str, base_url: str, timeout: float) -> None:
        self._token = api_token
        self._base = base_url.rstrip("/")
        self._http = Upstream(PROVIDER, "OpenCorporates", timeout)

    def covers(self, query: RegistryQuery) -> bool:
        return query.lei is None and (query.number is not None or bool(query.name))

    async def aclose(self) -> None:
        await self._http.aclose()

    async def lookup(self, query: RegistryQuery) -> RegistryResult:
        jurisdiction = query.country.lower()
        params = {"api_token": self._token}
        if query.number is not None:
            path = f"/companies/{quote(jurisdiction)}/{quote(query.number.number, safe='')}"
        else:
            path = "/companies/search"
            params.update(q=query.name or "", jurisdiction_code=jurisdiction, per_page="1")
        response = await self._http.send("GET", self._base + path, params=params)
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
        upstream = _error_message(body)
        if status == 401:
            return self._http.result(
                RegistryOutcome.FAILED,
                "OpenCorporates refused the api_token (HTTP 401): check "
                f"HAKIKI_OPENCORPORATES_API_TOKEN [OpenCorporates: {upstream}]",
            )
        if status in (403, 429):
            retry = response.headers.get("retry-after")
            wait = f", retry after {retry} s" if retry else ""
            return self._http.result(
                RegistryOutcome.UNAVAILABLE,
                f"OpenCorporates usage limit reached (HTTP {status}{wait}) "
                f"[OpenCorporates: {upstream}]",
            )
        if status == 404:
            return self._http.result(
                RegistryOutcome.NOT_FOUND, "OpenCorporates holds no such company"
            )
        if status >= 400 or body is None:
            return self._http.unreadable(response, "no JSON body" if body is None else "an error")
        results = body["results"]
        if "companies" in results:
            companies = results["companies"]
            if not companies:
                return self._http.result(RegistryOutcome.NOT_FOUND, "no company matches the name")
            record = companies[0]["company"]
        else:
            record = results["company"]
        company = _company(record)
        if company is None:
            return self._http.unreadable(response, "a company without a name")
        ownership = _ownership(record) if query.ownership else None
        return RegistryResult(RegistryOutcome.FOUND, PROVIDER, company, ownership, message="found")


def _error_message(body: dict[str, Any] | None) -> str:
    error = (body or {}).get("error")
    if isinstance(error, dict):
        return text(error.get("message"), 200) or "no message"
    return text(error, 200) or "no message"


def _company(record: dict[str, Any]) -> Company | None:
    name = text(record.get("name"))
    number = text(record.get("company_number"), 64)
    if name is None or number is None:
        return None
    jurisdiction = text(record.get("jurisdiction_code"), 12) or ""
    country = jurisdiction.split("_")[0].upper()[:2]
    registered = record.get("registered_address") or {}
    address = text(record.get("registered_address_in_full"))
    registry_status = text(record.get("current_status"), 80)
    status = status_of(registry_status)
    if status == "unknown" and record.get("inactive") is True:
        status = "inactive"
    return Company(
        name=name,
        number=number,
        country=country,
        entity_type=text(record.get("company_type"), 120),
        status=status,
        registry_status=registry_status,
        registration_date=iso_date(record.get("incorporation_date")),
        dissolution_date=iso_date(record.get("dissolution_date")),
        address=Address(address, country or None, text(registered.get("postal_code")))
        if address
        else None,
        source_url=text(record.get("opencorporates_url"), 300),
    )


def _ownership(record: dict[str, Any]) -> Ownership:
    directors = []
    for item in record.get("officers") or []:
        officer = item.get("officer") if isinstance(item, dict) else None
        if not isinstance(officer, dict) or officer.get("inactive") is True:
            continue
        if text(officer.get("end_date")):
            continue  # no longer in office
        name = text(officer.get("name"))
        if name is None:
            continue
        nationality = text(officer.get("nationality"), 2)
        party = Party(name, "person", nationality=nationality.upper() if nationality else None)
        role = (text(officer.get("position"), 60) or "officer").lower()
        directors.append(Director(party, role, iso_date(officer.get("start_date"))))
    return Ownership(
        directors=tuple(directors),
        notes=(
            "OpenCorporates lists the register's officers; shareholders and beneficial owners "
            "are not in its company records.",
        ),
    )
