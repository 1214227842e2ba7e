"""PEP lists (issue 34): positions resolved from OpenSanctions FtM (Position + Occupancy) and
Senzing exports, EveryPolitician Popolo files and the PEP CSV format; the list's date read
from inside the file; whether a tenure has ended."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from hakiki.engines.screening.engine import ScreeningEngine
from hakiki.engines.screening.model import ListEntity, PepPosition
from hakiki.engines.screening.parsers import (
    ListFormatError,
    parse_ftm_json,
    parse_pep_csv,
    parse_popolo_json,
    parse_senzing_json,
    parse_targets_simple_csv,
)
from hakiki.engines.screening.pep import pep_details
from hakiki.engines.screening.subject import Subject

DATA = Path(__file__).parent / "data"
PEPS_CSV = Path(__file__).resolve().parents[3] / "examples/peps.csv"
# CI and developers have the project's shared data beside the checkout; users do not.
SHARED = Path(__file__).resolve().parents[3].parent / "shared/data/lists/opensanctions"
needs_shared = pytest.mark.skipif(not SHARED.exists(), reason="shared list data not mounted")
PEP = frozenset({"pep"})
TODAY = "2026-11-27"


def _by_id(entities: tuple[ListEntity, ...], entity_id: str) -> ListEntity:
    return next(e for e in entities if e.entity_id == entity_id)


# -- tenure ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("position", "ended"),
    [
        (PepPosition("MP", end_date="2017-08-08"), True),
        (PepPosition("MP", end_date="2099-01-01"), False),
        (PepPosition("MP", end_date="2017"), True),  # a year before this one
        (PepPosition("MP", end_date="2026"), None),  # ends this year: the list cannot tell
        (PepPosition("MP", end_date="2026-11"), None),
        (PepPosition("MP", start_date="2020-01-01"), None),  # no end date, nothing said
        (PepPosition("MP", status="current"), False),
        (PepPosition("MP", status="ended"), True),
    ],
)
def test_tenure_ended_from_end_date_and_status(position: PepPosition, ended: bool | None) -> None:
    assert position.tenure_ended(TODAY) is ended


def test_pep_details_overall_tenure() -> None:
    def entity(*positions: PepPosition) -> ListEntity:
        return ListEntity("x", "l", "Person", (), countries=("ke",), positions=positions)

    ended = PepPosition("MP", "ke", "2013-03-28", "2017-08-08")
    held = PepPosition("Governor", "ug", "2022-08-25", status="current")
    unknown = PepPosition("Minister")
    assert pep_details(entity(ended), TODAY)["tenure_ended"] is True
    assert pep_details(entity(ended, held), TODAY)["tenure_ended"] is False
    assert pep_details(entity(ended, unknown), TODAY)["tenure_ended"] is None
    assert pep_details(entity(), TODAY) == {
        "positions": [],
        "countries": ["ke"],
        "tenure_ended": None,
    }
    assert pep_details(entity(held), TODAY)["countries"] == ["ug", "ke"]


def test_positions_change_the_fingerprint_only_when_present() -> None:
    plain = ListEntity("x", "l", "Person", ())
    # the digest of an entry without positions is what it was before positions existed
    assert plain.fingerprint() == "c10d3e6a7677c7c31766"
    ended = ListEntity("x", "l", "Person", (), positions=(PepPosition("MP", end_date="2017"),))
    held = ListEntity("x", "l", "Person", (), positions=(PepPosition("MP"),))
    assert len({plain.fingerprint(), ended.fingerprint(), held.fingerprint()}) == 3


# -- OpenSanctions FtM: Position + Occupancy -------------------------------------------------

FTM_GRAPH = "\n".join(
    json.dumps(record)
    for record in [
        {
            "id": "occ-1",
            "schema": "Occupancy",
            "properties": {
                "holder": ["p-1"],
                "post": ["pos-1"],
                "startDate": ["2013-03-28"],
                "endDate": ["2017-08-08"],
                "status": ["ended"],
            },
            "last_change": "2025-06-01T10:00:00",
        },
        {
            "id": "occ-2",
            "schema": "Occupancy",
            "properties": {
                "holder": ["p-1"],
                "post": ["pos-2"],
                "startDate": ["2022-09-27"],
                "status": ["current"],
            },
            "last_change": "2025-06-02T10:00:00",
        },
        {
            "id": "p-1",
            "schema": "Person",
            "caption": "Zawadi Nyokabi Mwangangi",
            "properties": {
                "name": ["Zawadi Nyokabi Mwangangi"],
                "topics": ["role.pep"],
                "country": ["ke"],
                "position": ["Cabinet Secretary for Health"],
            },
            "last_change": "2025-05-30T10:00:00",
        },
        {
            "id": "pos-1",
            "schema": "Position",
            "caption": "Member of the National Assembly of Kenya",
            "properties": {"name": ["Member of the National Assembly of Kenya"], "country": ["ke"]},
            "last_change": "2024-01-01T00:00:00",
        },
        {
            "id": "pos-2",
            "schema": "Position",
            "caption": "Cabinet Secretary for Health",
            "properties": {"name": ["Cabinet Secretary for Health"], "country": ["ke"]},
            "last_change": "2024-01-01T00:00:00",
        },
    ]
).encode()


def test_ftm_occupancies_become_the_holders_positions_and_the_newest_change_dates_it() -> None:
    snapshot = parse_ftm_json(FTM_GRAPH, version="download-day", code="os_peps", title="PEPs")
    [person] = snapshot.entities
    assert snapshot.checks == PEP and snapshot.published == "2025-06-02"
    assert person.positions == (
        PepPosition(
            "Member of the National Assembly of Kenya", "ke", "2013-03-28", "2017-08-08", "ended"
        ),
        PepPosition("Cabinet Secretary for Health", "ke", "2022-09-27", None, "current"),
    )  # the position text the occupancy names already is not repeated
    details = pep_details(person, TODAY)
    assert [p["tenure_ended"] for p in details["positions"]] == [True, False]
    assert details["tenure_ended"] is False and details["countries"] == ["ke"]
    assert not snapshot.warnings  # Position and Occupancy are read, not skipped


@needs_shared
def test_real_ftm_pep_export_positions_and_tenures() -> None:
    data = (SHARED / "wd_persons_sa_sample_2024-03/entities.ftm.json").read_bytes()
    snapshot = parse_ftm_json(data, version="x", code="sa_peps", title="t", checks=PEP)
    assert len(snapshot.entities) == 607  # the Person records; 756 Family records skipped
    assert snapshot.published == "2024-03-14"  # the records' last_change
    assert sum(1 for e in snapshot.entities if e.positions) == 345
    hamdan = _by_id(snapshot.entities, "Q12223501")
    assert hamdan.primary_name == "Abdullan Sulaiman Alhamdan"
    assert PepPosition(None, None, "1933-01-01", "1943-01-01") in hamdan.positions
    assert PepPosition("Minister of Finance") in hamdan.positions
    details = pep_details(hamdan, TODAY)
    dated = [p for p in details["positions"] if p["end_date"] == "1943-01-01"]
    assert dated[0]["tenure_ended"] is True
    assert details["tenure_ended"] is None  # "Minister of Finance" has no dates in the file


# -- Senzing and targets.simple.csv ------------------------------------------------------------


@needs_shared
def test_real_senzing_pep_export_resolves_occupancy_relationships() -> None:
    data = (SHARED / "us_congress_senzing_2026-01.json").read_bytes()
    snapshot = parse_senzing_json(data, version="x", code="us_congress", title="t")
    assert len(snapshot.entities) == 1317 and snapshot.checks == PEP  # from RISKS role.pep
    assert snapshot.published == "2025-12-08"  # the newest LAST_CHANGE
    pelosi = _by_id(snapshot.entities, "Q170581")
    assert pelosi.positions == (PepPosition("United States representative", "us"),)
    assert all(e.positions for e in snapshot.entities)


@needs_shared
def test_real_targets_simple_csv_is_dated_by_its_last_change() -> None:
    data = (SHARED / "wd_persons_sa_sample_2024-03/targets.simple.csv").read_bytes()
    snapshot = parse_targets_simple_csv(data, version="x", code="t", title="t", checks=PEP)
    assert len(snapshot.entities) == 5 and snapshot.published == "2024-03-10"
    hariri = _by_id(snapshot.entities, "Q296771")
    assert hariri.primary_name == "Saad Hariri" and hariri.countries == ("fr", "lb", "sa")
    assert hariri.positions == ()  # the CSV export carries no positions


# -- EveryPolitician Popolo --------------------------------------------------------------------


def test_popolo_memberships_become_positions_with_their_periods_dates() -> None:
    data = (DATA / "popolo_sample.json").read_bytes()
    snapshot = parse_popolo_json(data, version="x", code="ke_na", title="t", country="ke")
    assert snapshot.checks == PEP and len(snapshot.entities) == 3
    assert snapshot.published == "2017-08-31"  # the newest start date in the file
    zuhura = _by_id(snapshot.entities, "7a1c0f3e-0000-4000-8000-000000000001")
    assert [n.name for n in zuhura.names] == [
        "Hon. Zuhura Achieng Odhiambo",
        "Zuhura Achieng Odhiambo",
        "Zuhura Odhiambo",
    ]
    assert zuhura.birth_dates == ("1971-06-02",) and zuhura.countries == ("ke",)
    assert zuhura.identifiers == (("wikidata", "Q99999901"),)
    assert zuhura.positions == (  # the party membership is not a position
        PepPosition(
            "Women's Representative, National Assembly (Kisumu)", "ke", "2013-03-28", "2017-08-08"
        ),
        PepPosition("Member, National Assembly (Kisumu)", "ke", "2017-08-31", "2019-05-01"),
    )
    assert pep_details(zuhura, TODAY)["tenure_ended"] is True
    barasa = _by_id(snapshot.entities, "7a1c0f3e-0000-4000-8000-000000000002")
    assert barasa.positions == (
        PepPosition("Member, National Assembly (Kitale)", "ke", "2017-08-31"),
    )
    assert pep_details(barasa, TODAY)["tenure_ended"] is None  # an open term of a 2017 file
    assert snapshot.warnings == ()
    bad = b'{"persons": [{"id": "p1", "name": "Juma Salim", "birth_date": "not known"}, {}]}'
    snapshot = parse_popolo_json(bad, version="x", code="c", title="t")
    assert snapshot.warnings == (
        "p1: unreadable birth_date 'not known' ignored",
        "person 2: no id or name; skipped",
    )


def test_popolo_refuses_what_is_not_popolo() -> None:
    with pytest.raises(ListFormatError, match="persons"):
        parse_popolo_json(b'{"data": []}', version="x", code="c", title="t")
    with pytest.raises(ListFormatError, match="not valid JSON"):
        parse_popolo_json(b"name,id\n", version="x", code="c", title="t")


# -- PEP CSV -----------------------------------------------------------------------------------


def test_pep_csv_rows_of_one_id_are_one_person_with_several_positions() -> None:
    snapshot = parse_pep_csv(PEPS_CSV.read_bytes(), version="x", code="peps", title="t")
    assert snapshot.checks == PEP and len(snapshot.entities) == 3 and not snapshot.warnings
    assert snapshot.published == "2026-01-15"  # the newest last_change
    amani = _by_id(snapshot.entities, "ke-001")
    assert [n.name for n in amani.names] == ["Amani Wanjiku Otieno", "Amani Otieno"]
    assert amani.gender == "female" and amani.birth_dates == ("1968-04-12",)
    assert pep_details(amani, TODAY) == {
        "positions": [
            {
                "title": "Member of Parliament, Kisumu Central",
                "country": "ke",
                "start_date": "2013-03-28",
                "end_date": "2017-08-08",
                "tenure_ended": True,
            },
            {
                "title": "Deputy Speaker, National Assembly",
                "country": "ke",
                "start_date": "2015-02-01",
                "end_date": "2017-08-08",
                "tenure_ended": True,
            },
        ],
        "countries": ["ke"],
        "tenure_ended": True,
    }
    baraka = _by_id(snapshot.entities, "ke-002")
    assert baraka.countries == ("ke", "tz") and pep_details(baraka, TODAY)["tenure_ended"] is False
    nakato = _by_id(snapshot.entities, "ug-001")
    assert pep_details(nakato, TODAY)["tenure_ended"] is None


def test_pep_csv_needs_a_name_column_and_reports_bad_cells() -> None:
    with pytest.raises(ListFormatError, match="no 'name' column"):
        parse_pep_csv(b"full_name;position\nA;B\n", version="x", code="c", title="t")
    data = b"name;countries;start_date\nJuma Hamisi;Atlantis;12/03/2020\n;KE;\n"
    snapshot = parse_pep_csv(data, version="x", code="c", title="t", country="tz")
    [juma] = snapshot.entities
    assert juma.countries == ("tz",)  # the operator's country when the row names none usable
    assert snapshot.warnings == (
        "line 2: country 'Atlantis' not recognised; dropped",
        "line 2: start_date '12/03/2020' is not YYYY, YYYY-MM or YYYY-MM-DD",
        "line 3: no name; row skipped",
    )


# -- the engine ------------------------------------------------------------------------------


def test_a_pep_hit_carries_the_positions_and_a_sanction_hit_does_not() -> None:
    peps = parse_pep_csv(PEPS_CSV.read_bytes(), version="2026-01-15", code="peps", title="PEPs")
    engine = ScreeningEngine([peps])
    [hit] = engine.screen(Subject(name="Amani Wanjiku Otieno"), checks=["pep"]).hits
    assert hit.check == "pep" and hit.pep is not None
    assert hit.pep["tenure_ended"] is True
    assert hit.pep["positions"][0]["title"] == "Member of Parliament, Kisumu Central"
    assert hit.to_dict()["pep"] == hit.pep
    sanctions = parse_pep_csv(
        PEPS_CSV.read_bytes(), version="v", code="s", title="S", checks=frozenset({"sanction"})
    )
    [hit] = ScreeningEngine([sanctions]).screen(Subject(name="Amani Wanjiku Otieno")).hits
    assert hit.pep is None and "pep" not in hit.to_dict()
