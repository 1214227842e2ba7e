"""Live adapter for Smile ID's identity look-up ("Enhanced KYC"), the Kenyan and Ugandan channels.

Sources (Smile ID's public documentation, read through the project's documentation search, and
its official Python library ``smile-identity-core``; docs/decisions.md lists the assumptions):

* Endpoint -- docs "Enhanced KYC" (docs.usesmileid.com/products/for-individuals-kyc/
  identity-lookup): synchronous ``POST {base}/id_verification`` with a JSON body, base
  ``https://api.smileidentity.com/v1`` (production) or ``https://testapi.smileidentity.com/v1``
  (sandbox). The asynchronous ``/async_id_verification`` needs a public callback URL; Hakiki
  uses the synchronous call and its own PENDING flow instead (kyc/completion.py).
* Body -- ``partner_id``, ``source_sdk`` ("rest_api"), ``source_sdk_version``, ``timestamp``
  (ISO 8601), ``signature``, ``country``, ``id_type``, ``id_number`` and ``partner_params``
  (``job_id``, ``user_id``, ``job_type`` 5). Names, date of birth and phone are optional for
  Enhanced KYC and are not sent: Hakiki compares names itself, and sends no more personal data
  than the look-up needs.
* Signature -- base64 of HMAC-SHA256 keyed with the API key over ``timestamp + partner_id +
  "sid_request"`` (smile_id_core.Signature.generate_signature). Answers carry a ``timestamp``
  and ``signature`` made the same way; one that does not verify is not trusted.
* Result -- HTTP 200 with ``ResultCode`` / ``ResultText`` (docs "Result codes"): 1012 "ID Number
  Validated" with ``Actions.Return_Personal_Info`` "Returned" and ``FullName``, ``DOB``,
  ``Gender``, ``PhoneNumber`` ("Not Available" when the authority has none), ``IDNumber``,
  ``SmileJobID``, ``FullData`` (the authority's own record); 1013 "Unable to Validate ID" (not
  found), 1023 "Not Found" (not found, not charged by Smile ID), 1014 "Unsupported ID number
  format", 1015 "Queried Database Unavailable", 1016 "Need to Activate Product".
* Errors -- HTTP 4xx with ``{"code", "error"}`` (docs "Error codes"): 2204/2205/2405 "You are not
  authorized to do that" (a wrong signature, key or environment), 2220 production not enabled,
  2201/2301/2401 system error, 2213 a required parameter missing, 2215 job_id reused.
* id_types -- docs "Using ID Number": KE ``NATIONAL_ID``, ``ALIEN_CARD``, ``PASSPORT``,
  ``KRA_PIN``; UG ``NATIONAL_ID_NO_PHOTO``. Smile ID documents no Tanzanian id_type, nor
  passports or driving licences of Uganda or Tanzania: those channels run on Smile ID only when
  the operator maps them (``HAKIKI_SMILE_ID_ID_TYPES``) to an id_type Smile ID enabled on the
  account.

The adapter never raises for upstream trouble and never logs or echoes the looked-up number.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import logging
import uuid
from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any

from hakiki.core.upstream_http import (
    UpstreamAnswer,
    UpstreamClient,
    UpstreamTimeout,
    UpstreamUnreachable,
)
from hakiki.identity.channels import find_channel
from hakiki.identity.providers.base import IdentityRecord, LookupOutcome, LookupResult
from hakiki.identity.providers.fields import iso_date, normalise_gender, pick, scrub, title_name

logger = logging.getLogger(__name__)

PROVIDER_NAME = "smile_id"
PRODUCTION_BASE_URL = "https://api.smileidentity.com/v1"
SANDBOX_BASE_URL = "https://testapi.smileidentity.com/v1"
PATH = "/id_verification"
SOURCE_SDK = "rest_api"
SOURCE_SDK_VERSION = "1.0.0"
ENHANCED_KYC_JOB_TYPE = 5

#: Hakiki channel (country, code) -> Smile ID id_type, as Smile ID documents them.
DOCUMENTED_ID_TYPES: dict[tuple[str, str], str] = {
    ("KE", "national_id"): "NATIONAL_ID",
    ("KE", "alien_card"): "ALIEN_CARD",
    ("KE", "passport"): "PASSPORT",
    ("KE", "kra_pin"): "KRA_PIN",
    ("UG", "nin"): "NATIONAL_ID_NO_PHOTO",
}

CODE_VALIDATED = "1012"
CODES_NOT_FOUND = frozenset({"1013", "1023"})
CODE_BAD_FORMAT = "1014"
CODE_AUTHORITY_DOWN = "1015"
CODE_NOT_ACTIVATED = "1016"
ERRORS_REFUSED = frozenset({"2204", "2205", "2405", "2220"})
ERRORS_SYSTEM = frozenset({"2201", "2301", "2401"})

_NOT_AVAILABLE = frozenset({"not available", "n/a", "na", "none", "null", "-"})
# Documents only citizens hold: their holder's nationality is the issuing country.
_CITIZENS_DOCUMENTS = frozenset({"national_id", "nin", "nida", "passport"})
_NATIONALITIES = {
    "KE": ("ke", "ken", "kenya", "kenyan"),
    "UG": ("ug", "uga", "uganda", "ugandan"),
    "TZ": ("tz", "tza", "tanzania", "tanzanian"),
    "NG": ("ng", "nga", "nigeria", "nigerian"),
}


def id_types(overrides: Mapping[str, str]) -> dict[tuple[str, str], str]:
    """The documented id_types with the operator's ``COUNTRY:channel`` overrides applied (an
    empty id_type turns a channel off); a ValueError names an override that is no channel."""
    merged = dict(DOCUMENTED_ID_TYPES)
    for key, id_type in overrides.items():
        country, _, code = key.partition(":")
        channel = find_channel(code, country)
        if channel is None:
            raise ValueError(
                f"HAKIKI_SMILE_ID_ID_TYPES: {key!r} is not a channel; GET /v3/screening/channels "
                "lists them (COUNTRY:code, e.g. TZ:nida)"
            )
        if id_type:
            merged[(channel.country, channel.code)] = id_type
        else:
            merged.pop((channel.country, channel.code), None)
    return merged


def sign(api_key: str, partner_id: str, timestamp: str) -> str:
    """Smile ID's signature of a request or an answer made at ``timestamp``."""
    digest = hmac.new(api_key.encode(), digestmod=hashlib.sha256)
    for part in (timestamp, partner_id, "sid_request"):
        digest.update(part.encode())
    return base64.b64encode(digest.digest()).decode()


