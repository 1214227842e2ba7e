"""The KYB sandbox hooks (docs/sandbox.md#kyb): the fictional register's answers
(mock_registry.py) and each endpoint's documented test values."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from hakiki.core.endpoints import TestValue
from hakiki.core.envelope import Outcome
from hakiki.identity.sandbox_values import INVALID, envelope_expect
from hakiki.kyb import mock_registry
from hakiki.kyb.providers.base import RegistryQuery, RegistryResult

KE_STEM = "PVT-KYB000"  # + two digits: Mlima Fresh Produce Limited
UG_STEM = "800200000000"  # + two digits: Nile Harvest Traders Limited
TZ_STEM = "1500000"  # + two digits: Kilimanjaro Coffee Growers Limited
GOLDEN_LEI = "5493001KJTIIGC8Y1R12"

_DIGITS: tuple[tuple[str, Outcome, str, str], ...] = (
    ("05", Outcome.NOT_FOUND, "not found", "completed"),
    ("07", Outcome.PENDING, "pending: completes a few seconds later, with a webhook", "pending"),
    ("08", Outcome.SOURCE_UNAVAILABLE, "registry unavailable (not charged)", "failed"),
    ("09", Outcome.FAILED, "failed (not charged)", "failed"),
)


def _ke(digits: str, **extra: Any) -> dict[str, Any]:
    return {"country_code": "KE", "registration_number": KE_STEM + digits, **extra}


def _common(kind: str) -> list[TestValue]:
    found = envelope_expect(Outcome.VERIFIED)
    values = [
        TestValue(
            description=f"KE golden number, last digit 0: found ({kind})",
            body=_ke("00"),
            expect={
                **found,
                "data.status": "FOUND",
                "data.company.name": "Mlima Fresh Produce Limited",
                "data.company.status": "registered",
                "data.query.implied_entity_type": "private_company",
            },
        ),
        TestValue(
            description="last digit 6: found, but the company is dissolved",
            body=_ke("06"),
            expect={**found, "data.company.status": "dissolved"},
        ),
        *(
            TestValue(
                description=f"last digit {digits[-1]}: {words}",
                body=_ke(digits),
                expect={**envelope_expect(outcome), "data.state": state},
            )
            for digits, outcome, words, state in _DIGITS
        ),
        TestValue(
            description="UG golden BRN (14 digits): Nile Harvest Traders Limited",
            body={"country_code": "UG", "registration_number": UG_STEM + "00"},
            expect={**found, "data.company.name": "Nile Harvest Traders Limited"},
        ),
        TestValue(
            description="TZ golden incorporation number: Kilimanjaro Coffee Growers Limited",
            body={"country_code": "TZ", "registration_number": TZ_STEM + "00"},
            expect={**found, "data.company.name": "Kilimanjaro Coffee Growers Limited"},
        ),
        TestValue(
            description="NG CAC number (RC and digits): found, a company",
            body={"country_code": "NG", "registration_number": "RC 1234500"},
            expect={
                **found,
                "data.company.registration_number": "RC1234500",
                "data.company.entity_type": "company",
            },
        ),
        TestValue(
            description="a Nigerian number that fits no CAC format: 400 naming registration_number",
            body={"country_code": "NG", "registration_number": "XY 12345"},
            expect={**INVALID, "details.0.field": "registration_number"},
        ),
        TestValue(
            description="another country goes to the global fallback: an LEI",
            body={"country_code": "GB", "lei": GOLDEN_LEI},
            expect={**found, "data.company.identifiers.0.id": GOLDEN_LEI},
        ),
        TestValue(
            description="a Kenyan number that fits no BRS format: 400 naming registration_number",
            body={"country_code": "KE", "registration_number": "XYZ-12"},
            expect={**INVALID, "details.0.field": "registration_number"},
        ),
        TestValue(
            description="an LEI whose check digits fail: 400 naming lei",
            body={"country_code": "GB", "lei": "5493001KJTIIGC8Y1R13"},
            expect={**INVALID, "details.0.field": "lei"},
        ),
        TestValue(
            description="a code that is no country (XX): 400 naming country_code",
            body={"country_code": "XX", "name": "Example Trading Limited"},
            expect={**INVALID, "details.0.field": "country_code"},
        ),
    ]
    return values


@dataclass(frozen=True)
class KybSandbox:
    kind: str  # business | ownership

    def answer(self, query: RegistryQuery) -> tuple[Outcome, RegistryResult]:
        return mock_registry.answer(query)

    def test_values(self) -> list[TestValue]:
        values = _common(self.kind)
        if self.kind == "business":
            return values
        found = envelope_expect(Outcome.VERIFIED)
        return [
            *values,
            TestValue(
                description="golden owners, screened clear, with BODS statements",
                body=_ke("01"),
                expect={
                    **found,
                    "data.ownership.directors.0.name": "Wanjiru Akinyi Kamau",
                    "data.ownership.shareholders.0.percentage": 60.0,
                    "data.screening.status": "CLEAR",
                    "data.bods.0.recordType": "entity",
                    "data.bods.0.publicationDetails.bodsVersion": "0.4",
                },
            ),
            TestValue(
                description="AML digit 2: a director with a sanctions hit",
                body=_ke("20"),
                expect={
                    **found,
                    "data.ownership.directors.1.name": mock_registry.SANCTIONED_NAME,
                    "data.ownership.directors.1.aml.hits.0.list_code": "sandbox_sanction",
                    "data.screening.status": "POTENTIAL_MATCH",
                },
            ),
            TestValue(
                description="AML digit 1: a director who is politically exposed",
                body=_ke("10"),
                expect={
                    **found,
                    "data.ownership.directors.0.name": mock_registry.PEP_NAME,
                    "data.ownership.directors.0.aml.hits.0.list_code": "sandbox_pep",
                },
            ),
            TestValue(
                description="screen_owners false: the owners without screening",
                body=_ke("20", screen_owners=False),
                expect={**found, "data.screening": None, "data.ownership.directors.1.aml": None},
            ),
            TestValue(
                description="a Tanzanian number that fits no BRELA format: 400",
                body={"country_code": "TZ", "registration_number": "BNX12"},
                expect={**INVALID, "details.0.field": "registration_number"},
            ),
        ]


BUSINESS = KybSandbox("business")
OWNERSHIP = KybSandbox("ownership")
