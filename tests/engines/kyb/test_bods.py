"""BODS 0.4 statements: field names, ordering, one statement per party, interests."""

from __future__ import annotations

from hakiki.engines.kyb.bods import ownership_statements
from hakiki.engines.kyb.model import (
    Address,
    BeneficialOwner,
    Company,
    Director,
    Ownership,
    Parent,
    Party,
    Shareholder,
    percentages,
    status_of,
)

COMPANY = Company(
    "Mlima Agro Exporters Limited",
    "PVT-AB12CD34",
    "KE",
    "private_company",
    "registered",
    registration_date="2016-03-02",
    address=Address("Kenyatta Avenue, Nairobi", "KE"),
)
JOHN = Party("John Kamau", "person", nationality="KE")
AMINA = Party("Amina Hassan", "person")
HOLDCO = Party("Mlima Holdings Ltd", "entity", identifiers=(("XI-LEI", "5493001KJTIIGC8Y1R12"),))
SOURCE = {"type": ["officialRegister"], "description": "BRS"}


def _statements() -> list[dict[str, object]]:
    ownership = Ownership(
        directors=(Director(JOHN), Director(Party("JOHN  KAMAU", "person"), "secretary")),
        shareholders=percentages(
            (Shareholder(JOHN, 600), Shareholder(AMINA, 300), Shareholder(HOLDCO, 100))
        ),
        beneficial_owners=(BeneficialOwner(JOHN, 60.0, ("shareholding", "votingRights"), True),),
        parents=(Parent(HOLDCO, ultimate=True),),
    )
    return ownership_statements(COMPANY, ownership, statement_date="2026-05-01", source=SOURCE)


def test_every_statement_has_the_required_04_fields() -> None:
    for statement in _statements():
        assert {"statementId", "declarationSubject", "recordId", "recordType", "recordDetails",
                "statementDate"} <= set(statement)  # fmt: skip
        assert 32 <= len(str(statement["statementId"])) <= 64
        assert statement["publicationDetails"]["bodsVersion"] == "0.4"  # type: ignore[index]
        assert statement["declarationSubject"] == "KE-PVT-AB12CD34"
        assert statement["recordDetails"]["isComponent"] is False  # type: ignore[index]


def test_records_come_before_the_relationships_that_name_them() -> None:
    statements = _statements()
    kinds = [s["recordType"] for s in statements]
    assert kinds == ["entity", "person", "person", "entity", "relationship", "relationship",
                     "relationship"]  # fmt: skip
    seen = set()
    for statement in statements:
        details = statement["recordDetails"]
        if statement["recordType"] == "relationship":
            assert details["subject"] in seen and details["interestedParty"] in seen  # type: ignore[index]
        seen.add(statement["recordId"])
    assert len({s["statementId"] for s in statements}) == len(statements)


def test_one_person_with_several_roles_is_one_record_with_all_interests() -> None:
    statements = _statements()
    john = next(s for s in statements if s["recordType"] == "relationship")["recordDetails"]
    kinds = [(i["type"], i["beneficialOwnershipOrControl"]) for i in john["interests"]]  # type: ignore[index]
    assert kinds == [
        ("boardMember", False), ("boardMember", False), ("shareholding", False),
        ("shareholding", True), ("votingRights", True),
    ]  # fmt: skip
    shareholding = john["interests"][2]  # type: ignore[index]
    assert shareholding["share"] == {"exact": 60.0} and shareholding["directOrIndirect"] == "direct"


def test_entities_are_never_beneficial_owners_and_parents_are_indirect_when_ultimate() -> None:
    statements = _statements()
    holdco = [s for s in statements if s["recordType"] == "relationship"][2]["recordDetails"]
    interests = holdco["interests"]  # type: ignore[index]
    assert all(i["beneficialOwnershipOrControl"] is False for i in interests)
    assert interests[-1]["type"] == "otherInfluenceOrControl"
    assert interests[-1]["directOrIndirect"] == "indirect"
    entity = statements[3]["recordDetails"]
    assert entity["identifiers"] == [{"id": "5493001KJTIIGC8Y1R12", "scheme": "XI-LEI"}]  # type: ignore[index]


def test_the_company_statement() -> None:
    details = _statements()[0]["recordDetails"]
    assert details["entityType"] == {"type": "registeredEntity", "details": "private_company"}  # type: ignore[index]
    assert details["foundingDate"] == "2016-03-02"  # type: ignore[index]
    assert details["jurisdiction"] == {"code": "KE"}  # type: ignore[index]
    assert details["addresses"][0]["type"] == "registered"  # type: ignore[index]


def test_statement_ids_are_stable() -> None:
    assert _statements() == _statements()


def test_status_words() -> None:
    assert status_of("Registered") == "registered"
    assert status_of("Struck off and dissolved") == "struck_off"
    assert status_of("In Liquidation") == "in_liquidation"
    assert status_of("Not Active") == "inactive"
    assert status_of("Dissolved") == "dissolved"
    assert status_of(None) == "unknown"
    assert status_of("something else") == "unknown"
