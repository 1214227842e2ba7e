"""Live adapter for Prembly (formerly IdentityPass / myidentitypass) Nigerian registry look-ups.

Sources (read through the project's documentation search; nothing here was guessed silently):

* Authentication -- every docs.prembly.com endpoint page ("Request Header" tables, e.g.
  https://docs.prembly.com/docs/bvn-advance-copy and /docs/basic-cac-copy): two headers,
  ``x-api-key`` (the secret key) and ``app-id``. Bodies are JSON, method POST.
* Base URL ``https://api.prembly.com`` (``HAKIKI_PREMBLY_BASE_URL``). The current pages print
  absolute URLs of the form ``https://api.prembly.com/verification/<endpoint>`` (BVN Advance:
  ``/verification/bvn``; Advance CAC: ``/verification/cac/advance``; Passport V2:
  ``/verification/national_passport_v2``). Older revisions of the same pages show
  ``{{URL}}/identitypass/verification/<endpoint>``; an operator on that gateway sets the base URL
  to ``https://api.prembly.com/identitypass`` -- paths are appended to the base URL's path.
* BVN -- ``POST /verification/bvn`` body ``{"number": bvn}`` (docs "BVN Advance"). ``data`` holds
  ``firstName``, ``middleName``, ``lastName``, ``dateOfBirth`` ("01-Jan-2000", "2-Aug-1904"),
  ``gender`` ("Female"), ``phoneNumber1`` (Advance) or ``phoneNumber`` (docs "BVN Basic").
* NIN -- ``POST /verification/vnin`` (docs "NIN and Virtual NIN", /docs/nin-and-virtual-nin-copy,
  printed there as ``{{URL}}/identitypass/verification/vnin``; ``/verification/vnin`` is what the
  current URL scheme gives and what recent integrations call). Body: the raw 11-digit NIN goes
  in ``number_nin``, a 16-character virtual NIN in ``number`` (legacy developer.myidentitypass.com
  "Lookup Virtual NIN" page, which documents both keys). The record comes back under
  ``nin_data`` (legacy page and integrations) -- ``data`` is accepted too -- with ``firstname``,
  ``surname``, ``middlename``, ``birthdate`` ("24-09-1989" / "21 JAN 1990"), ``gender``
  ("m"/"f"), ``telephoneno``.
* CAC -- ``POST /verification/cac`` body ``{"rc_number": "092932", "company_type": "RC"}``
  (docs "Basic CAC", /docs/basic-cac-copy; company_type is BN, RC or IT, default RC; the legacy
  page adds LL and LLP). ``data`` holds ``company_name``, ``rc_number``, ``company_status``,
  ``company_address``, ``registrationDate``, ``company_type``. ASSUMPTION: the ``/verification/``
  form of this path is inferred from the current scheme (the Basic CAC page still prints the
  ``identitypass`` form); integrations in the wild call it.
* Passport -- ``POST /verification/national_passport`` body ``{"number", "last_name"}`` (docs
  "International Passport", /docs/international-passport-copy, test data A00400000 / "test";
  legacy path ``.../verification/national_passport``). ``data`` holds ``first_name``,
  ``last_name``, ``middle_name``, ``dob`` ("1980-12-22"), ``mobile``, ``gender``. ASSUMPTION: the
  ``/verification/`` form of the path, inferred as for CAC.
* Driver's licence -- ``POST /verification/drivers_license/advance/v2`` body ``{"number",
  "first_name", "last_name"}`` (docs "Drivers License V2", /docs/drivers-license-v2, test data
  ABC12345YZ00 / john / doe). The record comes back under ``frsc_data`` with ``firstname``,
  ``lastname``, ``middlename``, ``birthdate`` ("01-01-1990"), ``gender``.
* Outcomes -- docs "Response Codes and Verification Status"
  (/docs/response-codes-and-verification-status): ``response_code`` inside an HTTP 200 --
  "00" success, "01" record not found, "02" service unavailable (retry later), "03" insufficient
  wallet balance, "07" BVN blocked / watch-listed; ``verification.status`` is VERIFIED,
  NOT-VERIFIED or PENDING and ``verification.reference`` identifies the check.
  ASSUMPTIONS: the HTTP status and body Prembly uses for bad credentials (we treat 401/403 and a
  402 as "refused"), and that "07" is a refusal (FAILED) rather than "not found".

The adapter never raises for upstream trouble and never logs or echoes the looked-up number.
"""

