"""GLEIF's LEI API: the global fallback, open data (CC0) with no key.

From GLEIF's API documentation (https://api.gleif.org/api/v1, JSON:API, media type
``application/vnd.api+json``):

* ``GET /lei-records/{lei}``: one record, ``{"data": {"type": "lei-records", "id", "attributes":
  {"lei", "entity": {...}, "registration": {...}}}}``; an unknown LEI is a 404 with
  ``{"errors": [{"status": "404", "title": "Not Found"}]}``.
* ``GET /lei-records?filter[entity.registeredAs]=...&filter[entity.legalAddress.country]=KE``
  and ``filter[entity.legalName]=...``: a page of records, ``{"data": [...], "meta":
  {"pagination": {"total", ...}}}``, with ``page[size]``.
* Level 2, who owns whom: ``GET /lei-records/{lei}/direct-parent`` and ``/ultimate-parent``
  answer the parent's record, or 404 when none is reported (the reasons are at
  ``/direct-parent-reporting-exception``).
* ``entity``: ``legalName.name``, ``legalAddress`` (``addressLines``, ``city``, ``region``,
  ``country``, ``postalCode``), ``jurisdiction``, ``registeredAs``, ``legalForm.id``
  (ISO 20275 ELF code), ``status`` (ACTIVE / INACTIVE), ``creationDate``,
  ``expiration.date`` and ``expiration.reason`` (DISSOLVED, CORPORATE_ACTION, ...).
  ``registration.status``: ISSUED, LAPSED, RETIRED, ANNULLED, ...
"""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

import httpx

from hakiki.engines.kyb.model import Address, Company, CompanyStatus, Ownership, Parent, Party
from hakiki.kyb.providers.base import (
    RegistryOutcome,
    RegistryQuery,
    RegistryResult,
    Upstream,
    iso_date,
    json_object,
    text,
)

PROVIDER = "gleif"
_HEADERS = {"accept": "application/vnd.api+json"}


