"""Live adapter for KRA's GavaConnect API (developer.go.ke): Kenya's PIN checkers (by PIN, by
national ID), the TCC checker, and a withholding certificate checker at an operator-set path.

Sources (read through the project's documentation search; what is assumed is said so; the
decisions are in docs/decisions.md, "Tax checks"):

* Token -- developer.go.ke "PIN Checker by PIN", step 1 (the same text heads every checker's
  page): ``GET {base}/v1/token/generate?grant_type=client_credentials`` with HTTP Basic
  authentication of the app's consumer key and secret; answers ``{"access_token": "...",
  "expires_in": "3599"}`` (a string of seconds) or ``{"requestId", "errorCode": "401",
  "errorMessage": "Client credentials are invalid"}``. Base URLs: ``https://sbx.kra.go.ke``
  (sandbox), ``https://api.kra.go.ke`` (production). Each API is a separate "app" on the portal
  and may have its own key and secret (``HAKIKI_GAVACONNECT_APPS``); a token is cached per key
  until shortly before it expires, and fetched again once when a checker answers 401 (or 500
  saying the access token expired, as integrators report).
* PIN by PIN -- ``POST {base}/checker/v1/pinbypin`` body ``{"KRAPIN": pin}``; answers
  ``{"ResponseCode": "23000", "Message": "Valid PIN", "Status": "OK", "PINDATA": {"KRAPIN",
  "TypeOfTaxpayer" (Individual | Non Individual), "Name", "StatusOfPIN" (Active | Suspended |
  Cancelled | Stopped)}}``; exception ``ResponseCode 19005, Status NOK, Message "Invalid PIN"``.
* PIN by ID -- ``POST {base}/checker/v1/pin`` body ``{"TaxpayerType": "KE", "TaxpayerID": id}``
  (KE: a Kenyan citizen's national ID); answers ``{"ResponseCode": "30000", "TaxpayerPIN",
  "TaxpayerName"}`` (integrators' captured sandbox answers; the portal page was not found in
  the corpus).
* TCC -- ``POST {base}/v1/kra-tcc/validate`` body ``{"kraPIN": pin, "tccNumber": number}``
  (note the casing, unlike the PIN checker's). ASSUMPTION: the answer's shape, ``{"ResponseCode",
  "Message", "Status": "OK", "TCCData": {"KRAPIN", "TCCNumber", "TCCStatus", "TCCIssueDate",
  "TCCExpiryDate"}}``, is taken from the open-source GavaConnect Java SDK's response class; no
  published sample was found.
* Errors -- checkers answer HTTP 200 with ``{"RequestId", "ErrorCode", "ErrorMessage"}`` (the
  portal's Postman samples, e.g. ``84002 Inactive / Wrong PIN``) or ``Status: NOK`` with a
  ``ResponseCode``. Codes and messages that say the record does not exist become NOT_FOUND;
  any other refusal is read as UNAVAILABLE (02, not charged) rather than billed as a verdict.
* Withholding certificates -- KRA publishes withholding PRN *generation* APIs, not a
  certificate checker. ASSUMPTION: an operator who has one (a KRA partner API) sets its path
  (``HAKIKI_GAVACONNECT_WITHHOLDING_PATH``); it is called like the TCC checker, ``POST`` body
  ``{"kraPIN": withholder_pin, "certificateNumber": number}``, answering ``Status: OK`` and
  ``WHTDATA: {"CertificateNumber", "WithholderPIN", "WithholderName", "WithholdeePIN",
  "WithholdeeName", "TaxType", "GrossAmount", "TaxAmount", "PaymentDate"}``. Without the path
  the check is not offered live (503).

The adapter never raises for upstream trouble and never logs or echoes a PIN, ID or name.
"""

from __future__ import annotations

import asyncio
import logging
import re
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import httpx

