"""Live adapter for Dojah's Nigerian KYC look-ups: a second provider for BVN and NIN, behind or
ahead of Prembly as the deployment orders them, and the provider of phone-number look-ups
(docs/providers.md).

Sources (read through the project's documentation search; nothing here was guessed silently):

* Authentication -- every docs.dojah.io endpoint page ("Header" tables, e.g.
  /docs/nigeria/verify-bvn-with-selfie-image, /docs/address-verification/...): two headers,
  ``AppId`` (the app's id from the dashboard) and ``Authorization`` carrying the secret key
  itself ("Use <key> not Bearer <key>").
* Base URL ``https://api.dojah.io`` (production; Dojah's sandbox is ``https://sandbox.dojah.io``),
  ``HAKIKI_DOJAH_BASE_URL``. Paths are appended to the base URL's path.
* Look-ups are GETs with the number in the query (docs "KYC - Lookup BVN Normal" and "KYC - Get
  NIN Info" and "KYC - Lookup Phone Number" in Dojah's API reference; the same list in
  dojah-inc's generated SDKs): ``GET /api/v1/kyc/bvn/full?bvn=``, ``GET /api/v1/kyc/nin?nin=``
  and ``GET /api/v1/kyc/phone_number?phone_number=`` (the NIN record linked to a phone number;
  Hakiki sends the local form, 0 then 10 digits).
* Answers -- HTTP 200 with the record under ``entity``. BVN: ``first_name``, ``middle_name``,
  ``last_name``, ``date_of_birth`` ("01-January-1907" or ISO), ``gender``, ``phone_number1``,
  ``nationality``, ``reference``. NIN: ``first_name``, ``middle_name``, ``surname``,
  ``birth_date``, ``gender``, ``telephone``, ``nationality``, ``reference``.
* Errors -- docs "Response Codes" (/overview/response-codes): 400 bad request, 401
  unauthorised, 402 payment required (balance), 404 "URL not recognized ... Records/parameters
  not found", 405 method disabled, 408 timeout, 424 failed dependency (third-party service
  failure), 429 rate limit, 500/502/503/504 server error. Error bodies are ``{"error": "..."}``
  (e.g. ``{"error": "vnin not found"}`` on the vNIN page).
  ASSUMPTIONS: a 400 or 404 whose ``error`` says "not found" is the registry's "no record";
  a 404 without such a body is a wrong address (configuration), never "not found"; 403 is a
  refusal like 401.

The adapter never raises for upstream trouble and never logs or echoes the looked-up number.
"""

from __future__ import annotations

import logging
from typing import Any

from hakiki.core.providers import dojah
from hakiki.core.upstream_http import (
    UpstreamAnswer,
    UpstreamClient,
    UpstreamTimeout,
    UpstreamUnreachable,
)
from hakiki.identity.providers.base import IdentityRecord, LookupOutcome, LookupResult
from hakiki.identity.providers.fields import iso_date, normalise_gender, pick, scrub, title_name

logger = logging.getLogger(__name__)

PROVIDER_NAME = "dojah"
COUNTRY = "NG"

#: Endpoint path and query parameter per channel.
ENDPOINTS: dict[str, tuple[str, str]] = {
    "bvn": ("/api/v1/kyc/bvn/full", "bvn"),
    "nin": ("/api/v1/kyc/nin", "nin"),
    "phone": ("/api/v1/kyc/phone_number", "phone_number"),
}
CHANNELS: frozenset[str] = frozenset(ENDPOINTS)

#: The shared reading of Dojah's statuses (core.providers.dojah) as identity outcomes: a
#: refusal for our account's sake falls back (``provider_fault``); a rejected number does not.
_OUTCOMES = {
    "failed": LookupOutcome.FAILED,
    "rejected": LookupOutcome.FAILED,
    "unavailable": LookupOutcome.UNAVAILABLE,
    "not_found": LookupOutcome.NOT_FOUND,
}


