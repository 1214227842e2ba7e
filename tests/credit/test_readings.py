"""The bureau adapters' readings of answers in shapes their documentation does not promise:
never an exception (a 500), always a reading or UNAVAILABLE."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest

from hakiki.credit.providers import firstcentral, metropol
from hakiki.credit.providers.base import PullOutcome, minor_units

NOW = datetime(2026, 11, 24, tzinfo=UTC)


def test_amounts_in_minor_units() -> None:
    assert minor_units("5903.77000") == 590_377
    assert minor_units("1,234.50") == 123_450
    assert minor_units(12) == 1200
    assert [minor_units(v) for v in (None, True, "", "abc", "1e9", "--1")] == [None] * 6


@pytest.mark.parametrize(
    "answer",
    [
        {
            "account_info": [{"days_in_arrears": "x", "current_balance": [], "date_opened": 5}],
            "credit_score": "9",
        },
        {"account_info": ["not a dict", None], "credit_score": None, "lender_sector": [1, 2]},
        {"account_info": [], "credit_score": 1, "no_of_enquiries": "lots", "trx_id": 7},
    ],
)
def test_metropol_odd_answers_still_read(answer: dict[str, Any]) -> None:
    pull = metropol.read_report(answer, NOW)
    assert pull.outcome == PullOutcome.FOUND and pull.report is not None


def test_metropol_errors() -> None:
    missing = metropol.read_report(
        {"has_error": True, "api_code_description": "No Record Found"}, NOW
    )
    assert missing.outcome == PullOutcome.NOT_FOUND
    other = metropol.read_report({"has_error": True, "api_code_description": "Quota exceeded"}, NOW)
    assert other.outcome == PullOutcome.UNAVAILABLE


def test_metropol_signature_is_the_documented_hash() -> None:
    import hashlib

    expected = hashlib.sha256(b'priv{"a":1}pub20260101120000000001').hexdigest()
    assert metropol.signature("priv", '{"a":1}', "pub", "20260101120000000001") == expected
    assert (
        metropol.timestamp(datetime(2026, 1, 1, 12, 0, 0, 1, tzinfo=UTC)) == "20260101120000000001"
    )


@pytest.mark.parametrize(
    "answer",
    [
        [{"CreditAgreementSummary": [{"AmountOverdue": {"x": 1}, "DateAccountOpened": 3}]}],
        [{"CreditAccountSummary": "nope"}, {"CreditAgreementSummary": [None, 5]}],
        [{"CreditAgreementSummary": []}, {"Scoring": [{"TotalConsumerScore": "N/A"}]}],
    ],
)
def test_firstcentral_odd_reports_read(answer: Any) -> None:
    pull = firstcentral.read_report(answer, NOW, None)
    assert pull.outcome == PullOutcome.FOUND and pull.report is not None


def test_firstcentral_report_without_credit_sections_is_unavailable() -> None:
    with pytest.raises(firstcentral._Unavailable):
        firstcentral.read_report([{"SubjectList": []}], NOW, None)
    with pytest.raises(firstcentral._Unavailable):
        firstcentral.read_report({"not": "a list"}, NOW, None)
