"""Addresses of the four countries against the bundled gazetteer."""

from __future__ import annotations

import pytest

from hakiki.engines.address import check_gps, parse_address
from hakiki.engines.address.gazetteer import load


def test_gazetteer_counts() -> None:
    gaz = load()
    levels: dict[tuple[str, str], int] = {}
    for area in gaz.areas.values():
        levels[(area.country, area.level)] = levels.get((area.country, area.level), 0) + 1
    assert levels[("KE", "county")] == 47
    assert levels[("KE", "ward")] == 1450
    assert levels[("NG", "state")] == 37  # 36 states and the FCT
    assert levels[("NG", "lga")] == 774
    assert levels[("TZ", "region")] == 31
    assert levels[("UG", "district")] >= 135
    assert all(levels[(cc, "town")] > 100 for cc in ("KE", "UG", "TZ", "NG"))


@pytest.mark.parametrize(
    ("text", "country", "area", "subarea", "town"),
    [
        ("P.O. Box 30126-00100, Nairobi", "KE", "Nairobi", None, "Nairobi"),
        ("Kilimani Ward, Nairobi", "KE", "Nairobi", "Kilimani", "Nairobi"),
        ("Parklands/Highridge, Westlands, Nairobi", "KE", "Nairobi", "Parklands/Highridge", None),
        ("Kisumu City", "KE", "Kisumu", None, "Kisumu"),
        ("Mombasa Rd, Nairobi", "KE", "Nairobi", None, "Nairobi"),
        ("Plot 5 Kampala Road, Kampala", "UG", "Kampala", None, "Kampala"),
        ("Plot 12, Entebbe Road, Entebbe, Wakiso", "UG", "Wakiso", None, "Entebbe"),
        ("Ilala, Dar es Salaam", "TZ", "Dar es Salaam", "Ilala", "Dar es Salaam"),
        ("Pwani", "TZ", "Coast", None, None),  # the Swahili name of the region
        ("12 Awolowo Road, Ikoyi, Lagos", "NG", "Lagos", None, "Lagos"),
        ("Lagos Island LGA, Lagos State", "NG", "Lagos", "Lagos Island", None),
        ("Ikeja, Lagos", "NG", "Lagos", "Ikeja", None),
    ],
)
def test_real_addresses_match_exactly(
    text: str, country: str, area: str, subarea: str | None, town: str | None
) -> None:
    result = parse_address(text, country)
    assert result.match == "exact", result
    assert result.area is not None and result.area.name == area
    assert (result.subarea.name if result.subarea else None) == subarea
    if town is not None:
        assert result.town is not None and result.town.name == town
    assert not result.conflicts and not result.corrections


def test_po_box_and_postal_code() -> None:
    result = parse_address("P.O. Box 30126-00100, Nairobi", "KE")
    assert (result.po_box, result.postal_code) == ("30126", "00100")
    result = parse_address("PO Box 7062, Kampala", "UG")
    assert (result.po_box, result.postal_code) == ("7062", None)


def test_tanzanian_postcode_names_the_district() -> None:
    result = parse_address("Mtaa wa Uhuru, 12101", "TZ")
    assert result.postal_code == "12101"
    assert result.area is not None and result.area.name == "Dar es Salaam"
    assert result.subarea is not None and result.subarea.name == "Ilala"


@pytest.mark.parametrize(
    ("text", "country", "typed", "area"),
    [
        ("Nairobii", "KE", "Nairobii", "Nairobi"),
        ("Kisumo", "KE", "Kisumo", "Kisumu"),
        ("Kampla", "UG", "Kampla", "Kampala"),
        ("Dar es Salam", "TZ", "Dar es Salam", "Dar es Salaam"),
        ("Ibadan, Oyoo", "NG", "Oyoo", "Oyo"),
    ],
)
def test_typos_match_partially(text: str, country: str, typed: str, area: str) -> None:
    result = parse_address(text, country)
    assert result.match == "partial"
    assert result.area is not None and result.area.name == area
    assert [c.typed for c in result.corrections] == [typed]


@pytest.mark.parametrize(
    ("text", "country", "other"),
    [
        ("Kampala", "KE", ("UG",)),
        ("Plot 5 Kampala Road, Kampala, Uganda", "KE", ("UG",)),
        ("Ikoyi, Lagos", "UG", ("NG",)),
        ("Kilimani, Nairobi", "TZ", ("KE",)),
    ],
)
def test_wrong_country_matches_nothing_and_says_where(
    text: str, country: str, other: tuple[str, ...]
) -> None:
    result = parse_address(text, country)
    assert result.match == "none"
    assert result.area is None
    assert result.other_countries == other


def test_named_country_that_is_not_the_stated_one_is_partial() -> None:
    result = parse_address("Nairobi, Tanzania", "KE")
    assert result.match == "partial"
    assert result.other_countries == ("TZ",)


def test_place_in_another_county_is_a_conflict() -> None:
    result = parse_address("Kilimani, Mombasa", "KE")  # Kilimani is a Nairobi ward
    assert result.match == "partial"
    assert result.area is not None and result.area.name == "Mombasa"
    assert result.conflicts == ("Kilimani",)


def test_nonsense_matches_nothing() -> None:
    result = parse_address("xyzzy qwerty", "NG")
    assert result.match == "none"
    assert result.unmatched == ("xyzzy qwerty",)
    assert result.other_countries == ()


def test_unknown_country_is_refused() -> None:
    with pytest.raises(ValueError, match="country must be one of"):
        parse_address("Nairobi", "GH")


@pytest.mark.parametrize(
    ("text", "country", "lat", "lon", "verdict"),
    [
        ("P.O. Box 30126-00100, Nairobi", "KE", -1.2921, 36.8219, "inside"),  # city centre
        ("P.O. Box 30126-00100, Nairobi", "KE", -4.0435, 39.6682, "outside"),  # Mombasa
        ("Plot 5 Kampala Road, Kampala", "UG", 0.3136, 32.5811, "inside"),
        ("Plot 5 Kampala Road, Kampala", "UG", 0.0512, 32.4637, "near"),  # Entebbe, 33 km
        ("Ilala, Dar es Salaam", "TZ", -6.8160, 39.2803, "inside"),
        ("Ilala, Dar es Salaam", "TZ", -3.3869, 36.6830, "outside"),  # Arusha
        ("12 Awolowo Road, Ikoyi, Lagos", "NG", 6.4474, 3.4553, "inside"),  # Ikoyi
        ("12 Awolowo Road, Ikoyi, Lagos", "NG", 9.0579, 7.4951, "outside"),  # Abuja
        ("Lagos Island LGA, Lagos State", "NG", 6.4549, 3.3896, "inside"),
    ],
)
def test_gps_cross_check(text: str, country: str, lat: float, lon: float, verdict: str) -> None:
    check = check_gps(parse_address(text, country), lat, lon)
    assert check.verdict == verdict, check
    assert check.distance_km is not None and check.radius_km is not None


def test_gps_names_the_nearest_town_and_checks_the_area_too() -> None:
    check = check_gps(parse_address("Nairobi", "KE"), -0.0917, 34.7680)  # Kisumu
    assert check.verdict == "outside" and check.area_verdict == "outside"
    assert check.nearest_town is not None and check.nearest_town.name == "Kisumu"


def test_gps_unknown_without_a_place() -> None:
    check = check_gps(parse_address("Kampala", "KE"), 0.31, 32.58)
    assert check.verdict == "unknown" and check.reference is None


def test_gps_refuses_impossible_coordinates() -> None:
    with pytest.raises(ValueError):
        check_gps(parse_address("Nairobi", "KE"), 91.0, 0.0)
