"""The screening category's sandbox hooks (docs/sandbox.md): the combined screening answers
from the identity sandbox and screens with mock hits picked by the number's AML digit; name
screening runs the real matcher over the sandbox's fictional watchlists (lists/sandbox.py)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from datetime import timedelta
from typing import Any

from hakiki.core.clock import utcnow
from hakiki.core.endpoints import Examples, TestValue
from hakiki.core.envelope import Outcome, data_status
from hakiki.core.settings import Settings
from hakiki.identity.channels import CHANNELS
from hakiki.identity.sandbox import aml_digit
from hakiki.identity.sandbox_values import DIGIT_OUTCOMES, INVALID, envelope_expect
from hakiki.identity.verify import NumberQuery, Verified, sandbox_verify
from hakiki.lists.outcomes import ListDates

GOLDEN_BVN = "222222222"  # + two digits: Adaeze Ngozi Okafor
NUMBER_INVALID = {**INVALID, "details.0.field": "number"}

# The sandbox holds a list for every check; these test values answer as a server with no PEP
# list loaded does (the check not performed, with the live reason), so integrators can see an
# INCOMPLETE answer.
NO_PEP_LIST_NAME = "Sandbox No PEP List"
NO_PEP_LIST_DIGIT = 8  # the AML digit (second-to-last) of an AML-with-ID number
_MISSING = ("pep",)


def _normal(name: str) -> str:
    return " ".join(name.split()).casefold()


def simulated_missing_for_name(name: str) -> tuple[str, ...]:
    """Checks the sandbox answers as if their list were not loaded, for a screened name."""
    return _MISSING if _normal(name) == _normal(NO_PEP_LIST_NAME) else ()


STALE_LIST_NAME = "Sandbox Stale List"
STALE_LIST_AGE_DAYS = 400  # over any sensible HAKIKI_LIST_MAX_AGE_DAYS


def sandbox_dates(codes: Iterable[str], settings: Settings, name: str) -> ListDates:
    """The sandbox's lists, dated today; for the test name STALE_LIST_NAME the sanctions list
    is dated STALE_LIST_AGE_DAYS ago, so the answer flags it stale (and, with
    HAKIKI_LIST_STALE_FATAL, does not perform the sanctions check, as live would)."""
    dates = ListDates.current(codes, settings)
    if _normal(name) != _normal(STALE_LIST_NAME):
        return dates
    old = (utcnow() - timedelta(days=STALE_LIST_AGE_DAYS)).date().isoformat()
    return replace(dates, dates={**dates.dates, "sandbox_sanction": old})


def simulated_missing_for_number(number: str) -> tuple[str, ...]:
    """The same for an AML-with-ID number: AML digit 8."""
    return _MISSING if aml_digit(number) == NO_PEP_LIST_DIGIT else ()


class AmlWithIdSandbox:
    def answer(self, query: NumberQuery) -> Verified:
        return sandbox_verify(query.channel, query.number, query.names)

    def test_values(self) -> list[TestValue]:
        def value(digits: str, description: str, expect: dict[str, Any], **extra: Any) -> TestValue:
            body = {"channel": "bvn", "number": GOLDEN_BVN + digits, **extra}
            return TestValue(description=description, body=body, expect=expect)

        values = [
            value(
                "0" + digit,
                f"last digit {digit}: {words}",
                {
                    **envelope_expect(outcome),
                    "data.status": data_status(outcome, outcome is Outcome.VERIFIED),
                },
            )
            for digit, outcome, words in DIGIT_OUTCOMES
        ]
        verified = envelope_expect(Outcome.VERIFIED)
        found = {**verified, "data.identity.first_name": "Adaeze"}  # the golden identity
        values += [
            value("00", "golden BVN, clean: no hit", {**found, "data.aml.hits": []}),
            value(
                "10",
                "AML digit 1: a PEP hit",
                {**found, "data.aml.hits.0.list_code": "sandbox_pep"},
            ),
            value(
                "20",
                "AML digit 2: a sanctions hit",
                {**found, "data.aml.hits.0.list_code": "sandbox_sanction"},
            ),
            value(
                "40",
                "AML digit 4: an adverse-media hit (with adverse_media)",
                {**verified, "data.aml.hits.0.list_code": "sandbox_adverse_media"},
                adverse_media=True,
            ),
            value(
                "70",
                "AML digit 7: PEP, sanctions and adverse-media hits",
                {**found, "data.aml.hits.2.check": "adverse_media"},
                adverse_media=True,
            ),
            value(
                f"{NO_PEP_LIST_DIGIT}0",
                f"AML digit {NO_PEP_LIST_DIGIT}: answered as a server with no PEP list: pep "
                "not_performed, data.aml.status INCOMPLETE, charged only what ran (live)",
                {
                    **verified,
                    "data.aml.status": "INCOMPLETE",
                    "data.aml.complete": False,
                    "data.aml.outcomes.0.outcome": "clear",
                    "data.aml.outcomes.1.outcome": "not_performed",
                },
            ),
            value(
                "06",
                "last digit 6 with compare: the names differ (MISMATCH)",
                {**envelope_expect(Outcome.MISMATCH), "data.comparison.match": False},
                compare=True,
                first_name="Ada",
                last_name="Okafor",
            ),
            value(
                "01",
                "compare on a verified number: the record carries the names sent",
                {**verified, "data.comparison.match": True, "data.identity.first_name": "Chidi"},
                compare=True,
                first_name="Chidi",
                last_name="Eze",
            ),
            value(
                "0",
                "a BVN has 11 digits: 400 naming number",
                {**INVALID, "details.0.field": "number"},
            ),
            TestValue(
                description="KE KRA PIN (an individual's): the digit before the final letter "
                "picks the outcome; golden, clean",
                body={"channel": "kra_pin", "country_code": "KE", "number": "A000000000Z"},
                expect={**verified, "data.identity.first_name": "Wanjiru", "data.aml.hits": []},
            ),
            TestValue(
                description="KE KRA PIN starting with P (a company's): 400 naming number",
                body={"channel": "kra_pin", "country_code": "KE", "number": "P000000000Z"},
                expect={**INVALID, "details.0.field": "number"},
            ),
            TestValue(
                description="KE alien card, golden, AML digit 1: a PEP hit",
                body={"channel": "alien_card", "country_code": "KE", "number": "3000010"},
                expect={**verified, "data.aml.hits.0.list_code": "sandbox_pep"},
            ),
            TestValue(
                description="unknown channel: 400 naming channel",
                body={"channel": "ssn", "number": "12345678900"},
                expect={**INVALID, "details.0.field": "channel"},
            ),
        ]
        return values


class ChannelsExamples:
    def test_values(self) -> list[TestValue]:
        return [
            TestValue(
                description="every channel, with its format and sandbox test values",
                query={},
                expect={"http_status": 200, "pagination.total_items": len(CHANNELS)},
            ),
            TestValue(
                description="the second page of two channels",
                query={"page": 2, "page_size": 2},
                expect={
                    "http_status": 200,
                    "data.0.code": CHANNELS[2].code,
                    "pagination.page": 2,
                    "pagination.page_size": 2,
                    "pagination.total_pages": (len(CHANNELS) + 1) // 2,
                },
            ),
            TestValue(
                description="page_size over 100: 400",
                query={"page_size": 101},
                expect={"http_status": 400, "details.0.field": "page_size"},
            ),
        ]


# (endpoint key, a name that hits, what it hits, extra body fields for the hit)
_HITS: dict[str, tuple[dict[str, Any], str]] = {
    "aml": (
        {"name": "Sandbox Every List", "checks": ["sanction", "pep", "adverse_media"]},
        "a hit on each of the three lists",
    ),
    "individual": ({"name": "Sandbox Politically Exposed"}, "a PEP hit"),
    "business": ({"name": "Sandbox Sanction Trading Limited"}, "a sanctions hit (business)"),
    "pep": ({"name": "Sandbox Politically Exposed"}, "a PEP hit"),
    "sanction": ({"name": "Sandbox Sanction Person"}, "a sanctions hit"),
    "pep_and_sanction": ({"name": "Sandbox Every List"}, "PEP and sanctions hits"),
}


_WITH_PEP = {"aml", "individual", "pep_and_sanction"}  # sanction first, then pep
_WITH_SANCTION = {*_WITH_PEP, "sanction", "business"}  # sandbox_sanction listed first


@dataclass(frozen=True)
class NameScreeningSandbox:
    """Name screening's sandbox is a set of lists, not a mock: only test values here."""

    key: str

    def test_values(self) -> list[TestValue]:
        hit_body, hits = _HITS[self.key]
        values = [
            TestValue(
                description=f"{hit_body['name']}: {hits}",
                body=hit_body,
                expect={"http_status": 200, "data.aml.status": "POTENTIAL_MATCH", "ok": True},
            ),
            TestValue(
                description="fuzzy matching: a misspelt test name still hits",
                body={**hit_body, "name": hit_body["name"].replace("Sandbox", "Sandbx")},
                expect={"http_status": 200, "data.aml.status": "POTENTIAL_MATCH"},
            ),
            TestValue(
                description="any other name is clear",
                body={"name": "Amina Wanjiku Otieno"},
                expect={"http_status": 200, "data.aml.status": "CLEAR", "data.aml.hits": []},
            ),
            TestValue(
                description="no name: 400",
                body={},
                expect=INVALID,
            ),
            TestValue(
                description="a country the screening does not know (Narnia): 400 naming it",
                body={"name": "Amina Wanjiku Otieno", "countries": ["Kenya", "Narnia"]},
                expect={**INVALID, "details.0.field": "countries.1"},
            ),
        ]
        if self.key in _WITH_SANCTION:
            values.append(
                TestValue(
                    description=f"{STALE_LIST_NAME}: the sandbox's sanctions list is dated "
                    f"{STALE_LIST_AGE_DAYS} days ago: flagged stale (still screened unless the "
                    "server sets HAKIKI_LIST_STALE_FATAL)",
                    body={**hit_body, "name": STALE_LIST_NAME},
                    expect={
                        "http_status": 200,
                        "data.aml.status": "CLEAR",
                        "data.aml.lists.0.code": "sandbox_sanction",
                        "data.aml.lists.0.age_days": STALE_LIST_AGE_DAYS,
                        "data.aml.lists.0.stale": True,
                    },
                )
            )
        if self.key == "pep":
            values.append(
                TestValue(
                    description=f"{NO_PEP_LIST_NAME}: answered as a server with no PEP list: "
                    "nothing can run, 503 service_unavailable, nothing charged",
                    body={"name": NO_PEP_LIST_NAME},
                    expect={"http_status": 503, "error": "service_unavailable"},
                )
            )
        elif self.key in _WITH_PEP:
            values.append(
                TestValue(
                    description=f"{NO_PEP_LIST_NAME}: answered as a server with no PEP list: "
                    "INCOMPLETE, ok false, pep not_performed (never CLEAR)",
                    body={**hit_body, "name": NO_PEP_LIST_NAME},
                    expect={
                        "http_status": 200,
                        "status": "INCOMPLETE",
                        "data.aml.status": "INCOMPLETE",
                        "ok": False,
                        "data.aml.outcomes.0.outcome": "clear",
                        "data.aml.outcomes.1.check": "pep",
                        "data.aml.outcomes.1.outcome": "not_performed",
                    },
                )
            )
        if self.key == "individual":
            values.append(
                TestValue(
                    description="Sandbox Adverse Media with adverse_media: an adverse-media hit",
                    body={"name": "Sandbox Adverse Media", "adverse_media": True},
                    expect={
                        "http_status": 200,
                        "data.aml.status": "POTENTIAL_MATCH",
                        "data.aml.hits.0.list_code": "sandbox_adverse_media",
                    },
                )
            )
        return values


