from __future__ import annotations

import pytest

from hakiki.core.envelope import Outcome
from hakiki.identity import sandbox
from hakiki.identity.channels import CHANNELS, find_channel


@pytest.mark.parametrize(
    ("digit", "outcome"),
    [
        (0, Outcome.VERIFIED),
        (4, Outcome.VERIFIED),
        (5, Outcome.NOT_FOUND),
        (6, Outcome.MISMATCH),
        (7, Outcome.PENDING),
        (8, Outcome.SOURCE_UNAVAILABLE),
        (9, Outcome.FAILED),
    ],
)
def test_last_digit_picks_the_outcome(digit: int, outcome: Outcome) -> None:
    assert sandbox.outcome_for(f"2221234560{digit}") is outcome


@pytest.mark.parametrize(
    ("digit", "flags"),
    [
        (0, set()),
        (1, {"pep"}),
        (2, {"sanction"}),
        (3, {"pep", "sanction"}),
        (4, {"adverse_media"}),
        (7, {"pep", "sanction", "adverse_media"}),
        (8, set()),
        (9, {"pep"}),
    ],
)
def test_second_to_last_digit_is_the_aml_bitmask(digit: int, flags: set[str]) -> None:
    assert sandbox.aml_flags(f"222123456{digit}0") == flags


def test_letters_are_skipped_when_reading_digits() -> None:
    # Uganda NINs may end in letters: the last *digits* decide.
    assert sandbox.outcome_for("CM90012345675A") is Outcome.NOT_FOUND
    assert sandbox.aml_flags("CM90012345625A") == {"sanction"}


def test_mock_identity_is_deterministic_and_fits_the_country() -> None:
    channel = find_channel("national_id", "KE")
    assert channel is not None
    first = sandbox.mock_identity(channel, "23456780")
    assert first == sandbox.mock_identity(channel, "23456780")
    assert first != sandbox.mock_identity(channel, "23456790")
    from hakiki.identity.sandbox_names import FAMILY_NAMES, GIVEN_NAMES

    assert first.first_name in GIVEN_NAMES["KE"]
    assert first.last_name in FAMILY_NAMES["KE"]
    assert first.phone and first.phone.startswith("+2547") and len(first.phone) == 13
    assert first.nationality == "KE"


def test_known_identity_never_changes_across_releases() -> None:
    # Pinned: if this changes, every integrator's sandbox fixtures break.
    channel = find_channel("bvn")
    assert channel is not None
    record = sandbox.mock_identity(channel, "22212345670")
    assert record.first_name == "Zainab"
    assert record.middle_name == "Ifeoma"
    assert record.last_name == "Balogun"
    assert record.date_of_birth == "1996-10-21"
    assert record.gender == "female"
    assert record.phone == "+2348014382945"
    assert sandbox.reference_for(channel, "22212345670") == "ref_sbx_2367f7d71b1dbd559830076e"


def test_tanzanian_birth_date_matches_the_nida_number() -> None:
    channel = find_channel("nida")
    assert channel is not None
    record = sandbox.mock_identity(channel, "19900214123450000100")
    assert record.date_of_birth == "1990-02-14"


def test_business_channels_get_business_names() -> None:
    channel = find_channel("cac")
    assert channel is not None
    record = sandbox.mock_identity(channel, "RC1234560")
    assert record.business_name and record.business_name.endswith("Limited")
    assert record.first_name is None


@pytest.mark.parametrize("channel", CHANNELS, ids=lambda c: f"{c.country}-{c.code}")
def test_golden_numbers_fit_their_channel_and_the_scheme(channel: object) -> None:
    from hakiki.identity.channels import Channel

    assert isinstance(channel, Channel)
    goldens = sandbox.golden_numbers(channel)
    assert len(goldens) >= 6
    for golden in goldens:
        assert channel.check(golden.number) is None, golden.number
        assert golden.outcome is sandbox.outcome_for(golden.number)
        assert set(golden.aml) == sandbox.aml_flags(golden.number)
    assert {g.outcome for g in goldens} >= {Outcome.VERIFIED, Outcome.NOT_FOUND}


def test_golden_identities_are_fixed() -> None:
    channel = find_channel("bvn")
    assert channel is not None
    record = sandbox.mock_identity(channel, "22222222200")
    assert (record.first_name, record.last_name, record.date_of_birth) == (
        "Adaeze",
        "Okafor",
        "1988-04-12",
    )


def test_mock_hits_follow_the_bits_and_the_checks_asked_for() -> None:
    channel = find_channel("bvn")
    assert channel is not None
    hits = sandbox.mock_hits(channel, "22222222270", "Adaeze Okafor", {"pep", "sanction"})
    assert sorted(h["check"] for h in hits) == ["pep", "sanction"]
    hits = sandbox.mock_hits(channel, "22222222270", "Adaeze Okafor", {"sanction"})
    assert [h["check"] for h in hits] == ["sanction"]
    assert sandbox.mock_hits(channel, "22222222200", "Adaeze Okafor", {"pep", "sanction"}) == []