from hakiki.engines.tax.formats import FormatProblem, parse_kra_pin
from hakiki.engines.tax.readings import minor_units, read_date
from hakiki.tax.providers.base import (
    ComplianceCertificate,
    LookupOutcome,
    Record,
    TaxLookup,
    TaxpayerRecord,
    TaxQuery,
    WithholdingCertificate,
)

logger = logging.getLogger(__name__)

PROVIDER_NAME = "kra-gavaconnect"
TOKEN_PATH = "/v1/token/generate"
PATHS = {
    "pin_by_pin": "/checker/v1/pinbypin",
    "pin_by_id": "/checker/v1/pin",
    "tcc": "/v1/kra-tcc/validate",
}
PRODUCTS = ("pin_by_pin", "pin_by_id", "tcc", "withholding")
DEFAULT_TOKEN_SECONDS = 3599.0
TOKEN_MARGIN_SECONDS = 60.0  # a token this close to its expiry (or half its life) is renewed

# ResponseCode / ErrorCode values that mean "no such record" (the portal's own samples).
NOT_FOUND_CODES = frozenset({"19005", "84002"})
_NOT_FOUND_WORDS = (
    "invalid pin", "wrong pin", "invalid tcc", "invalid certificate", "invalid id",
    "not found", "does not exist", "no record", "not registered", "no data found",
)  # fmt: skip
_EXPIRED_TOKEN = re.compile(r"access token expired|invalid_token|invalid access token", re.I)
_SECRETS = re.compile(r"\b[AP]\d{9}[A-Z]\b|\d{5,}", re.I)


@dataclass(frozen=True)
class Credentials:
    key: str
    secret: str


class _Refused(Exception):
    """GavaConnect refused the credentials: FAILED, not retried."""


class _Unavailable(Exception):
    """GavaConnect could not be reached or answered nothing usable: UNAVAILABLE."""


@dataclass
class _Token:
    value: str
    renew_at: float  # a little before it expires


