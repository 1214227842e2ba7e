"""Live adapter for Prembly's (IdentityPass) vehicle verification, for Kenyan NTSA records.

Sources (read through the project's documentation search) and what we assumed:

* Authentication, as every Prembly endpoint: headers ``app-id`` and ``x-api-key``, JSON body,
  POST (docs.prembly.com endpoint pages; the identity adapter uses the same).
* "Plate Number Verification" (docs.prembly.com/docs/plate-number-verification-copy): body
  ``{"vehicle_number": ...}``; answer ``{"status": true, "detail", "response_code": "00",
  "data": {"vehicle_number", "vehicle_name" (the make), "vehicle_color"}, "verification":
  {"status": "VERIFIED", "reference"}}``. Its path is ``/verification/vehicle`` in the current
  URL scheme (the legacy SDKs call ``.../api/v2/biometrics/merchant/data/verification/vehicle``).
* "Asset Verification" (docs.prembly.com/guides/products/verification/asset-verification):
  plate, VIN and chassis verification against transport registries returning engine number,
  chassis, make, model, year of manufacture, and caveat checks for liens.
* Response codes as in "Response Codes and Verification Status": "00" found, "01" not found,
  "02" registry unavailable, "03" insufficient Prembly balance.

ASSUMPTIONS (docs/decisions.md#vehicle-checks): that Kenyan plates are verified on the same
path (``HAKIKI_VEHICLE_PREMBLY_PATH`` changes it); that a chassis number or VIN is searched
with ``{"chassis_number": ...}`` on that path (NTSA's copy of records is searched by either);
and the names of the copy-of-records fields beyond the three documented ones (read leniently:
``owner_name``/``owners``, ``logbook_number``, ``caveats``, ``engine_number``,
``chassis_number``, ``vehicle_make``/``vehicle_model``, ``body_type``,
``year_of_manufacture``, ``registration_date``).

The adapter never raises for upstream trouble and never logs the plate, chassis or owner.
"""

from __future__ import annotations

import logging
import re
from datetime import datetime
from typing import Any

import httpx

from hakiki.core.settings import Settings
from hakiki.vehicle.registry import (
    Caveat,
    Owner,
    OwnerNames,
    RegistryOutcome,
    RegistryRecord,
    RegistryResult,
    SearchBy,
    VehicleRegistry,
)

logger = logging.getLogger(__name__)

PROVIDER_NAME = "prembly"
_BODY_KEYS: dict[SearchBy, str] = {
    "registration_number": "vehicle_number",
    "chassis_number": "chassis_number",
}
_NO_CAVEAT = re.compile(r"^(none|nil|no(\s+caveats?)?|n/?a|-)$", re.IGNORECASE)
_DATE_FORMATS = ("%Y-%m-%d", "%d-%m-%Y", "%d/%m/%Y", "%d-%b-%Y", "%d %b %Y", "%Y/%m/%d")


class PremblyVehicleRegistry:
    name = PROVIDER_NAME
    countries: tuple[str, ...] = ("KE", "NG")

    def __init__(
        self,
        app_id: str,
        api_key: str,
        base_url: str,
        path: str,
        timeout: float,
        client: httpx.AsyncClient | None = None,
    ) -> None:
        self._headers = {"app-id": app_id, "x-api-key": api_key, "accept": "application/json"}
        self._url = base_url.rstrip("/") + "/" + path.lstrip("/")
        self._timeout = timeout
        self._owns_client = client is None
        self._client = client if client is not None else httpx.AsyncClient(timeout=timeout)

    async def aclose(self) -> None:
        if self._owns_client:
            await self._client.aclose()

    def not_asked(self, country: str, owner: OwnerNames | None) -> str | None:
        return None  # the plate (or chassis number) is all Prembly needs

    async def lookup(
        self, by: SearchBy, value: str, *, country: str = "KE", owner: OwnerNames | None = None
    ) -> RegistryResult:
        try:
            response = await self._client.post(
                self._url, json={_BODY_KEYS[by]: value}, headers=self._headers
            )
        except httpx.TimeoutException:
            logger.warning("prembly vehicle look-up timed out")
            return self._result(
                RegistryOutcome.UNAVAILABLE, f"Prembly did not answer within {self._timeout:g}s"
            )
        except httpx.HTTPError as error:
            logger.warning("prembly vehicle look-up failed: %s", type(error).__name__)
            return self._result(
                RegistryOutcome.UNAVAILABLE, f"could not reach Prembly ({type(error).__name__})"
            )
        try:
            result = self._interpret(response)
        except Exception as error:  # a body shape nobody foresaw is an unavailable source
            logger.warning("prembly vehicle answer unreadable: %s", type(error).__name__)
            return self._result(RegistryOutcome.UNAVAILABLE, "unreadable answer from Prembly")
        logger.info("prembly vehicle look-up: HTTP %s -> %s", response.status_code, result.outcome)
        return result

    def _interpret(self, response: httpx.Response) -> RegistryResult:
        status = response.status_code
        try:
            payload: Any = response.json()
        except ValueError:
            payload = None
        body: dict[str, Any] = payload if isinstance(payload, dict) else {}
        code = str(body.get("response_code") or "").strip()
        reference = _reference(body)
        if status in (401, 402, 403) or code == "03":
            why = (
                "Prembly refused the look-up: its wallet balance is insufficient"
                if code == "03" or status == 402
                else f"Prembly refused the credentials (HTTP {status}): check "
                "HAKIKI_VEHICLE_PREMBLY_APP_ID and HAKIKI_VEHICLE_PREMBLY_API_KEY"
            )
            return self._result(RegistryOutcome.FAILED, why, reference)
        if status == 429 or status >= 500:
            return self._result(RegistryOutcome.UNAVAILABLE, f"Prembly answered HTTP {status}")
        if not body:
            return self._result(
                RegistryOutcome.UNAVAILABLE, f"Prembly answered HTTP {status} without a record"
            )
        if code == "01":
            return self._result(RegistryOutcome.NOT_FOUND, "no vehicle record", reference)
        if code == "02":
            return self._result(
                RegistryOutcome.UNAVAILABLE, "Prembly reports the registry unavailable", reference
            )
        data = body.get("data")
        if code == "00" and status < 300 and isinstance(data, dict):
            record = record_from(data)
            if record is not None:
                return RegistryResult(RegistryOutcome.FOUND, self.name, record, reference, "found")
        return self._result(
            RegistryOutcome.UNAVAILABLE,
            f"Prembly answered HTTP {status} with an unexpected body (response_code {code!r})",
            reference,
        )

    def _result(
        self, outcome: RegistryOutcome, message: str, reference: str | None = None
    ) -> RegistryResult:
        return RegistryResult(outcome, self.name, None, reference, message)


