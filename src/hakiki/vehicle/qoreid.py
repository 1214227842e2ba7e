"""Live adapter for QoreID's "License Plate (Basic)" look-up: the second provider of the
Nigerian plate chain, after Prembly (docs/decisions.md, "QoreID, the second NG plate provider").

Sources (read through the project's documentation search):

* docs.qoreid.com/docs/license-plate-basic and the OpenAPI definition of the same family
  (docs.qoreid.com/reference/license-plate-premium.md, server ``https://api.qoreid.com``,
  security ``oauth2``): ``POST {base}/v1/ng/identities/license-plate-basic/{plateNumber}`` with
  a JSON body ``{"firstname", "lastname"}`` (both REQUIRED); the answer ``{"id", "applicant",
  "summary": {"license_plate_check": {"status": "EXACT_MATCH", "fieldMatches": {...}}},
  "status": {"state": "complete", "status": "verified"}, "license_plate": {"plateNumber",
  "chassisNumber", "vehicleMake", "vehicleModel", "vehicleCategory", "firstname",
  "middlename", "lastname"}}``.
* docs.qoreid.com/v1.0/docs/getting-your-api-keys: a client id and a secret from the dashboard.
* docs.qoreid.com/v1.0/reference/response-codes: 400 bad request, 401 unauthorised, 403
  forbidden, 404 "Resource does not exist", 424 failed dependency, 503 "a third party service
  failed", 500/502/504 server errors.

ASSUMPTION (no QoreID page we could find documents it): the token exchange, ``POST
{base}/token`` with ``{"clientId", "secret"}`` answering ``{"accessToken", "expiresIn",
"tokenType": "Bearer"}``, as QoreID integrations in public code call it;
``HAKIKI_QOREID_TOKEN_URL`` changes the address. And that a 404 with a JSON body on the plate's
address is the registry's "no such plate" (a 404 without one is a wrong address).

QoreID gives the plate, chassis number, make, model, use category and the owner's names: the
record says which of our fields it does not give (``not_given``) rather than leaving them
silently empty. The adapter never raises for upstream trouble and never logs the plate or names.
"""

from __future__ import annotations

import logging
import time
from typing import Any
from urllib.parse import quote

import httpx

from hakiki.core.settings import Settings
from hakiki.vehicle.registry import (
    Owner,
    OwnerNames,
    RegistryOutcome,
    RegistryRecord,
    RegistryResult,
    SearchBy,
)

logger = logging.getLogger(__name__)

PROVIDER_NAME = "qoreid"
PLATE_PATH = "/v1/ng/identities/license-plate-basic/"
#: Our record's fields QoreID's basic plate look-up does not give.
NOT_GIVEN: tuple[str, ...] = (
    "engine_number",
    "body_type",
    "colour",
    "year_of_manufacture",
    "registration_date",
    "logbook_number",
    "caveats",
)
NAMES_NEEDED = "QoreID needs the owner's owner_first_name and owner_last_name"
_REFRESH_MARGIN = 60.0  # seconds before its expiry a token is renewed
_UNAVAILABLE = frozenset({408, 424, 429})


class _Refused(Exception):
    """The token exchange gave no token: ``outcome`` and ``message`` say why."""

    def __init__(self, outcome: RegistryOutcome, message: str) -> None:
        super().__init__(message)
        self.outcome = outcome
        self.message = message