AML_WITH_ID = AmlWithIdSandbox()
CHANNELS_EXAMPLES = ChannelsExamples()


_REVIEW = {
    "subject_key": "5" * 64,
    "list_code": "sandbox_sanction",
    "entity_id": "sbx-s-1",
    "entity_fingerprint": "sandbox",
    "decision": "false_positive",
    "reason": "Different person: born 1994, the listed person 1970.",
}
REVIEW = Examples(
    (
        TestValue(
            description="a false positive, recorded",
            body=_REVIEW,
            expect={
                "http_status": 201,
                "decision": "false_positive",
                "list_code": "sandbox_sanction",
            },
        ),
        TestValue(
            description="subject_key must be data.aml.subject_key (64 hex characters): 400",
            body={**_REVIEW, "subject_key": "not-a-key"},
            expect={**INVALID, "details.0.field": "subject_key"},
        ),
        TestValue(
            description="reviewer in the body: 400 (who reviews is the caller: the key or the "
            "signed-in user)",
            body={**_REVIEW, "reviewer": "someone.else@lender.example"},
            expect={**INVALID, "details.0.field": "reviewer"},
        ),
    )
)
REVIEWS = Examples(
    (
        TestValue(
            description="a new organisation has no reviews",
            query={},
            expect={"http_status": 200, "pagination.total_items": 0, "data": []},
        ),
        TestValue(description="page 0: 400", query={"page": 0}, expect=INVALID),
    )
)

ALERTS = Examples(
    (
        TestValue(
            description="a new organisation's queue is empty (screen 'Sandbox Sanction Person' "
            "with POST /v3/screening/sanction first: its hit opens an alert)",
            query={"status": "open"},
            expect={"http_status": 200, "pagination.total_items": 0, "data": []},
        ),
        TestValue(
            description="status must be open, resolved or closed: 400",
            query={"status": "pending"},
            expect={**INVALID, "details.0.field": "status"},
        ),
        TestValue(
            description="created_from must be an ISO 8601 date: 400",
            query={"created_from": "yesterday"},
            expect={**INVALID, "details.0.field": "created_from"},
        ),
    )
)
