"""A KYB request checked and turned into a registry query (400s naming the field), and the
options of the owners' screening, in the form a pending check keeps (encrypted) for its job."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from hakiki.core.errors import invalid_request
from hakiki.engines.kyb.lei import is_lei, normalise_lei
from hakiki.engines.kyb.numbers import (
    REGISTRIES,
    RegistrationNumberError,
    parse_registration_number,
)
from hakiki.kyb.providers.base import RegistryQuery
from hakiki.kyb.schemas import KybRequest, OwnershipRequest


@dataclass(frozen=True)
class Options:
    screen_owners: bool = False
    checks: tuple[str, ...] = ("sanction", "pep")
    threshold: float | None = None


def build_query(body: KybRequest, *, ownership: bool) -> RegistryQuery:
    country = body.country_code
    given = [f for f in ("registration_number", "lei", "name") if getattr(body, f) is not None]
    if not given:
        raise invalid_request(
            "Give registration_number (or, outside KE, lei or name).",
            field="registration_number",
            problem="is required (or lei, or name outside KE)",
        )
    if len(given) > 1:
        raise invalid_request(
            f"Give one of registration_number, lei and name, not {' and '.join(given)}.",
            field=given[1],
            problem="give only one of registration_number, lei and name",
        )
    if body.lei is not None:
        lei = normalise_lei(body.lei)
        if not is_lei(lei):
            raise invalid_request(
                "lei is not a Legal Entity Identifier: 18 letters or digits and two check "
                "digits (ISO 17442), e.g. 5493001KJTIIGC8Y1R12.",
                field="lei",
                problem="is not an LEI (format or check digits)",
            )
        return RegistryQuery(country, lei=lei, ownership=ownership)
    if body.name is not None:
        name = " ".join(body.name.split())
        if country == "KE" or not name:
            problem = (
                "is empty" if not name else "cannot be searched in KE: give registration_number"
            )
            raise invalid_request(f"name {problem}.", field="name", problem=problem)
        return RegistryQuery(country, name=name, ownership=ownership)
    assert body.registration_number is not None
    try:
        number = parse_registration_number(country, body.registration_number)
    except RegistrationNumberError as error:
        registry = REGISTRIES.get(country, "the register")
        raise invalid_request(
            f"registration_number {error} ({country}: {registry}).",
            field="registration_number",
            problem=str(error),
        ) from None
    return RegistryQuery(country, number=number, ownership=ownership)


def options_of(body: KybRequest) -> Options:
    if isinstance(body, OwnershipRequest):
        return Options(body.screen_owners, tuple(body.checks), body.threshold)
    return Options()


def stored(query: RegistryQuery, options: Options, registry: str) -> dict[str, Any]:
    return {
        "country": query.country,
        "registration_number": query.number.number if query.number else None,
        "lei": query.lei,
        "name": query.name,
        "ownership": query.ownership,
        "options": asdict(options),
        "registry": registry,
    }


def restored(request: dict[str, Any]) -> tuple[RegistryQuery, Options, str]:
    number = request["registration_number"]
    country = request["country"]
    query = RegistryQuery(
        country,
        number=parse_registration_number(country, number) if number else None,
        lei=request["lei"],
        name=request["name"],
        ownership=bool(request["ownership"]),
    )
    raw = request["options"]
    options = Options(bool(raw["screen_owners"]), tuple(raw["checks"]), raw["threshold"])
    return query, options, str(request["registry"])
