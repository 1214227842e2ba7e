"""Live adapter for Nigeria's FIRS TIN, through Prembly (IdentityPass).

Sources (read through the project's documentation search; decisions in docs/decisions.md,
"Nigeria: TIN, CAC and plates"):

* docs.prembly.com "Tax Identification Number (TIN)" (/docs/tax-identification-number-tin-copy)
  and the API reference "verify tin ng": ``POST`` with the headers ``app-id`` and ``x-api-key``
  (as every Prembly endpoint), body ``{"number": tin, "channel": "TIN"}`` (``channel`` may also
  be CAC or PHONE; this adapter sends TIN); test data ``20304753-0001``. The answer is
  Prembly's envelope: ``{"status": true, "detail", "response_code": "00", "data":
  {"taxpayer_name", "cac_reg_number", "firstin", "jittin", "tax_office", "phone_number",
  "email"}}``; ``response_code`` "01" not found, "02" source unavailable, "03" insufficient
  Prembly balance ("Response Codes and Verification Status").
* The path: the current pages print ``https://api.prembly.com/verification/<endpoint>``; the
  API reference prints ``.../api/v1/verification/api/tin_ng/``. ASSUMPTION: ``/verification/tin``
  by default, as the identity adapter infers its paths; ``HAKIKI_TAX_PREMBLY_TIN_PATH`` changes
  it.

The answer gives no PIN status (active, suspended...): a found TIN is registered, nothing more.
A record with a ``cac_reg_number`` is a company (non-individual); without one the type is not
said. The record's TIN is the one asked about: ``firstin`` and ``jittin`` are FIRS's and the
Joint Tax Board's numbers for the taxpayer, not necessarily the one sent (the sample answers an
11-digit ``firstin`` to a 12-digit TIN), so they are not read. The phone number and e-mail are
never read or stored.

The adapter never raises for upstream trouble and never logs or echoes a TIN or a name.
"""

from __future__ import annotations

from typing import Any

import httpx

from hakiki.engines.tax.formats import TaxpayerNumber
from hakiki.tax.providers.base import LookupOutcome, TaxLookup, TaxpayerRecord
from hakiki.tax.providers.tin_http import TinAdapter

PROVIDER_NAME = "prembly"
DEFAULT_PATH = "/verification/tin"


class PremblyTinProvider(TinAdapter):
    """``TaxProvider`` for FIRS TINs (NG, the PIN check by number) through Prembly."""

    name = PROVIDER_NAME
    label = "Prembly"

    def __init__(
        self,
        app_id: str,
        api_key: str,
        base_url: str,
        timeout: float,
        *,
        path: str = DEFAULT_PATH,
        client: httpx.AsyncClient | None = None,
    ) -> None:
        super().__init__(timeout, client)
        self._headers = {"app-id": app_id, "x-api-key": api_key, "accept": "application/json"}
        self._url = base_url.rstrip("/") + "/" + path.strip().lstrip("/")

    async def _send(self, tin: TaxpayerNumber) -> httpx.Response:
        return await self._client.post(
            self._url,
            json={"number": tin.display, "channel": "TIN"},
            headers=self._headers,
            timeout=self._timeout,
        )

    def _interpret(self, tin: TaxpayerNumber, response: httpx.Response) -> TaxLookup:
        asked = tin.number
        status = response.status_code
        try:
            payload: Any = response.json()
        except ValueError:
            payload = None
        body: dict[str, Any] = payload if isinstance(payload, dict) else {}
        code = _text(body, "response_code") or ""
        reference = _reference(body)
        if status in (401, 402, 403) or code == "03":
            why = (
                "Prembly refused the look-up: its wallet balance is insufficient"
                if code == "03" or status == 402
                else f"Prembly refused the credentials (HTTP {status}): check "
                "HAKIKI_PREMBLY_APP_ID and HAKIKI_PREMBLY_API_KEY"
            )
            return self._result(LookupOutcome.FAILED, why, reference)
        if status == 429 or status >= 500:
            return self._result(LookupOutcome.UNAVAILABLE, f"Prembly answered HTTP {status}")
        if not body:
            return self._result(
                LookupOutcome.UNAVAILABLE, f"Prembly answered HTTP {status} without JSON"
            )
        if code == "01":
            return self._result(LookupOutcome.NOT_FOUND, "no such TIN at FIRS", reference)
        if code == "02":
            return self._result(
                LookupOutcome.UNAVAILABLE, "Prembly reports FIRS unavailable", reference
            )
        data = body.get("data")
        if code == "00" and status < 300 and isinstance(data, dict):
            record = _record(asked, data)
            if record is not None:
                return TaxLookup(LookupOutcome.FOUND, self.name, record, reference, "found")
        return self._result(
            LookupOutcome.UNAVAILABLE,
            f"Prembly answered HTTP {status} with an unexpected body (response_code {code!r})",
            reference,
        )


def _text(data: dict[str, Any], *keys: str) -> str | None:
    for key in keys:
        value = data.get(key)
        if isinstance(value, (str, int)) and not isinstance(value, bool):
            text = " ".join(str(value).split())
            if text:
                return text[:200]
    return None


def _reference(body: dict[str, Any]) -> str | None:
    verification = body.get("verification")
    if isinstance(verification, dict):
        return _text(verification, "reference")
    return None


def _record(asked: str, data: dict[str, Any]) -> TaxpayerRecord | None:
    """The taxpayer in Prembly's ``data``; None when it names nobody."""
    name = _text(data, "taxpayer_name", "taxpayerName", "company_name")
    if name is None:
        return None
    company = _text(data, "cac_reg_number", "cacRegNo", "rc_number")
    return TaxpayerRecord(asked, name, "Non Individual" if company else None, None)
