"""Nigeria's FIRS TIN through Dojah: the second provider behind (or ahead of) Prembly.

Sources (docs/decisions.md, "Issue 39: the chain for tax, KYB and vehicle"): Dojah's OpenAPI
document in its generated SDKs (github.com/dojah-inc/dojah-sdks ``api.yaml``, operation
``Kyb_getTin``, "KYC - Fetch Tin"): ``GET {base}/api/v1/kyc/tin?tin=`` (example
``24111697-0001``) with the ``AppId`` and ``Authorization`` headers; the answer ``{"entity":
{"Search", "Taxpayer_Name", "CAC_Reg_No", "FIRSTIN", "JITTIN", "Tax_Office", "Phone_No",
"Email"}}``. Errors as every Dojah endpoint (hakiki.core.providers.dojah).

As with Prembly (prembly_tin.py): no PIN status is given, so a found TIN is registered and
nothing more; a record with a ``CAC_Reg_No`` is a company; the record's TIN is the one asked
(``Search``/``FIRSTIN``/``JITTIN`` are not taken for it); phone and e-mail are never read.
ASSUMPTION: the TIN is sent as FIRS writes it (``20304753-0001``), as in Dojah's example.

The adapter never raises for upstream trouble and never logs or echoes a TIN or a name.
"""

from __future__ import annotations

from typing import Any

import httpx

from hakiki.core.providers import dojah
from hakiki.engines.tax.formats import TaxpayerNumber
from hakiki.tax.providers.base import LookupOutcome, TaxLookup, TaxpayerRecord
from hakiki.tax.providers.tin_http import TinAdapter

PROVIDER_NAME = "dojah"
PATH = "/api/v1/kyc/tin"
_VERDICTS = {
    "failed": LookupOutcome.FAILED,
    "rejected": LookupOutcome.FAILED,
    "unavailable": LookupOutcome.UNAVAILABLE,
    "not_found": LookupOutcome.NOT_FOUND,
}


class DojahTinProvider(TinAdapter):
    """``TaxProvider`` for FIRS TINs (NG, the PIN check by number) through Dojah."""

    name = PROVIDER_NAME
    label = "Dojah"

    def __init__(
        self,
        app_id: str,
        secret_key: str,
        base_url: str,
        timeout: float,
        client: httpx.AsyncClient | None = None,
    ) -> None:
        super().__init__(timeout, client)
        self._headers = dojah.headers(app_id, secret_key)
        self._url = base_url.rstrip("/") + PATH

    async def _send(self, tin: TaxpayerNumber) -> httpx.Response:
        return await self._client.get(self._url, params={"tin": tin.display}, headers=self._headers)

    def _interpret(self, tin: TaxpayerNumber, response: httpx.Response) -> TaxLookup:
        try:
            payload: Any = response.json()
        except ValueError:
            payload = None
        body: dict[str, Any] = payload if isinstance(payload, dict) else {}
        verdict = dojah.read_status(
            response.status_code, dojah.said(body, tin.number, tin.display), "TIN"
        )
        if verdict is not None:
            return self._result(_VERDICTS[verdict[0]], verdict[1])
        entity = body.get("entity")
        if not isinstance(entity, dict):
            return self._result(
                LookupOutcome.UNAVAILABLE,
                f"Dojah answered HTTP {response.status_code} with an unexpected body",
            )
        name = _text(entity, "Taxpayer_Name", "taxpayer_name", "TaxpayerName")
        if name is None:
            return self._result(LookupOutcome.UNAVAILABLE, "Dojah answered without a taxpayer")
        company = _text(entity, "CAC_Reg_No", "cac_reg_no", "cac_reg_number")
        record = TaxpayerRecord(tin.number, name, "Non Individual" if company else None, None)
        return TaxLookup(LookupOutcome.FOUND, self.name, record, None, "found")


def _text(data: dict[str, Any], *keys: str) -> str | None:
    for key in keys:
        value = data.get(key)
        if isinstance(value, (str, int)) and not isinstance(value, bool):
            text = " ".join(str(value).split())
            if text and text.upper() != "N/A":
                return text[:200]
    return None