class SmileIdProvider:
    """`IdentityProvider` for Smile ID Enhanced KYC.

    ``client`` lets the caller share an `UpstreamClient`; the provider then leaves it open in
    `aclose`. The per-request timeout is always ``timeout`` seconds.
    """

    name = PROVIDER_NAME

    def __init__(
        self,
        partner_id: str,
        api_key: str,
        base_url: str,
        timeout: float,
        id_type_map: Mapping[tuple[str, str], str] | None = None,
        client: UpstreamClient | None = None,
    ) -> None:
        self._partner_id = partner_id
        self._api_key = api_key
        self._url = base_url.rstrip("/") + PATH
        self._id_types = dict(DOCUMENTED_ID_TYPES if id_type_map is None else id_type_map)
        self._timeout_seconds = timeout
        self._owns_client = client is None
        self._client = client if client is not None else UpstreamClient(timeout)

    def supports(self, country: str, channel: str) -> bool:
        return (country.upper(), channel.lower()) in self._id_types

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
        country, channel, number = country.upper(), channel.lower(), number.strip()
        id_type = self._id_types.get((country, channel))
        if id_type is None:
            return self._result(
                LookupOutcome.FAILED, f"Smile ID is not set up for {country} {channel}"
            )
        if not number:
            return self._result(LookupOutcome.FAILED, f"no {channel} number given")

        job_id = f"hakiki-{uuid.uuid4().hex}"
        try:
            response = await self._client.post_json(
                self._url,
                self._request_body(country, id_type, number, job_id),
                headers={"accept": "application/json"},
                within=self._timeout_seconds,
            )
        except UpstreamTimeout:
            logger.warning("smile_id %s %s look-up timed out", country, id_type)
            return self._result(
                LookupOutcome.UNAVAILABLE,
                f"Smile ID did not answer within {self._timeout_seconds:g}s",
            )
        except UpstreamUnreachable as exc:
            logger.warning("smile_id %s %s look-up failed: %s", country, id_type, exc.cause)
            return self._result(
                LookupOutcome.UNAVAILABLE, f"could not reach Smile ID ({exc.cause})"
            )
        except Exception as exc:  # never raise for upstream trouble
            logger.exception("smile_id %s %s look-up crashed", country, id_type)
            return self._result(
                LookupOutcome.UNAVAILABLE, f"error talking to Smile ID ({type(exc).__name__})"
            )

        try:
            result = self._interpret(country, channel, number, job_id, response)
        except Exception as exc:  # a body shape nobody foresaw must not escape either
            logger.exception("smile_id %s %s answer could not be read", country, id_type)
            return self._result(
                LookupOutcome.UNAVAILABLE,
                f"unreadable answer from Smile ID ({type(exc).__name__})",
            )
        logger.info(
            "smile_id %s %s look-up: HTTP %s -> %s",
            country,
            id_type,
            response.status_code,
            result.outcome,
        )
        return result

    def _request_body(self, country: str, id_type: str, number: str, job_id: str) -> dict[str, Any]:
        timestamp = datetime.now(UTC).isoformat(timespec="milliseconds")
        return {
            "partner_id": self._partner_id,
            "source_sdk": SOURCE_SDK,
            "source_sdk_version": SOURCE_SDK_VERSION,
            "timestamp": timestamp,
            "signature": sign(self._api_key, self._partner_id, timestamp),
            "country": country,
            "id_type": id_type,
            "id_number": number,
            # Neither id may carry personal data: Smile ID keeps them with the job.
            "partner_params": {
                "job_id": job_id,
                "user_id": f"hakiki-{uuid.uuid4().hex}",
                "job_type": ENHANCED_KYC_JOB_TYPE,
            },
        }

    def _interpret(
        self, country: str, channel: str, number: str, job_id: str, response: UpstreamAnswer
    ) -> LookupResult:
        status = response.status_code
        try:
            payload: Any = response.json()
        except ValueError:
            payload = None
        body: dict[str, Any] = payload if isinstance(payload, dict) else {}
        if status >= 400 or ("code" in body and "ResultCode" not in body):
            return self._refusal(status, body, number)
        if payload is None:
            return self._result(
                LookupOutcome.UNAVAILABLE, f"Smile ID answered HTTP {status} with a non-JSON body"
            )
        code = str(body.get("ResultCode") or "").strip()
        if not code:
            return self._result(
                LookupOutcome.UNAVAILABLE,
                f"Smile ID answered HTTP {status} with an unexpected body",
            )
        distrust = self._distrust(body, job_id)
        if distrust:
            return self._result(LookupOutcome.UNAVAILABLE, distrust)

        reference = pick(body, "SmileJobID") or job_id
        text = scrub(str(body.get("ResultText") or ""), number)
        if code in CODES_NOT_FOUND:
            return self._result(
                LookupOutcome.NOT_FOUND, f"no {channel} record found at Smile ID", reference
            )
        if code == CODE_AUTHORITY_DOWN:
            return self._result(
                LookupOutcome.UNAVAILABLE,
                "Smile ID reports the ID authority unavailable (1015); retry later",
                reference,
            )
        if code == CODE_NOT_ACTIVATED:
            return self._result(
                LookupOutcome.FAILED,
                f"Smile ID has not activated {self._id_types[(country, channel)]} for this account "
                "(1016): ask Smile ID, or map the channel otherwise in HAKIKI_SMILE_ID_ID_TYPES",
                reference,
                provider_fault=True,
            )
        if code == CODE_BAD_FORMAT:
            return self._result(
                LookupOutcome.FAILED,
                f"Smile ID refused the {channel} number's format (1014)",
                reference,
            )
        if code == CODE_VALIDATED:
            record = _to_record(country, channel, body)
            if record is None:
                return self._result(
                    LookupOutcome.UNAVAILABLE,
                    "Smile ID validated the number but returned no personal information",
                    reference,
                )
            return LookupResult(
                outcome=LookupOutcome.FOUND,
                provider=self.name,
                record=record,
                provider_reference=reference,
                message="found",
            )
        detail = f": {text}" if text else ""
        return self._result(
            LookupOutcome.UNAVAILABLE,
            f"Smile ID answered an unexpected ResultCode {code[:8]!r}{detail}",
            reference,
        )

    def _refusal(self, status: int, body: dict[str, Any], number: str) -> LookupResult:
        code = str(body.get("code") or "").strip()
        text = scrub(str(body.get("error") or ""), number)
        said = f" [Smile ID {code}: {text}]" if code or text else ""
        if code in ERRORS_REFUSED or (status in (401, 403) and not code):
            return self._result(
                LookupOutcome.FAILED,
                f"Smile ID refused the request's credentials (HTTP {status}): check "
                "HAKIKI_SMILE_ID_PARTNER_ID / HAKIKI_SMILE_ID_API_KEY and that the key belongs to "
                f"the environment of HAKIKI_SMILE_ID_BASE_URL{said}",
                provider_fault=True,
            )
        if status == 429:
            return self._result(LookupOutcome.UNAVAILABLE, "Smile ID rate-limited the look-up")
        if status >= 500 or code in ERRORS_SYSTEM:
            return self._result(LookupOutcome.UNAVAILABLE, f"Smile ID answered HTTP {status}{said}")
        if status in (404, 405):
            return self._result(
                LookupOutcome.FAILED,
                f"Smile ID has no id_verification at the configured address (HTTP {status}): "
                "check HAKIKI_SMILE_ID_BASE_URL (it ends in /v1)",
                provider_fault=True,
            )
        if code:  # a documented request error: retrying the same request cannot help
            return self._result(LookupOutcome.FAILED, f"Smile ID rejected the request{said}")
        return self._result(
            LookupOutcome.UNAVAILABLE, f"Smile ID answered HTTP {status} with an unexpected body"
        )

    def _distrust(self, body: dict[str, Any], job_id: str) -> str | None:
        """Why an answer cannot be taken as Smile ID's answer to this request, else None."""
        signature, timestamp = body.get("signature"), body.get("timestamp")
        if (signature is not None or timestamp is not None) and not _signed(
            self._api_key, self._partner_id, timestamp, signature
        ):
            return "Smile ID's answer carries a signature that does not verify"
        params = body.get("PartnerParams")
        if isinstance(params, dict) and params.get("job_id") not in (None, job_id):
            return "Smile ID answered for another job"
        return None

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


