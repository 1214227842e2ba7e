"""The address check: parsed and matched against the bundled gazetteer of the four countries,
coordinates cross-checked with the stated area, reports giving the same address. Sandbox: the
real parsing and GPS check (they read no database); no reports are counted."""

from __future__ import annotations

from typing import Any

from hakiki.core.billing import Charge
from hakiki.core.calls import Call, finish_call
from hakiki.core.database import read
from hakiki.core.errors import ApiError
from hakiki.engines.address import AddressAnalysis, GpsCheck, Place, check_gps, parse_address
from hakiki.engines.fraud.risk import AddressEvidence, address_signals, assess
from hakiki.fraud import repository
from hakiki.fraud.keys import address_key
from hakiki.fraud.scan_schemas import (
    AddressScanRequest,
    AddressScanResult,
    GpsOut,
    ParsedAddress,
    PlaceOut,
    ReportSummary,
    risk_out,
    scan_answer,
)


def _place(place: Place | None) -> PlaceOut | None:
    if place is None:
        return None
    return PlaceOut(
        code=place.code, name=place.name, level=place.level,
        latitude=place.lat, longitude=place.lon,
    )  # fmt: skip


def _gps(body: AddressScanRequest, analysis: AddressAnalysis) -> GpsCheck | None:
    if body.latitude is None and body.longitude is None:
        return None
    if body.latitude is None or body.longitude is None:
        missing = "latitude" if body.latitude is None else "longitude"
        raise ApiError(
            400, "invalid_request", "Send both latitude and longitude, or neither.",
            details=[{"field": missing, "problem": "missing"}],
        )  # fmt: skip
    return check_gps(analysis, body.latitude, body.longitude)


async def scan(call: Call, body: AddressScanRequest) -> bytes:
    runtime, principal = call.runtime, call.principal
    analysis = parse_address(body.address, body.country_code)
    gps = _gps(body, analysis)
    reported: dict[str, Any] = {"reports": 0, "organisations": 0, "categories": {}}
    if principal.live:
        key = address_key(runtime.vault, body.country_code, body.address)
        async with read(runtime.db) as conn:
            reported = await repository.signals(conn, principal.environment, [("address", key)])
    categories: dict[str, int] = reported["categories"]
    evidence = AddressEvidence(
        match=analysis.match,
        conflicts=analysis.conflicts,
        other_countries=analysis.other_countries,
        gps=gps.verdict if gps else None,
        gps_distance_km=gps.distance_km if gps else None,
        reports=int(reported["reports"]),
        categories=tuple(sorted(categories.items(), key=lambda c: (-c[1], c[0]))),
    )
    risk = assess(address_signals(evidence), runtime.settings.fraud_weights)

    def render(charge: Charge | None) -> bytes:
        return scan_answer(
            AddressScanResult,
            call,
            charge,
            reference="fad_" + call.request_id.removeprefix("req_"),
            address=ParsedAddress(
                match=analysis.match,  # type: ignore[arg-type]
                po_box=analysis.po_box,
                postal_code=analysis.postal_code,
                area=_place(analysis.area),
                subarea=_place(analysis.subarea),
                town=_place(analysis.town),
                corrections=[
                    {"typed": c.typed, "matched": c.matched} for c in analysis.corrections
                ],
                conflicts=list(analysis.conflicts),
                unmatched=list(analysis.unmatched),
                other_countries=list(analysis.other_countries),
            ),
            gps=None
            if gps is None
            else GpsOut(
                verdict=gps.verdict,  # type: ignore[arg-type]
                reference=_place(gps.reference),
                distance_km=gps.distance_km,
                radius_km=gps.radius_km,
                area_verdict=gps.area_verdict,  # type: ignore[arg-type]
                nearest_town=_place(gps.nearest_town),
            ),
            fraud_reports=ReportSummary(
                count=evidence.reports,
                organisations=int(reported["organisations"]),
                categories=categories,
            ),
            risk=risk_out(risk),
        )

    return await finish_call(
        call, billable=True, response_code=None, subject=None, render=render,
        description=f"Fraud address check ({body.country_code})",
    )  # fmt: skip