class Gleif:
    name = PROVIDER
    registry = "GLEIF Global LEI Index"

    def __init__(self, base_url: str, timeout: float) -> None:
        self._base = base_url.rstrip("/")
        self._http = Upstream(PROVIDER, "GLEIF", timeout)

    def covers(self, query: RegistryQuery) -> bool:
        return True

    async def aclose(self) -> None:
        await self._http.aclose()

    async def lookup(self, query: RegistryQuery) -> RegistryResult:
        found = await self._record(query)
        if isinstance(found, RegistryResult):
            return found
        try:
            company = _company(found)
        except (ValueError, TypeError, KeyError, AttributeError):
            company = None
        if company is None:
            return self._http.result(
                RegistryOutcome.UNAVAILABLE, "GLEIF answered a record it could not read"
            )
        ownership = None
        if query.ownership:
            parents = await self._parents(company)
            if isinstance(parents, RegistryResult):
                return parents
            ownership = Ownership(
                parents=parents,
                notes=(
                    "GLEIF records accounting-consolidation parents (entities), not directors, "
                    "shareholders or natural-person owners.",
                ),
            )
        return RegistryResult(RegistryOutcome.FOUND, PROVIDER, company, ownership, message="found")

    async def _get(
        self, path: str, params: dict[str, str] | None = None
    ) -> httpx.Response | RegistryResult:
        return await self._http.send("GET", self._base + path, params=params, headers=_HEADERS)

    async def _record(self, query: RegistryQuery) -> dict[str, Any] | RegistryResult:
        if query.lei:
            response = await self._get(f"/lei-records/{quote(query.lei)}")
        else:
            params = {"filter[entity.legalAddress.country]": query.country, "page[size]": "1"}
            if query.number is not None:
                params["filter[entity.registeredAs]"] = query.number.number
            else:
                params["filter[entity.legalName]"] = query.name or ""
            response = await self._get("/lei-records", params)
        if isinstance(response, RegistryResult):
            return response
        if response.status_code == 404:
            return self._http.result(RegistryOutcome.NOT_FOUND, "GLEIF holds no such LEI record")
        failed = self._failure(response)
        if failed is not None:
            return failed
        body = json_object(response)
        data = body.get("data") if body else None
        if isinstance(data, list):
            if not data:
                return self._http.result(RegistryOutcome.NOT_FOUND, "no LEI record matches")
            data = data[0]
        if not isinstance(data, dict) or not isinstance(data.get("attributes"), dict):
            return self._http.unreadable(response)
        return data

    def _failure(self, response: httpx.Response) -> RegistryResult | None:
        status = response.status_code
        if status == 429:
            retry = response.headers.get("retry-after")
            wait = f" (retry after {retry} s)" if retry else ""
            return self._http.result(
                RegistryOutcome.UNAVAILABLE, f"GLEIF rate-limited the look-up{wait}"
            )
        if status >= 400:
            return self._http.unreadable(response, "an error")
        return None

    async def _parents(self, company: Company) -> tuple[Parent, ...] | RegistryResult:
        lei = dict(company.identifiers).get("XI-LEI")
        parents: list[Parent] = []
        for relation, ultimate in (("direct-parent", False), ("ultimate-parent", True)):
            response = await self._get(f"/lei-records/{quote(lei or '')}/{relation}")
            if isinstance(response, RegistryResult):
                return response
            if response.status_code == 404:
                continue  # no parent reported
            failed = self._failure(response)
            if failed is not None:
                return failed
            body = json_object(response)
            data = body.get("data") if body else None
            parent = _company(data) if isinstance(data, dict) else None
            if parent is None:
                return self._http.unreadable(response)
            party = Party(
                parent.name, "entity", identifiers=parent.identifiers, country=parent.country
            )
            relationship = (
                "IS_ULTIMATELY_CONSOLIDATED_BY" if ultimate else "IS_DIRECTLY_CONSOLIDATED_BY"
            )
            parents.append(Parent(party, ultimate, relationship))
        return tuple(parents)


def _status(entity: dict[str, Any], registration: dict[str, Any]) -> CompanyStatus:
    expiration = entity.get("expiration") or {}
    if text(expiration.get("reason")) == "DISSOLVED":
        return "dissolved"
    if text(entity.get("status")) == "INACTIVE":
        return "inactive"
    if text(entity.get("status")) == "ACTIVE":
        return "registered"
    return "unknown"


def _company(data: dict[str, Any]) -> Company | None:
    attributes = data["attributes"]
    entity = attributes.get("entity") or {}
    registration = attributes.get("registration") or {}
    name = text((entity.get("legalName") or {}).get("name"))
    lei = text(attributes.get("lei") or data.get("id"), 20)
    if name is None or lei is None:
        return None
    legal = entity.get("legalAddress") or {}
    lines = [text(line) for line in legal.get("addressLines") or []]
    parts = [p for p in (*lines, text(legal.get("city")), text(legal.get("region"))) if p]
    country = text(legal.get("country"), 2) or text(entity.get("jurisdiction"), 2) or ""
    legal_form = text((entity.get("legalForm") or {}).get("id"), 10)
    expiration = entity.get("expiration") or {}
    return Company(
        name=name,
        number=text(entity.get("registeredAs"), 64) or lei,
        country=country.upper(),
        entity_type=f"ELF {legal_form}" if legal_form else None,
        status=_status(entity, registration),
        registry_status=" / ".join(
            s for s in (text(entity.get("status")), text(registration.get("status"))) if s
        )
        or None,
        registration_date=iso_date(entity.get("creationDate")),
        dissolution_date=iso_date(expiration.get("date")),
        address=Address(", ".join(parts), country.upper() or None, text(legal.get("postalCode")))
        if parts
        else None,
        identifiers=(("XI-LEI", lei),),
        source_url=f"https://search.gleif.org/#/record/{lei}",
    )
