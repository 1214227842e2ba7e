"""The KYC category's sandbox hook (docs/sandbox.md#kyc-national-id-drivers-licence-passport):
the identity sandbox's answer for the document's channel, and each document's test values."""

from __future__ import annotations

from dataclasses import dataclass

from hakiki.core.endpoints import TestValue
from hakiki.core.envelope import Outcome
from hakiki.identity.sandbox_values import DIGIT_OUTCOMES, INVALID, envelope_expect
from hakiki.identity.verify import NumberQuery, Verified, sandbox_verify

# Kenyan golden numbers (stem + two digits): Wanjiru Akinyi Kamau.
_STATES = {
    Outcome.PENDING: "pending",
    Outcome.SOURCE_UNAVAILABLE: "failed",
    Outcome.FAILED: "failed",
}
_KENYAN_STEMS = {"national_id": "200000", "drivers_license": "KDL00000", "passport": "AK00000"}


@dataclass(frozen=True)
class DocumentSandbox:
    document: str

    def answer(self, query: NumberQuery) -> Verified:
        return sandbox_verify(query.channel, query.number, query.names)

    def test_values(self) -> list[TestValue]:
        stem = _KENYAN_STEMS[self.document]

        def body(digits: str, **extra: object) -> dict[str, object]:
            return {"country_code": "KE", "number": stem + digits, **extra}

        values = [
            TestValue(
                description=f"KE golden number, last digit {digit}: {words}",
                body=body("0" + digit),
                expect={
                    **envelope_expect(outcome),
                    "data.state": _STATES.get(outcome, "completed"),
                },
            )
            for digit, outcome, words in DIGIT_OUTCOMES
        ]
        values += [
            TestValue(
                description="golden identity: Wanjiru Akinyi Kamau",
                body=body("00"),
                expect={
                    **envelope_expect(Outcome.VERIFIED),
                    "data.identity.first_name": "Wanjiru",
                    "data.identity.last_name": "Kamau",
                },
            ),
            TestValue(
                description="last digit 6 with compare: the names differ (MISMATCH)",
                body=body("06", compare=True, first_name="Achieng", last_name="Otieno"),
                expect={**envelope_expect(Outcome.MISMATCH), "data.comparison.match": False},
            ),
            TestValue(
                description="a number that does not fit the format: 400 naming number",
                body={"country_code": "KE", "number": "1"},
                expect={**INVALID, "details.0.field": "number"},
            ),
            TestValue(
                description="a country without this document: 400",
                body={"country_code": "ZZ", "number": stem + "00"},
                expect=INVALID,
            ),
        ]
        return values


DOCUMENTS = {d: DocumentSandbox(d) for d in _KENYAN_STEMS}