from __future__ import annotations

import logging
import re
from typing import Any

from hakiki.core.upstream_http import (
    UpstreamAnswer,
    UpstreamClient,
    UpstreamTimeout,
    UpstreamUnreachable,
)
from hakiki.identity.providers.base import IdentityRecord, LookupOutcome, LookupResult
from hakiki.identity.providers.fields import iso_date, normalise_gender, title_name
from hakiki.identity.providers.fields import pick as _pick
from hakiki.identity.providers.fields import scrub as _scrub

logger = logging.getLogger(__name__)

PROVIDER_NAME = "prembly"
COUNTRY = "NG"
CHANNELS: frozenset[str] = frozenset({"bvn", "nin", "cac", "passport", "drivers_license"})

#: Endpoint path per channel, appended to the configured base URL.
PATHS: dict[str, str] = {
    "bvn": "/verification/bvn",
    "nin": "/verification/vnin",
    "cac": "/verification/cac",
    "passport": "/verification/national_passport",
    "drivers_license": "/verification/drivers_license/advance/v2",
}

CODE_FOUND = "00"
CODE_NOT_FOUND = "01"
CODE_UNAVAILABLE = "02"
CODE_INSUFFICIENT_BALANCE = "03"
CODE_BLOCKED = "07"

_CAC_TYPES = ("LLP", "LL", "RC", "BN", "IT")  # longest prefix first