class DojahProvider:
    """`IdentityProvider` for Dojah: Nigeria's BVN, NIN and (NIN-linked) phone numbers.

    ``client`` lets the caller share an `UpstreamClient`; the provider then leaves it open in
    `aclose`. The per-request timeout is always ``timeout`` seconds.
    """

    name = PROVIDER_NAME

    def __init__(
        self,
        app_id: str,
        secret_key: str,
        base_url: str,
        timeout: float,
        client: UpstreamClient | None = None,
    ) -> None:
        self._app_id = app_id
        self._secret_key = secret_key
        self._base_url = base_url.rstrip("/")
        self._timeout_seconds = timeout
        self._owns_client = client is None
        self._client = client if client is not None else UpstreamClient(timeout)

    def supports(self, country: str, channel: str) -> bool:
        return country.upper() == COUNTRY and channel.lower() in CHANNELS

    async def aclose(self) -> None:
        if self._owns_client:
            await self._client.aclose()

    async def lookup(
        self,
        country: str,
        channel: str,
        number: str,
        *,
        last_name: str | None = None,
        first_name: str | None = None,
    ) -> LookupResult:
        channel = channel.lower()
        if not self.supports(country, channel):
            return self._result(
                LookupOutcome.FAILED,
                f"Dojah does not handle channel {channel!r} for country {country!r}",
            )
        number = "".join((number or "").split())
        if not number:
            return self._result(LookupOutcome.FAILED, f"no {channel} number given")
        path, parameter = ENDPOINTS[channel]
        try:
            response = await self._client.get(
                self._base_url + path,
                {parameter: number},
                headers=dojah.headers(self._app_id, self._secret_key),
                within=self._timeout_seconds,
            )
        except UpstreamTimeout:
            logger.warning("dojah %s look-up timed out", channel)
            return self._result(
                LookupOutcome.UNAVAILABLE,
                f"Dojah did not answer within {self._timeout_seconds:g}s",
            )
        except UpstreamUnreachable as exc:
            logger.warning("dojah %s look-up failed: %s", channel, exc.cause)
            return self._result(LookupOutcome.UNAVAILABLE, f"could not reach Dojah ({exc.cause})")
        except Exception as exc:  # never raise for upstream trouble
            logger.exception("dojah %s look-up crashed", channel)
            return self._result(
                LookupOutcome.UNAVAILABLE, f"error talking to Dojah ({type(exc).__name__})"
            )
        try:
            result = self._interpret(channel, number, response)
        except Exception as exc:  # a body shape nobody foresaw must not escape either
            logger.exception("dojah %s answer could not be read", channel)
            return self._result(
                LookupOutcome.UNAVAILABLE, f"unreadable answer from Dojah ({type(exc).__name__})"
            )
        logger.info(
            "dojah %s look-up: HTTP %s -> %s", channel, response.status_code, result.outcome
        )
        return result

    def _interpret(self, channel: str, number: str, response: UpstreamAnswer) -> LookupResult:
        status = response.status_code
        try:
            payload: Any = response.json()
        except ValueError:
            payload = None
        body: dict[str, Any] = payload if isinstance(payload, dict) else {}
        verdict = dojah.read_status(status, scrub(dojah.said(body), number), channel)
        if verdict is not None:
            kind, message = verdict
            return self._result(_OUTCOMES[kind], message, provider_fault=kind == "failed")
        if payload is None:
            return self._result(
                LookupOutcome.UNAVAILABLE, f"Dojah answered HTTP {status} with a non-JSON body"
            )
        entity = body.get("entity")
        if not isinstance(entity, dict):
            return self._result(
                LookupOutcome.UNAVAILABLE, f"Dojah answered HTTP {status} with an unexpected body"
            )
        reference = pick(entity, "reference", "reference_id")
        record = _to_record(channel, entity)
        if record is None:
            return self._result(
                LookupOutcome.UNAVAILABLE,
                "Dojah answered without the holder's names",
                reference,
            )
        return LookupResult(
            outcome=LookupOutcome.FOUND,
            provider=self.name,
            record=record,
            provider_reference=reference,
            message="found",
        )

    def _result(
        self,
        outcome: LookupOutcome,
        message: str,
        reference: str | None = None,
        *,
        provider_fault: bool = False,
    ) -> LookupResult:
        return LookupResult(
            outcome=outcome,
            provider=self.name,
            provider_reference=reference,
            message=message,
            provider_fault=provider_fault,
        )


def _nationality(value: str | None) -> str | None:
    if value is None:
        return "NG"  # BVNs and NINs are Nigerian records; a stated other country wins
    lowered = value.strip().lower()
    if lowered in ("", "ng", "nga", "nigeria", "nigerian"):
        return "NG"
    return None


def _to_record(channel: str, entity: dict[str, Any]) -> IdentityRecord | None:
    first = pick(entity, "first_name", "firstname", "firstName")
    middle = pick(entity, "middle_name", "middlename", "middleName")
    last = pick(entity, "last_name", "surname", "lastname", "lastName")
    if not (first or last):
        return None
    if channel == "bvn":
        born = pick(entity, "date_of_birth", "dateOfBirth", "birth_date")
        phone = pick(entity, "phone_number1", "phone_number", "phone_number2")
    else:
        born = pick(entity, "birth_date", "date_of_birth", "birthdate", "dateOfBirth")
        phone = pick(entity, "telephone", "phone_number", "telephoneno", "mobile", "msisdn")
    return IdentityRecord(
        first_name=title_name(first),
        middle_name=title_name(middle),
        last_name=title_name(last),
        date_of_birth=iso_date(born),
        gender=normalise_gender(pick(entity, "gender")),
        phone=phone,
        nationality=_nationality(pick(entity, "nationality")),
    )
