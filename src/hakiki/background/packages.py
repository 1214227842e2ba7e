"""Check types, countries, system packages and the organisation's custom packages."""

from __future__ import annotations

import json
from typing import Any

from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection

from hakiki.background import repository
from hakiki.background.availability import effective, offered
from hakiki.background.check_types import ALL_CODES, BY_COUNTRY, COUNTRIES, CheckType
from hakiki.background.schemas import (
    CheckTypeList,
    CheckTypeOut,
    CountryList,
    CountryOut,
    PackageList,
    PackageOut,
    PackageRequest,
)
from hakiki.background.system_packages import SYSTEM_PACKAGES
from hakiki.core.calls import Call, finish_write
from hakiki.core.clock import utcnow
from hakiki.core.database import read, transaction
from hakiki.core.errors import ApiError, invalid_request
from hakiki.core.ids import new_id
from hakiki.core.pagination import PageRequest
from hakiki.core.runtime import Runtime

Owner = tuple[str, str]  # (environment, org_id)


def check_type_out(runtime: Runtime, check: CheckType) -> CheckTypeOut:
    return CheckTypeOut(
        code=check.code,
        name=check.name,
        kind=check.kind,
        description=check.description,
        needs=list(check.needs),
        documents=list(check.documents),
        turnaround_hours=check.turnaround_hours,
        price=runtime.price(check.price_key),
        available=check.available,
        unavailable_reason=check.unavailable_reason,
        countries=list(check.countries),
    )


def country_or_400(country_code: str) -> str:
    code = country_code.strip().upper()
    if code not in COUNTRIES:
        raise invalid_request(
            f"country_code: {country_code[:10]!r} is not a country background checks serve; "
            f"use one of {', '.join(COUNTRIES)}.",
            field="country_code",
            problem="unsupported country",
        )
    return code


def check_types(
    runtime: Runtime, live: bool, country_code: str | None, page: PageRequest
) -> CheckTypeList:
    if country_code is None:
        country = None
        listed = [effective(runtime, live, c, None) for c in ALL_CODES.values()]
    else:
        country = country_or_400(country_code)
        listed = list(offered(runtime, live, country).values())
    data, pagination = page.slice([check_type_out(runtime, c) for c in listed])
    return CheckTypeList(country_code=country, data=data, pagination=pagination)


def countries(page: PageRequest) -> CountryList:
    data, pagination = page.slice(
        [
            CountryOut(
                country_code=code,
                name=name,
                check_types=len(BY_COUNTRY[code]),
                automated=sum(1 for c in BY_COUNTRY[code].values() if c.kind == "automated"),
                manual=sum(1 for c in BY_COUNTRY[code].values() if c.kind == "manual"),
            )
            for code, name in COUNTRIES.items()
        ]
    )
    return CountryList(data=data, pagination=pagination)


def package_price(runtime: Runtime, country: str, codes: list[str]) -> tuple[int, int]:
    """The package's price (the sum of its checks') and its turnaround (the longest)."""
    offered = BY_COUNTRY[country]
    price = sum(runtime.price(offered[c].price_key) for c in codes)
    hours = max((offered[c].turnaround_hours for c in codes), default=0)
    return price, hours


def system_package_out(runtime: Runtime, package_id: str) -> PackageOut:
    package = SYSTEM_PACKAGES[package_id]
    codes = list(package.check_types)
    price, hours = package_price(runtime, package.country, codes)
    return PackageOut(
        id=package.id,
        name=package.name,
        country_code=package.country,
        description=package.description,
        check_types=codes,
        price=price,
        turnaround_hours=hours,
        system=True,
    )


def system_packages(runtime: Runtime, country_code: str | None, page: PageRequest) -> PackageList:
    country = country_or_400(country_code) if country_code is not None else None
    ids = [p.id for p in SYSTEM_PACKAGES.values() if country in (None, p.country)]
    shown = ids[page.offset : page.offset + page.page_size]
    return PackageList(
        data=[system_package_out(runtime, i) for i in shown], pagination=page.describe(len(ids))
    )


def system_package(runtime: Runtime, package_id: str) -> PackageOut:
    if package_id not in SYSTEM_PACKAGES:
        raise ApiError(404, "not_found", f"No system package {package_id[:60]!r}.")
    return system_package_out(runtime, package_id)


def custom_package_out(runtime: Runtime, row: dict[str, Any]) -> PackageOut:
    codes: list[str] = json.loads(row["check_types"])
    price, hours = package_price(runtime, row["country"], codes)
    return PackageOut(
        id=row["id"],
        name=row["name"],
        country_code=row["country"],
        description=row["description"],
        check_types=codes,
        price=price,
        turnaround_hours=hours,
        system=False,
        created_at=row["created_at"],
        updated_at=row["updated_at"],
    )