class QoreIdVehicleRegistry:
    name = PROVIDER_NAME
    countries: tuple[str, ...] = ("NG",)

    def __init__(
        self,
        client_id: str,
        secret: str,
        base_url: str,
        timeout: float,
        token_url: str | None = None,
        client: httpx.AsyncClient | None = None,
        clock: Any = time.monotonic,
    ) -> None:
        self._credentials = {"clientId": client_id, "secret": secret}
        self._base = base_url.rstrip("/")
        self._token_url = token_url or f"{self._base}/token"
        self._timeout = timeout
        self._clock = clock
        self._token: str | None = None
        self._expires_at = 0.0
        self._owns_client = client is None
        self._client = client if client is not None else httpx.AsyncClient(timeout=timeout)

    async def aclose(self) -> None:
        if self._owns_client:
            await self._client.aclose()

    def not_asked(self, country: str, owner: OwnerNames | None) -> str | None:
        if country != "NG":
            return "QoreID serves Nigerian plates only"
        if owner is None:
            return f"{NAMES_NEEDED} (send both to have it asked)"
        return None

    async def lookup(
        self, by: SearchBy, value: str, *, country: str = "KE", owner: OwnerNames | None = None
    ) -> RegistryResult:
        reason = self.not_asked(country, owner) if by == "registration_number" else "by plate only"
        if reason is not None or owner is None:
            return self._result(RegistryOutcome.FAILED, reason or NAMES_NEEDED)
        try:
            return await self._ask(value, owner)
        except _Refused as refused:
            return self._result(refused.outcome, refused.message)
        except httpx.TimeoutException:
            logger.warning("qoreid plate look-up timed out")
            return self._result(
                RegistryOutcome.UNAVAILABLE, f"QoreID did not answer within {self._timeout:g}s"
            )
        except httpx.HTTPError as error:
            logger.warning("qoreid plate look-up failed: %s", type(error).__name__)
            return self._result(
                RegistryOutcome.UNAVAILABLE, f"could not reach QoreID ({type(error).__name__})"
            )

    async def _ask(self, plate: str, owner: OwnerNames) -> RegistryResult:
        url = self._base + PLATE_PATH + quote(plate, safe="")
        body = {"firstname": owner.first, "lastname": owner.last}
        response = await self._post_plate(url, body, fresh=False)
        if response.status_code == 401:  # an expired token: one fresh exchange, one retry
            response = await self._post_plate(url, body, fresh=True)
        try:
            result = self._interpret(response)
        except Exception as error:  # a body shape nobody foresaw is an unavailable source
            logger.warning("qoreid plate answer unreadable: %s", type(error).__name__)
            return self._result(RegistryOutcome.UNAVAILABLE, "unreadable answer from QoreID")
        logger.info("qoreid plate look-up: HTTP %s -> %s", response.status_code, result.outcome)
        return result

    async def _post_plate(self, url: str, body: dict[str, str], fresh: bool) -> httpx.Response:
        token = await self._bearer(fresh)
        headers = {"Authorization": f"Bearer {token}", "accept": "application/json"}
        return await self._client.post(url, json=body, headers=headers)

    async def _bearer(self, fresh: bool) -> str:
        if not fresh and self._token is not None and self._clock() < self._expires_at:
            return self._token
        self._token = None
        response = await self._client.post(
            self._token_url, json=self._credentials, headers={"accept": "application/json"}
        )
        status = response.status_code
        if status in (400, 401, 403):
            raise _Refused(
                RegistryOutcome.FAILED,
                f"QoreID refused the credentials (HTTP {status}): check HAKIKI_QOREID_CLIENT_ID "
                "and HAKIKI_QOREID_SECRET",
            )
        if status in (404, 405):
            raise _Refused(
                RegistryOutcome.FAILED,
                f"QoreID has no token exchange at the configured address (HTTP {status}): check "
                "HAKIKI_QOREID_TOKEN_URL (default {HAKIKI_QOREID_BASE_URL}/token)",
            )
        if status >= 300:
            message = f"QoreID's token exchange answered HTTP {status}"
            raise _Refused(RegistryOutcome.UNAVAILABLE, message)
        try:
            payload: Any = response.json()
        except ValueError:
            payload = None
        token = payload.get("accessToken") if isinstance(payload, dict) else None
        if not isinstance(token, str) or not token.strip():
            raise _Refused(RegistryOutcome.UNAVAILABLE, "QoreID's token exchange gave no token")
        expires = payload.get("expiresIn")
        seconds = float(expires) if isinstance(expires, (int, float)) else 300.0
        self._token = token.strip()
        self._expires_at = self._clock() + max(seconds - _REFRESH_MARGIN, 0.0)
        return self._token

    def _interpret(self, response: httpx.Response) -> RegistryResult:
        status = response.status_code
        try:
            payload: Any = response.json()
        except ValueError:
            payload = None
        body: dict[str, Any] = payload if isinstance(payload, dict) else {}
        if status in (401, 403):
            return self._result(
                RegistryOutcome.FAILED,
                f"QoreID refused the look-up (HTTP {status}): check HAKIKI_QOREID_CLIENT_ID, "
                "HAKIKI_QOREID_SECRET and that the account may use License Plate (Basic)",
            )
        if status == 402:
            return self._result(RegistryOutcome.FAILED, "QoreID refused the look-up (HTTP 402)")
        if status in _UNAVAILABLE or status >= 500:
            return self._result(RegistryOutcome.UNAVAILABLE, f"QoreID answered HTTP {status}")
        if status == 404:
            if body:
                return self._result(RegistryOutcome.NOT_FOUND, "no vehicle record at QoreID")
            return self._result(
                RegistryOutcome.FAILED,
                "QoreID has no plate look-up at the configured address (HTTP 404): check "
                "HAKIKI_QOREID_BASE_URL (e.g. https://api.qoreid.com)",
            )
        if status >= 400:
            return self._result(RegistryOutcome.FAILED, f"QoreID rejected the request ({status})")
        reference = str(body["id"])[:120] if isinstance(body.get("id"), (int, str)) else None
        plate = body.get("license_plate")
        record = record_from(plate) if isinstance(plate, dict) else None
        if record is None:
            return self._result(
                RegistryOutcome.UNAVAILABLE,
                f"QoreID answered HTTP {status} without a vehicle record",
                reference,
            )
        return RegistryResult(RegistryOutcome.FOUND, self.name, record, reference, "found")

    def _result(
        self, outcome: RegistryOutcome, message: str, reference: str | None = None
    ) -> RegistryResult:
        return RegistryResult(outcome, self.name, None, reference, message)


def _text(data: dict[str, Any], key: str) -> str | None:
    value = data.get(key)
    if isinstance(value, str):
        text = " ".join(value.split())
        return text[:200] or None
    return None


def record_from(data: dict[str, Any]) -> RegistryRecord | None:
    """QoreID's ``license_plate`` as our record; None when it names no vehicle."""
    names = [_text(data, key) for key in ("firstname", "middlename", "lastname")]
    owner = " ".join(name for name in names if name)
    record = RegistryRecord(
        registration_number=_text(data, "plateNumber"),
        chassis_number=_text(data, "chassisNumber"),
        make=_text(data, "vehicleMake"),
        model=_text(data, "vehicleModel"),
        owners=(Owner(owner),) if owner else (),
        not_given=NOT_GIVEN,
    )
    if not (record.registration_number or record.chassis_number or record.make):
        return None
    return record


def build_qoreid(settings: Settings) -> QoreIdVehicleRegistry | None:
    """The configured adapter, or None without credentials."""
    client_id = (settings.qoreid_client_id or "").strip()
    secret = (settings.qoreid_secret or "").strip()
    if not (client_id and secret):
        return None
    return QoreIdVehicleRegistry(
        client_id,
        secret,
        settings.qoreid_base_url,
        settings.provider_timeout_seconds,
        token_url=(settings.qoreid_token_url or "").strip() or None,
    )
