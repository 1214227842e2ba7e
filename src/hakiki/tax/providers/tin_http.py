"""What the Nigerian TIN adapters (Prembly, Dojah) share: their own HTTP client (or one the
caller lends), the check they serve, and a look-up that never raises for upstream trouble:
a timeout or a failed connection is UNAVAILABLE, an answer the adapter cannot read too. Each
adapter says how to ask (``_send``) and how to read the answer (``_interpret``)."""

from __future__ import annotations

import logging

import httpx

from hakiki.engines.tax.formats import TaxpayerNumber, parse_firs_tin
from hakiki.tax.providers.base import LookupOutcome, TaxLookup, TaxQuery

logger = logging.getLogger(__name__)


class TinAdapter:
    """Base of ``PremblyTinProvider`` and ``DojahTinProvider``: ``name`` and ``label`` (the
    provider as messages name it) are the subclass's."""

    name: str
    label: str

    def __init__(self, timeout: float, client: httpx.AsyncClient | None = None) -> None:
        self._timeout = timeout
        self._owns_client = client is None
        self._client = client if client is not None else httpx.AsyncClient(timeout=timeout)

    def supports(self, query: TaxQuery) -> bool:
        return query.country == "NG" and query.check == "pin" and query.pin is not None

    async def aclose(self) -> None:
        if self._owns_client:
            await self._client.aclose()

    async def lookup(self, query: TaxQuery) -> TaxLookup:
        if not self.supports(query):
            return self._result(LookupOutcome.FAILED, f"{self.label} answers NG TIN checks only")
        tin = parse_firs_tin(query.pin or "")
        try:
            response = await self._send(tin)
        except httpx.TimeoutException:
            logger.warning("%s tin look-up timed out", self.name)
            return self._result(
                LookupOutcome.UNAVAILABLE, f"{self.label} did not answer within {self._timeout:g}s"
            )
        except httpx.HTTPError as exc:
            logger.warning("%s tin look-up failed: %s", self.name, type(exc).__name__)
            return self._result(
                LookupOutcome.UNAVAILABLE, f"could not reach {self.label} ({type(exc).__name__})"
            )
        try:
            result = self._interpret(tin, response)
        except Exception as exc:  # a body shape nobody foresaw must not escape
            logger.warning("%s tin answer unreadable: %s", self.name, type(exc).__name__)
            return self._result(
                LookupOutcome.UNAVAILABLE,
                f"unreadable answer from {self.label} ({type(exc).__name__})",
            )
        logger.info(
            "%s tin look-up: HTTP %s -> %s", self.name, response.status_code, result.outcome
        )
        return result

    async def _send(self, tin: TaxpayerNumber) -> httpx.Response:
        raise NotImplementedError

    def _interpret(self, tin: TaxpayerNumber, response: httpx.Response) -> TaxLookup:
        raise NotImplementedError

    def _result(
        self, outcome: LookupOutcome, message: str, reference: str | None = None
    ) -> TaxLookup:
        return TaxLookup(outcome, self.name, None, reference, message)