def _checked_types(runtime: Runtime, live: bool, body: PackageRequest) -> list[str]:
    """Each check type exists, is offered in the package's country, is available to the key,
    and is named once: otherwise a 400 naming ``check_types.N``."""
    available = offered(runtime, live, body.country_code)
    seen: set[str] = set()
    details: list[dict[str, str]] = []
    for index, code in enumerate(body.check_types):
        problem = None
        if code not in ALL_CODES:
            problem = f"{code[:40]!r} is not a check type (GET /v3/background/check-types)"
        elif code not in available:
            problem = f"{code} is not offered in {body.country_code}"
        elif not available[code].available:
            problem = f"{code} is unavailable: {available[code].unavailable_reason}"
        elif code in seen:
            problem = f"{code} is named twice"
        seen.add(code)
        if problem:
            details.append({"field": f"check_types.{index}", "problem": problem})
    if details:
        first = details[0]
        raise ApiError(
            400,
            "invalid_request",
            f"{first['field']}: {first['problem']}.",
            details=details,
        )
    return list(body.check_types)


def _conflict(name: str) -> ApiError:
    return ApiError(
        409, "conflict", f"A package named {name!r} already exists in this organisation."
    )


def _not_found(package_id: str) -> ApiError:
    return ApiError(404, "not_found", f"No package {package_id[:60]!r} in this organisation.")


async def create_package(call: Call, body: PackageRequest) -> bytes:
    runtime = call.runtime
    environment, org_id = call.principal.owner
    codes = _checked_types(runtime, call.principal.live, body)
    now = utcnow()
    row = {
        "id": new_id("bpk"),
        "org_id": org_id,
        "environment": environment,
        "name": body.name,
        "name_key": body.name.casefold(),
        "country": body.country_code,
        "description": body.description,
        "check_types": json.dumps(codes),
        "created_at": now,
        "updated_at": now,
    }

    async def write(conn: AsyncConnection) -> None:
        if await repository.name_taken(conn, org_id, environment, body.name.casefold(), None):
            raise _conflict(body.name)
        await repository.insert_package(conn, row)

    def render() -> bytes:
        return custom_package_out(runtime, row).model_dump_json().encode()

    try:
        return await finish_write(
            call, write, render, description="Background package created", status_code=201
        )
    except IntegrityError as error:  # a concurrent create with the same name won
        raise _conflict(body.name) from error


async def get_package(runtime: Runtime, owner: Owner, package_id: str) -> dict[str, Any]:
    environment, org_id = owner
    async with read(runtime.db) as conn:
        row = await repository.get_package(conn, org_id, environment, package_id)
    if row is None:
        raise _not_found(package_id)
    return row


async def list_packages(runtime: Runtime, owner: Owner, page: PageRequest) -> PackageList:
    environment, org_id = owner
    async with read(runtime.db) as conn:
        total = await repository.count_packages(conn, org_id, environment)
        rows = await repository.list_packages(
            conn, org_id, environment, page.offset, page.page_size
        )
    return PackageList(
        data=[custom_package_out(runtime, r) for r in rows], pagination=page.describe(total)
    )


async def update_package(
    runtime: Runtime, owner: Owner, package_id: str, body: PackageRequest
) -> PackageOut:
    environment, org_id = owner
    codes = _checked_types(runtime, environment == "live", body)
    values = {
        "name": body.name,
        "name_key": body.name.casefold(),
        "country": body.country_code,
        "description": body.description,
        "check_types": json.dumps(codes),
        "updated_at": utcnow(),
    }
    try:
        async with transaction(runtime.db) as conn:
            row = await repository.get_package(conn, org_id, environment, package_id)
            if row is None:
                raise _not_found(package_id)
            if await repository.name_taken(
                conn, org_id, environment, body.name.casefold(), package_id
            ):
                raise _conflict(body.name)
            await repository.update_package(conn, package_id, values)
    except IntegrityError as error:
        raise _conflict(body.name) from error
    return custom_package_out(runtime, row | values)


async def delete_package(runtime: Runtime, owner: Owner, package_id: str) -> None:
    """Requests made with the package keep their own copy of it: they run on."""
    environment, org_id = owner
    async with transaction(runtime.db) as conn:
        row = await repository.get_package(conn, org_id, environment, package_id)
        if row is None:
            raise _not_found(package_id)
        await repository.delete_package(conn, package_id)