class GavaConnectProvider:
    """``TaxProvider`` for KRA's GavaConnect. ``client`` lets a caller share an HTTP client
    (left open by ``aclose``); ``clock`` is monotonic seconds (tests move it)."""

    name = PROVIDER_NAME

    def __init__(
        self,
        base_url: str,
        timeout: float,
        *,
        credentials: Credentials | None = None,
        apps: Mapping[str, Credentials] | None = None,
        withholding_path: str | None = None,
        client: httpx.AsyncClient | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._base_url = base_url.rstrip("/")
        self._timeout = httpx.Timeout(timeout)
        self._timeout_seconds = timeout
        self._credentials = credentials
        self._apps = dict(apps or {})
        path = (withholding_path or "").strip()
        self._withholding_path = ("/" + path.lstrip("/")) if path else None
        self._owns_client = client is None
        self._client = client if client is not None else httpx.AsyncClient(timeout=self._timeout)
        self._clock = clock
        self._tokens: dict[str, _Token] = {}
        self._locks: dict[str, asyncio.Lock] = {}

    # ------------------------------------------------------------------ what it serves

    def supports(self, query: TaxQuery) -> bool:
        if query.country != "KE":
            return False
        product = _product(query)
        if product == "withholding" and not self._withholding_path:
            return False
        return self._app(product) is not None

    def _app(self, product: str) -> Credentials | None:
        return self._apps.get(product) or self._credentials

    async def aclose(self) -> None:
        if self._owns_client:
            await self._client.aclose()

    # ------------------------------------------------------------------ look-up

    async def lookup(self, query: TaxQuery) -> TaxLookup:
        if not self.supports(query):
            return self._result(LookupOutcome.FAILED, "GavaConnect is not set up for this check")
        product = _product(query)
        path, body = self._request(product, query)
        try:
            response = await self._call(product, path, body)
        except _Refused as refused:
            return self._result(LookupOutcome.FAILED, str(refused))
        except _Unavailable as unavailable:
            return self._result(LookupOutcome.UNAVAILABLE, str(unavailable))
        try:
            result = self._interpret(query, response)
        except Exception as exc:  # a body shape nobody foresaw must not escape
            logger.warning("gavaconnect %s answer unreadable: %s", product, type(exc).__name__)
            return self._result(
                LookupOutcome.UNAVAILABLE,
                f"unreadable answer from GavaConnect ({type(exc).__name__})",
            )
        logger.info("gavaconnect %s: HTTP %s -> %s", product, response.status_code, result.outcome)
        return result

    def _request(self, product: str, query: TaxQuery) -> tuple[str, dict[str, str]]:
        if product == "pin_by_id":
            return PATHS[product], {"TaxpayerType": "KE", "TaxpayerID": query.national_id or ""}
        if product == "pin_by_pin":
            return PATHS[product], {"KRAPIN": query.pin or ""}
        if product == "tcc":
            body = {"kraPIN": query.pin or "", "tccNumber": query.certificate_number or ""}
            return PATHS[product], body
        body = {
            "kraPIN": query.withholder_pin or "",
            "certificateNumber": query.certificate_number or "",
        }
        return self._withholding_path or "", body

    async def _call(self, product: str, path: str, body: dict[str, str]) -> httpx.Response:
        app = self._app(product)
        assert app is not None  # supports() checked it
        token = await self._token(app)
        response = await self._post(product, path, body, token)
        if _token_rejected(response):
            self._forget(app, token)
            token = await self._token(app)
            response = await self._post(product, path, body, token)
            if _token_rejected(response):
                raise _Refused(
                    f"GavaConnect refused a fresh token on the {product} API (HTTP "
                    f"{response.status_code}): check that the app is subscribed to it"
                )
        return response

    async def _post(
        self, product: str, path: str, body: dict[str, str], token: str
    ) -> httpx.Response:
        try:
            return await self._client.post(
                self._base_url + path,
                json=body,
                headers={"Authorization": f"Bearer {token}", "Accept": "application/json"},
                timeout=self._timeout,
            )
        except httpx.TimeoutException:
            logger.warning("gavaconnect %s timed out", product)
            raise _Unavailable(
                f"GavaConnect did not answer within {self._timeout_seconds:g}s"
            ) from None
        except httpx.HTTPError as exc:
            logger.warning("gavaconnect %s failed: %s", product, type(exc).__name__)
            raise _Unavailable(f"could not reach GavaConnect ({type(exc).__name__})") from None

    # ------------------------------------------------------------------ tokens

    async def _token(self, app: Credentials) -> str:
        lock = self._locks.setdefault(app.key, asyncio.Lock())
        async with lock:  # one token request per app at a time, however many calls wait
            cached = self._tokens.get(app.key)
            if cached is not None and self._clock() < cached.renew_at:
                return cached.value
            token = await self._fetch_token(app)
            self._tokens[app.key] = token
            return token.value

    def _forget(self, app: Credentials, token: str) -> None:
        cached = self._tokens.get(app.key)
        if cached is not None and cached.value == token:
            del self._tokens[app.key]

    async def _fetch_token(self, app: Credentials) -> _Token:
        try:
            response = await self._client.get(
                self._base_url + TOKEN_PATH,
                params={"grant_type": "client_credentials"},
                auth=(app.key, app.secret),
                headers={"Accept": "application/json"},
                timeout=self._timeout,
            )
        except httpx.TimeoutException:
            raise _Unavailable(
                f"GavaConnect's token endpoint did not answer within {self._timeout_seconds:g}s"
            ) from None
        except httpx.HTTPError as exc:
            raise _Unavailable(f"could not reach GavaConnect ({type(exc).__name__})") from None
        body = _json_object(response)
        refused = str((body or {}).get("errorCode") or "") in ("401", "403")
        if response.status_code in (400, 401, 403) or refused:
            raise _Refused(
                f"GavaConnect refused the consumer key and secret (HTTP {response.status_code}): "
                "check HAKIKI_GAVACONNECT_CONSUMER_KEY and HAKIKI_GAVACONNECT_CONSUMER_SECRET "
                "(or HAKIKI_GAVACONNECT_APPS)"
            )
        if response.status_code != 200 or body is None:
            raise _Unavailable(f"GavaConnect's token endpoint answered HTTP {response.status_code}")
        value = body.get("access_token")
        if not isinstance(value, str) or not value.strip():
            raise _Unavailable("GavaConnect's token endpoint answered no access_token")
        try:
            lifetime = float(body.get("expires_in", DEFAULT_TOKEN_SECONDS))
        except (TypeError, ValueError):
            lifetime = DEFAULT_TOKEN_SECONDS
        lifetime = max(lifetime, 0.0)
        margin = min(TOKEN_MARGIN_SECONDS, lifetime / 2)  # a short-lived token is still reused
        return _Token(value.strip(), self._clock() + lifetime - margin)

    # ------------------------------------------------------------------ answers

    def _interpret(self, query: TaxQuery, response: httpx.Response) -> TaxLookup:
        status = response.status_code
        if status in (401, 403):
            return self._result(
                LookupOutcome.FAILED,
                f"GavaConnect refused the {_product(query)} request (HTTP {status}): check "
                "that the app is subscribed to this API",
            )
        if status == 429:
            return self._result(LookupOutcome.UNAVAILABLE, "GavaConnect rate-limited the check")
        if status >= 500:
            return self._result(LookupOutcome.UNAVAILABLE, f"GavaConnect answered HTTP {status}")
        body = _json_object(response)
        if body is None:
            return self._result(
                LookupOutcome.UNAVAILABLE, f"GavaConnect answered HTTP {status} without JSON"
            )
        reference = _text(body, "RequestId", "requestId")
        refusal = _refusal(body)
        record = None if refusal else _record(query, body)
        if refusal is not None:
            code, message = refusal
            if query.check == "tcc" and "expired" in message.lower():
                number = query.certificate_number or ""
                expired = ComplianceCertificate(number, query.pin, None, "Expired", None, None)
                return TaxLookup(LookupOutcome.FOUND, self.name, expired, reference, message)
            if code in NOT_FOUND_CODES or any(w in message.lower() for w in _NOT_FOUND_WORDS):
                return self._result(LookupOutcome.NOT_FOUND, "no such record at KRA", reference)
            return self._result(
                LookupOutcome.UNAVAILABLE,
                f"GavaConnect answered error {code or '?'}: {_scrub(message)}",
                reference,
            )
        if record is None or status >= 300:
            return self._result(
                LookupOutcome.UNAVAILABLE,
                f"GavaConnect answered HTTP {status} with a body this adapter cannot read",
                reference,
            )
        return TaxLookup(LookupOutcome.FOUND, self.name, record, reference, "found")

    def _result(
        self, outcome: LookupOutcome, message: str, reference: str | None = None
    ) -> TaxLookup:
        return TaxLookup(outcome, self.name, None, reference, message)


# ---------------------------------------------------------------------- helpers


def _product(query: TaxQuery) -> str:
    if query.check == "pin":
        return "pin_by_id" if query.by_id else "pin_by_pin"
    return query.check


def _token_rejected(response: httpx.Response) -> bool:
    if response.status_code == 401:
        return True
    return response.status_code == 500 and bool(_EXPIRED_TOKEN.search(response.text[:2000]))


def _json_object(response: httpx.Response) -> dict[str, Any] | None:
    try:
        payload = response.json()
    except ValueError:
        return None
    return payload if isinstance(payload, dict) else None


def _text(data: Mapping[str, Any], *keys: str) -> str | None:
    for key in keys:
        value = data.get(key)
        if isinstance(value, (str, int)) and not isinstance(value, bool):
            text = " ".join(str(value).split())
            if text:
                return text
    return None


def _refusal(body: dict[str, Any]) -> tuple[str, str] | None:
    """(code, message) when the body is an error answer, else None."""
    error_code = _text(body, "ErrorCode", "errorCode")
    status = (_text(body, "Status", "status") or "").upper()
    if error_code is None and status not in ("NOK", "FAILED", "ERROR"):
        return None
    code = error_code or _text(body, "ResponseCode", "responseCode") or ""
    message = _text(body, "ErrorMessage", "errorMessage", "Message", "message") or ""
    return code, message


def _nested(body: dict[str, Any], *keys: str) -> dict[str, Any] | None:
    for key in keys:
        value = body.get(key)
        if isinstance(value, dict):
            return value
    return None


def _kra_pin(value: str | None) -> str | None:
    if value is None:
        return None
    try:
        return parse_kra_pin(value).number
    except FormatProblem:
        return None


def _record(query: TaxQuery, body: dict[str, Any]) -> Record | None:
    ok = (_text(body, "Status", "status") or "").upper() == "OK"
    if query.check == "pin":
        return _taxpayer_by_id(body) if query.by_id else _taxpayer(body) if ok else None
    if not ok:
        return None
    if query.check == "tcc":
        data = _nested(body, "TCCData", "TCCDATA")
        return _compliance_certificate(query, data) if data is not None else None
    data = _nested(body, "WHTDATA", "WHTData")
    return _withholding_certificate(query, data) if data is not None else None


def _taxpayer_by_id(body: dict[str, Any]) -> TaxpayerRecord | None:
    data = _nested(body, "PINDATA", "Data", "data") or body
    pin = _kra_pin(_text(data, "TaxpayerPIN", "KRAPIN", "PIN"))
    if pin is None:
        return None
    return TaxpayerRecord(pin, _text(data, "TaxpayerName", "Name"), None, None)


def _taxpayer(body: dict[str, Any]) -> TaxpayerRecord | None:
    data = _nested(body, "PINDATA")
    pin = _kra_pin(_text(data, "KRAPIN")) if data is not None else None
    if data is None or pin is None:
        return None
    return TaxpayerRecord(
        pin,
        _text(data, "Name", "TaxpayerName"),
        _text(data, "TypeOfTaxpayer"),
        _text(data, "StatusOfPIN"),
    )


def _compliance_certificate(query: TaxQuery, data: dict[str, Any]) -> ComplianceCertificate:
    return ComplianceCertificate(
        number=_text(data, "TCCNumber") or query.certificate_number or "",
        pin=_kra_pin(_text(data, "KRAPIN", "kraPIN")),
        taxpayer_name=_text(data, "TaxpayerName", "Name"),
        status=_text(data, "TCCStatus", "Status"),
        issue_date=read_date(_text(data, "TCCIssueDate", "IssueDate")),
        expiry_date=read_date(_text(data, "TCCExpiryDate", "ExpiryDate")),
    )


def _withholding_certificate(query: TaxQuery, data: dict[str, Any]) -> WithholdingCertificate:
    return WithholdingCertificate(
        number=_text(data, "CertificateNumber") or query.certificate_number or "",
        withholder_pin=_kra_pin(_text(data, "WithholderPIN")),
        withholder_name=_text(data, "WithholderName"),
        payee_pin=_kra_pin(_text(data, "WithholdeePIN", "PayeePIN")),
        payee_name=_text(data, "WithholdeeName", "PayeeName"),
        tax_type=_text(data, "TaxType"),
        gross_amount=minor_units(data.get("GrossAmount")),
        tax_amount=minor_units(data.get("TaxAmount")),
        payment_date=read_date(_text(data, "PaymentDate", "CertificateDate")),
    )


def _scrub(text: str) -> str:
    """Upstream text without PINs or digit runs (IDs), kept short."""
    return _SECRETS.sub("[redacted]", " ".join(text.split()))[:200]