# ---------------------------------------------------------------------- responses


def _signed(api_key: str, partner_id: str, timestamp: object, signature: object) -> bool:
    if not (isinstance(timestamp, str) and isinstance(signature, str)):
        return False
    return hmac.compare_digest(sign(api_key, partner_id, timestamp), signature)


def _available(value: str | None) -> str | None:
    if value is None or value.strip().lower() in _NOT_AVAILABLE:
        return None
    return value


def _field(data: dict[str, Any], *keys: str) -> str | None:
    return _available(pick(data, *keys))


def _nationality(country: str, channel: str, full_data: dict[str, Any]) -> str | None:
    stated = _field(full_data, "Citizenship", "Nationality", "nationality", "citizenship")
    if stated:
        lowered = stated.strip().lower()
        return next((cc for cc, names in _NATIONALITIES.items() if lowered in names), None)
    return country if channel in _CITIZENS_DOCUMENTS else None


def _names(body: dict[str, Any], full_data: dict[str, Any]) -> tuple[str | None, ...]:
    """First, middle and last name: the authority's own fields (Kenya's IPRS gives First_Name,
    Other_Name, Surname) when FullData has them, else FullName read as given names then
    surname."""
    first = _field(full_data, "First_Name", "FirstName", "first_name", "firstName", "Given_Name")
    middle = _field(full_data, "Other_Name", "OtherName", "Middle_Name", "MiddleName", "other_name")
    last = _field(full_data, "Surname", "Last_Name", "LastName", "last_name", "surname")
    if first or last:
        return first, middle, last
    parts = (_field(body, "FullName") or "").split()
    if not parts:
        return None, None, None
    if len(parts) == 1:
        return None, None, parts[0]
    return parts[0], " ".join(parts[1:-1]) or None, parts[-1]


def _to_record(country: str, channel: str, body: dict[str, Any]) -> IdentityRecord | None:
    raw_full_data = body.get("FullData")
    full_data: dict[str, Any] = raw_full_data if isinstance(raw_full_data, dict) else {}
    first, middle, last = _names(body, full_data)
    if not (first or last):
        return None
    born = _field(body, "DOB") or _field(full_data, "Date_of_Birth", "DateOfBirth", "dob")
    expiry = iso_date(_field(body, "ExpirationDate"))
    return IdentityRecord(
        first_name=title_name(first),
        middle_name=title_name(middle),
        last_name=title_name(last),
        date_of_birth=iso_date(born),
        gender=normalise_gender(_field(body, "Gender") or _field(full_data, "Gender")),
        phone=_field(body, "PhoneNumber", "PhoneNumber2"),
        nationality=_nationality(country, channel, full_data),
        extra={"expiration_date": expiry} if expiry else {},
    )