def build_registry(settings: Settings) -> VehicleRegistry | None:
    """The configured adapter, or None when no credentials are set (live calls then 503)."""
    app_id = (settings.vehicle_prembly_app_id or "").strip()
    api_key = (settings.vehicle_prembly_api_key or "").strip()
    if not (app_id and api_key):
        return None
    return PremblyVehicleRegistry(
        app_id=app_id,
        api_key=api_key,
        base_url=settings.vehicle_prembly_base_url,
        path=settings.vehicle_prembly_path,
        timeout=settings.provider_timeout_seconds,
    )


# ---------------------------------------------------------------------- reading a record


def _reference(body: dict[str, Any]) -> str | None:
    verification = body.get("verification")
    if isinstance(verification, dict):
        ref = verification.get("reference")
        if isinstance(ref, str) and ref.strip():
            return ref.strip()[:120]
    return None


def _text(data: dict[str, Any], *keys: str) -> str | None:
    for key in keys:
        value = data.get(key)
        if isinstance(value, (str, int)) and not isinstance(value, bool):
            text = " ".join(str(value).split())
            if text:
                return text[:200]
    return None


def _date(value: str | None) -> str | None:
    if not value:
        return None
    text = value.strip()[:10] if re.match(r"^\d{4}-\d{2}-\d{2}", value.strip()) else value.strip()
    for fmt in _DATE_FORMATS:
        try:
            return datetime.strptime(text, fmt).date().isoformat()
        except ValueError:
            continue
    return None


def _year(value: str | None) -> int | None:
    if value and re.fullmatch(r"(19|20)\d\d", value.strip()):
        return int(value)
    return None


def _owners(data: dict[str, Any]) -> tuple[Owner, ...]:
    listed = data.get("owners")
    owners: list[Owner] = []
    if isinstance(listed, list):
        for item in listed[:10]:
            if isinstance(item, dict):
                name = _text(item, "name", "owner_name", "full_name")
                if name:
                    owners.append(Owner(name, _text(item, "id_number", "id_no", "pin")))
            elif isinstance(item, str) and item.strip():
                owners.append(Owner(" ".join(item.split())[:200]))
    single = _text(data, "owner_name", "owner", "registered_owner")
    if single and not owners:
        owners.append(Owner(single, _text(data, "owner_id_number", "owner_id", "id_number")))
    return tuple(owners)


def _caveats(data: dict[str, Any]) -> tuple[Caveat, ...]:
    value = data.get("caveats", data.get("caveat"))
    items = value if isinstance(value, list) else [value]
    caveats: list[Caveat] = []
    for item in items[:20]:
        if isinstance(item, dict):
            kind = _text(item, "type", "caveat_type", "kind", "description") or "caveat"
            holder = _text(item, "holder", "caveat_holder", "name", "financier")
            caveats.append(Caveat(kind, holder, _date(_text(item, "date", "caveat_date"))))
        elif isinstance(item, str) and item.strip() and not _NO_CAVEAT.match(item.strip()):
            caveats.append(Caveat(" ".join(item.split())[:200]))
    return tuple(caveats)


def record_from(data: dict[str, Any]) -> RegistryRecord | None:
    """The copy of records in Prembly's ``data``; None when it names no vehicle at all."""
    record = RegistryRecord(
        registration_number=_text(data, "vehicle_number", "registration_number", "plate_number"),
        chassis_number=_text(data, "chassis_number", "chassis_no", "vin"),
        engine_number=_text(data, "engine_number", "engine_no"),
        make=_text(data, "vehicle_make", "make", "vehicle_name"),
        model=_text(data, "vehicle_model", "model"),
        body_type=_text(data, "body_type", "vehicle_body", "body"),
        colour=_text(data, "vehicle_color", "vehicle_colour", "color", "colour"),
        year_of_manufacture=_year(_text(data, "year_of_manufacture", "manufacture_year", "year")),
        registration_date=_date(_text(data, "registration_date", "date_of_registration")),
        logbook_number=_text(data, "logbook_number", "log_book_number", "logbook_serial"),
        owners=_owners(data),
        caveats=_caveats(data),
    )
    if not (record.registration_number or record.chassis_number or record.make):
        return None
    return record