class PremblyProvider:
    """`IdentityProvider` for Prembly: Nigeria's BVN, NIN, CAC and international passport.

    ``client`` lets the caller share an `UpstreamClient`; the provider then leaves it open in
    `aclose`. The per-request timeout is always ``timeout`` seconds.
    """

    name = PROVIDER_NAME

    def __init__(
        self,
        app_id: str,
        api_key: str,
        base_url: str,
        timeout: float,
        client: UpstreamClient | None = None,
    ) -> None:
        self._app_id = app_id
        self._api_key = api_key
        self._base_url = base_url.rstrip("/")
        self._timeout_seconds = timeout
        self._owns_client = client is None
        self._client = client if client is not None else UpstreamClient(timeout)

    def supports(self, country: str, channel: str) -> bool:
        return country.upper() == COUNTRY and channel.lower() in CHANNELS

    async def aclose(self) -> None:
        if self._owns_client:
            await self._client.aclose()

    # ------------------------------------------------------------------ lookup

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
                f"Prembly does not handle channel {channel!r} for country {country!r}",
            )
        number = (number or "").strip()
        if not number:
            return self._result(LookupOutcome.FAILED, f"no {channel} number given")
        if channel == "passport" and not (last_name and last_name.strip()):
            return self._result(
                LookupOutcome.FAILED, "Prembly passport look-ups need the holder's last name"
            )

        if channel == "drivers_license" and not (
            last_name and last_name.strip() and first_name and first_name.strip()
        ):
            return self._result(
                LookupOutcome.FAILED, "Prembly driver's licence look-ups need the holder's names"
            )

        body = _request_body(channel, number, last_name, first_name)
        try:
            response = await self._client.post_json(
                self._base_url + PATHS[channel],
                body,
                headers={
                    "x-api-key": self._api_key,
                    "app-id": self._app_id,
                    "accept": "application/json",
                },
                within=self._timeout_seconds,
            )
        except UpstreamTimeout:
            logger.warning("prembly %s look-up timed out", channel)
            return self._result(
                LookupOutcome.UNAVAILABLE,
                f"Prembly did not answer within {self._timeout_seconds:g}s",
            )
        except UpstreamUnreachable as exc:
            logger.warning("prembly %s look-up failed: %s", channel, exc.cause)
            return self._result(LookupOutcome.UNAVAILABLE, f"could not reach Prembly ({exc.cause})")
        except Exception as exc:  # never raise for upstream trouble
            logger.exception("prembly %s look-up crashed", channel)
            return self._result(
                LookupOutcome.UNAVAILABLE, f"error talking to Prembly ({type(exc).__name__})"
            )

        try:
            result = self._interpret(channel, number, response)
        except Exception as exc:  # a body shape nobody foresaw must not escape either
            logger.exception("prembly %s answer could not be read", channel)
            return self._result(
                LookupOutcome.UNAVAILABLE, f"unreadable answer from Prembly ({type(exc).__name__})"
            )
        logger.info(
            "prembly %s look-up: HTTP %s -> %s", channel, response.status_code, result.outcome
        )
        return result

    def _interpret(self, channel: str, number: str, response: UpstreamAnswer) -> LookupResult:
        status = response.status_code
        payload: Any
        try:
            payload = response.json()
        except ValueError:
            payload = None
        body: dict[str, Any] = payload if isinstance(payload, dict) else {}
        reference = _reference(body)
        code = str(body.get("response_code") or "").strip()
        upstream = _scrub(_upstream_detail(body), number)

        if status in (401, 402, 403) or code == CODE_INSUFFICIENT_BALANCE:
            if code == CODE_INSUFFICIENT_BALANCE or status == 402:
                why = "Prembly refused the look-up: the Prembly wallet balance is insufficient"
            else:
                why = (
                    f"Prembly refused the credentials (HTTP {status}): check "
                    "HAKIKI_PREMBLY_APP_ID / HAKIKI_PREMBLY_API_KEY and the Prembly wallet balance"
                )
            if upstream:
                why += f" [Prembly: {upstream}]"
            return self._result(LookupOutcome.FAILED, why, reference, provider_fault=True)
        if status == 429:
            return self._result(LookupOutcome.UNAVAILABLE, "Prembly rate-limited the look-up")
        if status >= 500:
            return self._result(LookupOutcome.UNAVAILABLE, f"Prembly answered HTTP {status}")
        if payload is None:
            return self._result(
                LookupOutcome.UNAVAILABLE, f"Prembly answered HTTP {status} with a non-JSON body"
            )
        if not body:
            return self._result(
                LookupOutcome.UNAVAILABLE, f"Prembly answered HTTP {status} with an unexpected body"
            )

        if code == CODE_NOT_FOUND or (not code and _verification_status(body) == "NOT-VERIFIED"):
            return self._result(
                LookupOutcome.NOT_FOUND, f"no {channel} record found at Prembly", reference
            )
        if code == CODE_UNAVAILABLE:
            return self._result(
                LookupOutcome.UNAVAILABLE,
                "Prembly reports the registry unavailable; retry later",
                reference,
            )
        if code == CODE_BLOCKED:
            return self._result(
                LookupOutcome.FAILED,
                f"Prembly reports this {channel} as blocked / watch-listed",
                reference,
            )
        if code == CODE_FOUND and status < 300 and body.get("status") is not False:
            data = _record_data(channel, body)
            record = _to_record(channel, data) if data is not None else None
            if record is not None:
                return LookupResult(
                    outcome=LookupOutcome.FOUND,
                    provider=self.name,
                    record=record,
                    provider_reference=reference,
                    message="found",
                )
        code_text = f"response_code {code!r}" if code else "no response_code"
        return self._result(
            LookupOutcome.UNAVAILABLE,
            f"Prembly answered HTTP {status} with an unexpected body ({code_text})",
            reference,
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


# ---------------------------------------------------------------------- requests


def split_cac_number(number: str) -> tuple[str, str]:
    """``"RC 1234567"`` -> ``("RC", "1234567")``; a bare number is an RC number."""
    compact = re.sub(r"[\s\-/_.]", "", number).upper()
    for prefix in _CAC_TYPES:
        if compact.startswith(prefix) and len(compact) > len(prefix):
            return prefix, compact[len(prefix) :]
    return "RC", compact


def _request_body(
    channel: str, number: str, last_name: str | None, first_name: str | None = None
) -> dict[str, str]:
    if channel == "nin":
        compact = re.sub(r"\s", "", number)
        if compact.isdigit():
            return {"number_nin": compact}  # raw 11-digit NIN
        return {"number": compact.upper()}  # 16-character virtual NIN
    if channel == "cac":
        company_type, rc_number = split_cac_number(number)
        return {"rc_number": rc_number, "company_type": company_type}
    if channel == "passport":
        return {"number": re.sub(r"\s", "", number).upper(), "last_name": (last_name or "").strip()}
    if channel == "drivers_license":
        return {
            "number": re.sub(r"\s", "", number).upper(),
            "first_name": (first_name or "").strip(),
            "last_name": (last_name or "").strip(),
        }
    return {"number": re.sub(r"\s", "", number)}


# ---------------------------------------------------------------------- responses


def _reference(body: dict[str, Any]) -> str | None:
    verification = body.get("verification")
    if isinstance(verification, dict):
        ref = verification.get("reference")
        if isinstance(ref, str) and ref.strip():
            return ref.strip()
    return None


def _verification_status(body: dict[str, Any]) -> str:
    verification = body.get("verification")
    if isinstance(verification, dict):
        return str(verification.get("status") or "").upper()
    return ""


def _upstream_detail(body: dict[str, Any]) -> str:
    for key in ("detail", "message", "error"):
        value = body.get(key)
        if isinstance(value, str) and value.strip():
            return value.strip()
    return ""


def _record_data(channel: str, body: dict[str, Any]) -> dict[str, Any] | None:
    keys = {"nin": ("nin_data", "data"), "drivers_license": ("frsc_data", "data")}.get(
        channel, ("data",)
    )
    for key in keys:
        data = body.get(key)
        if isinstance(data, list):  # CAC advance answers a list of matches
            data = data[0] if data else None
        if isinstance(data, dict) and data:
            return data
    return None


def _nationality(value: str | None) -> str | None:
    if value and value.strip().lower() in ("ng", "nga", "nigeria", "nigerian"):
        return "NG"
    return None


def _to_record(channel: str, data: dict[str, Any]) -> IdentityRecord | None:
    if channel == "cac":
        business_name = _pick(data, "company_name", "companyName", "name", "approvedName")
        if not business_name:
            return None
        extra = {
            key: value
            for key, value in {
                "company_type": _pick(data, "company_type", "entity_type", "companyType"),
                "company_status": _pick(data, "company_status", "status"),
                "registration_date": iso_date(
                    _pick(data, "registrationDate", "date_of_registration")
                ),
                "address": _pick(data, "company_address", "address", "branchAddress"),
                "state": _pick(data, "state"),
            }.items()
            if value
        }
        return IdentityRecord(business_name=business_name, nationality="NG", extra=extra)

    if channel == "bvn":
        first = _pick(data, "firstName", "first_name", "firstname")
        middle = _pick(data, "middleName", "middle_name", "middlename")
        last = _pick(data, "lastName", "last_name", "surname")
        dob = _pick(data, "dateOfBirth", "date_of_birth", "dob")
        gender = _pick(data, "gender")
        phone = _pick(data, "phoneNumber", "phoneNumber1", "phone_number", "phoneNumber2")
        nationality = _nationality(_pick(data, "nationality"))
    elif channel in ("nin", "drivers_license"):
        first = _pick(data, "firstname", "firstName", "first_name")
        middle = _pick(data, "middlename", "middleName", "middle_name")
        last = _pick(data, "surname", "lastname", "lastName", "last_name")
        dob = _pick(data, "birthdate", "dateOfBirth", "dob")
        gender = _pick(data, "gender")
        phone = _pick(data, "telephoneno", "phone", "phoneNumber")
        nationality = _nationality(_pick(data, "nationality", "birthcountry"))
    else:  # passport: a Nigerian passport holder is a Nigerian citizen
        first = _pick(data, "first_name", "firstName", "currentFirstName")
        middle = _pick(data, "middle_name", "middleName", "currentMiddleName")
        last = _pick(data, "last_name", "lastName", "surname", "currentLastName")
        dob = _pick(data, "dob", "dateOfBirth", "date_of_birth", "currentDateOfBirthLabel")
        gender = _pick(data, "gender", "currentGender")
        phone = _pick(data, "mobile", "phone", "phoneNumber")
        nationality = "NG"

    if not (first or last):
        return None
    return IdentityRecord(
        first_name=title_name(first),
        middle_name=title_name(middle),
        last_name=title_name(last),
        date_of_birth=iso_date(dob),
        gender=normalise_gender(gender),
        phone=phone,
        nationality=nationality,
    )
