"""The fraud category's sandbox hooks (docs/sandbox.md): what the shared fraud database "knows"
about a test value (the ID, phone and face scans answer from here with a sandbox key), and the
documented test values of every fraud endpoint, each with the outcome it gives.

Imports only the engines' evidence types and the catalogue's: the scans import this module.
"""

from __future__ import annotations

import base64
from collections.abc import Mapping, Sequence
from functools import cache
from importlib import resources
from typing import Any

from hakiki.core.endpoints import Examples, MockingSandbox, Multipart, TestValue
from hakiki.core.envelope import in_data
from hakiki.engines.fraud.risk import FaceEvidence, IdentityEvidence, PhoneEvidence

INVALID = {"http_status": 400, "error": "invalid_request"}
GOLDEN_BVN = "222222222"  # + two digits (docs/sandbox.md, golden numbers)

# What nobody has reported or linked: every expectation of a clean answer.
_LOW = {"risk.score": 0, "risk.level": "LOW", "risk.signals": []}
_NOT_CHARGED = {"live": False, "billing.charged": False, "billing.amount": 0}


def _invalid(field: str, **more: Any) -> dict[str, Any]:
    return {**INVALID, "details.0.field": field, **more}


# --- POST /v3/fraud/id-scan -------------------------------------------------------------------

# The number's last character picks what the fraud database "knows" (0-4, 8, 9: nothing).
ID_EVIDENCE: Mapping[str, IdentityEvidence] = {
    "5": IdentityEvidence(
        reports=1, reporting_organisations=1, categories=(("synthetic_identity", 1),)
    ),
    "6": IdentityEvidence(names=3, birth_dates=2, phones=4, linking_organisations=3),
    "7": IdentityEvidence(
        reports=2,
        reporting_organisations=2,
        categories=(("loan_stacking", 2),),
        names=2,
        faces=2,
        linking_organisations=2,
    ),
}


class IdScanSandbox:
    """The identity-number scan reads no database in sandbox: the normalised number's last
    character picks its evidence."""

    def answer(self, number: str) -> IdentityEvidence:
        return ID_EVIDENCE.get(number[-1:], IdentityEvidence())

    def test_values(self) -> list[TestValue]:
        return in_data(self._values())

    def _values(self) -> list[TestValue]:
        def bvn(digits: str, description: str, expect: Mapping[str, Any]) -> TestValue:
            return TestValue(
                description=description,
                body={"channel": "bvn", "number": GOLDEN_BVN + digits},
                expect={"http_status": 200, "number_valid": True, **_NOT_CHARGED, **expect},
            )

        nothing = {
            **_LOW,
            "fraud_reports.count": 0,
            "identity_links.names": 0,
            "identity_links.organisations": 0,
        }
        return [
            bvn("00", "last digit 0-4, 8 or 9: nothing known, risk 0 LOW", nothing),
            bvn(
                "05",
                "last digit 5: 1 report (synthetic_identity) from 1 organisation, risk 40 MEDIUM",
                {
                    "risk.score": 40,
                    "risk.level": "MEDIUM",
                    "risk.signals.0.code": "reported",
                    "fraud_reports.count": 1,
                    "fraud_reports.organisations": 1,
                    "fraud_reports.categories.synthetic_identity": 1,
                    "identity_links.names": 0,
                },
            ),
            bvn(
                "06",
                "last digit 6: 3 names, 2 dates of birth, 4 phones seen by 3 organisations, "
                "risk 70 HIGH",
                {
                    "risk.score": 70,
                    "risk.level": "HIGH",
                    "fraud_reports.count": 0,
                    "identity_links.names": 3,
                    "identity_links.birth_dates": 2,
                    "identity_links.phones": 4,
                    "identity_links.faces": 0,
                    "identity_links.organisations": 3,
                },
            ),
            bvn(
                "07",
                "last digit 7: 2 reports (loan_stacking) from 2 organisations, 2 names and "
                "2 faces, risk 100 CRITICAL",
                {
                    "risk.score": 100,
                    "risk.level": "CRITICAL",
                    "fraud_reports.count": 2,
                    "fraud_reports.organisations": 2,
                    "fraud_reports.categories.loan_stacking": 2,
                    "identity_links.names": 2,
                    "identity_links.faces": 2,
                },
            ),
            TestValue(
                description="KE national ID ending in 9: nothing known, risk 0 LOW",
                body={"channel": "national_id", "number": "20000009"},
                expect={
                    "http_status": 200,
                    "country": "KE",
                    "channel": "national_id",
                    "number_valid": True,
                    **nothing,
                },
            ),
            TestValue(
                description="a number in the wrong format is a signal, not an error: "
                "invalid_format, risk 30 MEDIUM",
                body={"channel": "bvn", "number": "1234"},
                expect={
                    "http_status": 200,
                    "number_valid": False,
                    "risk.score": 30,
                    "risk.level": "MEDIUM",
                    "risk.signals.0.code": "invalid_format",
                },
            ),
            TestValue(
                description="unknown channel: 400 naming channel",
                body={"channel": "ssn", "number": "12345678900"},
                expect=_invalid("channel"),
            ),
            TestValue(
                description="no number: 400 naming number",
                body={"channel": "bvn"},
                expect=_invalid("number"),
            ),
        ]


# --- POST /v3/fraud/phone ---------------------------------------------------------------------

# The phone's last digit picks what the fraud database "knows" (0-4, 8, 9: nothing).
PHONE_EVIDENCE: Mapping[str, PhoneEvidence] = {
    "5": PhoneEvidence(reports=1, reporting_organisations=1, categories=(("sim_swap", 1),)),
    "6": PhoneEvidence(identities=4),
    "7": PhoneEvidence(
        reports=2, reporting_organisations=2, categories=(("mobile_money_fraud", 2),),
        identities=3, checks_7d=12,
        checking_organisations_7d=5,
    ),
}  # fmt: skip


class PhoneSandbox:
    """The phone scan parses for real in sandbox; the last digit of the phone as sent picks
    its database evidence."""

    def answer(self, phone: str) -> PhoneEvidence:
        digits = [c for c in phone if c.isdigit()]
        return PHONE_EVIDENCE.get(digits[-1] if digits else "", PhoneEvidence())

    def test_values(self) -> list[TestValue]:
        return in_data(self._values())

    def _values(self) -> list[TestValue]:
        def phone(
            body: Mapping[str, Any], description: str, expect: Mapping[str, Any]
        ) -> TestValue:
            return TestValue(
                description=description,
                body=body,
                expect={"http_status": 200, **_NOT_CHARGED, **expect},
            )

        return [
            phone(
                {"phone": "0712 345678", "country_code": "KE"},
                "Kenyan mobile, last digit 8: parsed for real (Safaricom), nothing known, "
                "risk 0 LOW",
                {
                    **_LOW,
                    "phone.valid": True,
                    "phone.e164": "+254712345678",
                    "phone.region": "KE",
                    "phone.line_type": "mobile",
                    "phone.original_carrier": "Safaricom",
                    "fraud_reports.count": 0,
                    "links.identities": 0,
                },
            ),
            phone(
                {"phone": "+234 803 123 4565"},
                "last digit 5: phone_reported (1 report, sim_swap), risk 40 MEDIUM",
                {
                    "phone.valid": True,
                    "phone.region": "NG",
                    "risk.score": 40,
                    "risk.level": "MEDIUM",
                    "risk.signals.0.code": "phone_reported",
                    "fraud_reports.count": 1,
                    "fraud_reports.categories.sim_swap": 1,
                },
            ),
            phone(
                {"phone": "+254 712 345676"},
                "last digit 6: phone_shared (4 identity numbers), risk 30 MEDIUM",
                {
                    "phone.valid": True,
                    "risk.score": 30,
                    "risk.level": "MEDIUM",
                    "risk.signals.0.code": "phone_shared",
                    "fraud_reports.count": 0,
                    "links.identities": 4,
                },
            ),
            phone(
                {"phone": "+256 772 123457"},
                "last digit 7: phone_reported (2 reports), phone_shared (3), checked_often "
                "(12 checks by 5 organisations), risk 85 CRITICAL",
                {
                    "phone.valid": True,
                    "phone.region": "UG",
                    "risk.score": 85,
                    "risk.level": "CRITICAL",
                    "risk.signals.0.code": "phone_reported",
                    "risk.signals.1.code": "phone_shared",
                    "risk.signals.2.code": "checked_often",
                    "fraud_reports.count": 2,
                    "links.identities": 3,
                    "links.checks_last_7_days": 12,
                    "links.checking_organisations_last_7_days": 5,
                },
            ),
            phone(
                {"phone": "0712", "country_code": "KE"},
                "too short to be a number: invalid_phone, risk 30 MEDIUM (not an error)",
                {
                    "phone.valid": False,
                    "risk.score": 30,
                    "risk.level": "MEDIUM",
                    "risk.signals.0.code": "invalid_phone",
                },
            ),
            TestValue(
                description="no phone: 400 naming phone",
                body={"country_code": "KE"},
                expect=_invalid("phone"),
            ),
            TestValue(
                description="a country code that is not two letters: 400 naming country_code",
                body={"phone": "0712 345678", "country_code": "KEN"},
                expect=_invalid("country_code"),
            ),
        ]


# --- POST /v3/fraud/face-scan -----------------------------------------------------------------

# The last digit of the first identity number sent picks the face's database evidence.
FACE_EVIDENCE: Mapping[str, FaceEvidence] = {
    "5": FaceEvidence(1, (("identity_theft", 1),), 1),
    "6": FaceEvidence(other_identities=3),
    "7": FaceEvidence(2, (("synthetic_identity", 2),), 2, other_identities=4),
}

# A 160 x 160 PNG of one skin-like colour: an image, but no face in it.
_NO_FACE_PNG = (
    "iVBORw0KGgoAAAANSUhEUgAAAKAAAACgCAIAAAAErfB6AAABCklEQVR42u3RQREAMAjAsDH/IhCBCGThggeXSmiiK5/u"
    "9i0ALMACLMACLMACDFiABViABViABRiwAAuwAAuwAAuwAAMWYAEWYAEWYAEGLMACLMACLMACDFiABViABViABViAAQuw"
    "AAuwAAuwAAMWYAEWYAEWYAEGLMACLMACLMACLMCABViABViABViAAQuwAAuwAAuwAAswYAEWYAEWYAEWYMACLMACLMAC"
    "LMCABViABViABViABRiwAAuwAAuwAAswYAEWYAEWYAEWYMACLMACLMACLMACDFiABViABViABRiwAAuwAAuwAAuwAAMW"
    "YAEWYAEWYAEGLMACLMACLMACDFiABViAtdsAXkkDXMZboX0AAAAASUVORK5CYII="
)


@cache
def _face_photo() -> str:
    """A real photograph with one face (an official US government portrait, public domain;
    sandbox_data/SOURCES.md), base64: read on first use, never at import."""
    photo = resources.files("hakiki.fraud") / "sandbox_data" / "face.jpg"
    return base64.b64encode(photo.read_bytes()).decode()


def _image(filename: str, content_type: str, content_base64: str) -> dict[str, str]:
    return {"filename": filename, "content_type": content_type, "content_base64": content_base64}


class FaceScanSandbox:
    """The face scan checks and embeds the image for real in sandbox; the last digit of the
    first identity number sent picks what the fraud bank and the faces seen "know"."""

    def answer(self, numbers: Sequence[str]) -> FaceEvidence:
        first = "".join(c for c in numbers[0] if c.isdigit())[-1:] if numbers else ""
        return FACE_EVIDENCE.get(first, FaceEvidence())

    def test_values(self) -> list[TestValue]:
        return in_data(self._values())

    def _values(self) -> list[TestValue]:
        photo = _image("face.jpg", "image/jpeg", _face_photo())

        def scan(
            numbers: list[str], description: str, expect: Mapping[str, Any], image: Any = photo
        ) -> TestValue:
            fields = {"identity_numbers": numbers} if numbers else {}
            files = {"image": image} if image else {}
            if "http_status" not in expect:  # a scan: sandbox answers never name a distance
                expect = {
                    "http_status": 200,
                    **_NOT_CHARGED,
                    "links.closest_distance": None,
                    **expect,
                }
            return TestValue(
                description=description,
                multipart=Multipart(fields=fields, files=files),
                expect=expect,
            )

        nothing = {**_LOW, "links.fraud_bank_matches": 0, "links.other_identities": 0}
        return [
            scan(
                [GOLDEN_BVN + "00"],
                "a face with a number ending in 0-4, 8 or 9: nothing known, risk 0 LOW",
                {**nothing, "fraud_reports.count": 0},
            ),
            scan([], "a face with no identity number: nothing known, risk 0 LOW", nothing),
            scan(
                [GOLDEN_BVN + "05"],
                "first number ends in 5: face_in_fraud_bank (1 report), risk 50 HIGH",
                {
                    "risk.score": 50,
                    "risk.level": "HIGH",
                    "risk.signals.0.code": "face_in_fraud_bank",
                    "links.fraud_bank_matches": 1,
                    "links.other_identities": 0,
                    "fraud_reports.count": 1,
                    "fraud_reports.categories.identity_theft": 1,
                },
            ),
            scan(
                [GOLDEN_BVN + "06", GOLDEN_BVN + "05"],
                "first number ends in 6 (only the first counts): face_with_other_identities "
                "(3 numbers), risk 40 MEDIUM",
                {
                    "risk.score": 40,
                    "risk.level": "MEDIUM",
                    "risk.signals.0.code": "face_with_other_identities",
                    "links.fraud_bank_matches": 0,
                    "links.other_identities": 3,
                },
            ),
            scan(
                [GOLDEN_BVN + "07"],
                "first number ends in 7: both (2 reports, 4 numbers), risk 90 CRITICAL",
                {
                    "risk.score": 90,
                    "risk.level": "CRITICAL",
                    "risk.signals.0.code": "face_in_fraud_bank",
                    "risk.signals.1.code": "face_with_other_identities",
                    "links.fraud_bank_matches": 2,
                    "links.other_identities": 4,
                    "fraud_reports.count": 2,
                    "fraud_reports.organisations": 2,
                },
            ),
            scan(
                [GOLDEN_BVN + "05"],
                "a photo with no face is a 400 in sandbox too, naming image",
                _invalid("image", **{"details.0.problem": "no_face"}),
                image=_image("blank.png", "image/png", _NO_FACE_PNG),
            ),
            scan(
                [],
                "a file that is not a JPEG, PNG or WebP: 400 naming image",
                _invalid("image", **{"details.0.problem": "unsupported_image_format"}),
                image=_image(
                    "scan.pdf", "application/pdf", base64.b64encode(b"%PDF-1.7 hello").decode()
                ),
            ),
            scan([GOLDEN_BVN + "00"], "no image part: 400 naming image", _invalid("image"), None),
            scan(
                [GOLDEN_BVN + f"{n:02d}" for n in range(11)],
                "more than 10 identity numbers: 400 naming identity_numbers",
                _invalid("identity_numbers"),
            ),
        ]


# --- POST /v3/fraud/address -------------------------------------------------------------------

_NAIROBI = "P.O. Box 30126-00100, Moi Avenue, Nairobi"


def _address_values() -> list[TestValue]:
    def check(body: Mapping[str, Any], description: str, expect: Mapping[str, Any]) -> TestValue:
        return TestValue(
            description=description,
            body=body,
            expect={"http_status": 200, **_NOT_CHARGED, "fraud_reports.count": 0, **expect},
        )

    nairobi = {"address": _NAIROBI, "country_code": "KE"}
    return [
        check(
            {**nairobi, "latitude": -1.2833, "longitude": 36.8167},
            "a known address with coordinates in its area: exact, GPS inside, risk 0 LOW "
            "(no reports are counted in sandbox)",
            {
                **_LOW,
                "address.match": "exact",
                "address.po_box": "30126",
                "address.postal_code": "00100",
                "address.area.name": "Nairobi",
                "gps.verdict": "inside",
            },
        ),
        check(
            {**nairobi, "latitude": -1.6, "longitude": 36.8167},
            "coordinates just outside the area's radius: gps_near_area, risk 10 LOW",
            {
                "address.match": "exact",
                "gps.verdict": "near",
                "risk.score": 10,
                "risk.signals.0.code": "gps_near_area",
            },
        ),
        check(
            {**nairobi, "latitude": -4.0435, "longitude": 39.6682},
            "coordinates in Mombasa for a Nairobi address: gps_outside_area, risk 30 MEDIUM",
            {
                "gps.verdict": "outside",
                "risk.score": 30,
                "risk.level": "MEDIUM",
                "risk.signals.0.code": "gps_outside_area",
            },
        ),
        check(
            {"address": "Kisumo", "country_code": "KE"},
            "a typo read as a known place: partial, address_partial, risk 10 LOW",
            {
                "address.match": "partial",
                "address.area.name": "Kisumu",
                "address.corrections.0.typed": "Kisumo",
                "address.corrections.0.matched": "Kisumu",
                "gps": None,
                "risk.score": 10,
                "risk.signals.0.code": "address_partial",
            },
        ),
        check(
            {"address": "Moi Avenue, Mombasa, Nairobi", "country_code": "KE"},
            "a place outside the stated area: address_partial and address_conflict, risk 25 MEDIUM",
            {
                "address.match": "partial",
                "address.conflicts.0": "Mombasa",
                "risk.score": 25,
                "risk.level": "MEDIUM",
                "risk.signals.1.code": "address_conflict",
            },
        ),
        check(
            {"address": "Kampala", "country_code": "KE"},
            "a place of another country: address_not_found and address_other_country, risk 55 HIGH",
            {
                "address.match": "none",
                "address.other_countries.0": "UG",
                "risk.score": 55,
                "risk.level": "HIGH",
                "risk.signals.0.code": "address_not_found",
                "risk.signals.1.code": "address_other_country",
            },
        ),
        check(
            {"address": "Xqzv Wplk", "country_code": "TZ"},
            "no place known: address_not_found, risk 30 MEDIUM",
            {
                "address.match": "none",
                "risk.score": 30,
                "risk.level": "MEDIUM",
                "risk.signals.0.code": "address_not_found",
            },
        ),
        TestValue(
            description="latitude without longitude: 400 naming longitude",
            body={**nairobi, "latitude": -1.2833},
            expect=_invalid("longitude"),
        ),
        TestValue(
            description="a country outside KE, UG, TZ and NG: 400 naming country_code",
            body={"address": "Accra", "country_code": "GH"},
            expect=_invalid("country_code"),
        ),
    ]


# --- POST /v3/fraud/identity-risk -------------------------------------------------------------


def _identity_risk_values() -> list[TestValue]:
    def bvn(digits: str) -> dict[str, str]:
        return {"channel": "bvn", "number": GOLDEN_BVN + digits}

    def assess(body: Mapping[str, Any], description: str, expect: Mapping[str, Any]) -> TestValue:
        return TestValue(
            description=description,
            body=body,
            expect={"http_status": 200, **_NOT_CHARGED, **expect},
        )

    return [
        assess(
            {
                "identifiers": [bvn("00")],
                "phones": ["0712 345678"],
                "country_code": "KE",
                "ip": "102.89.1.20",
            },
            "a clean number, phone and public IP: risk 0 LOW",
            {**_LOW, "checked.identifiers": 1, "checked.phones": 1, "checked.ips": 1},
        ),
        assess(
            {"identifiers": [bvn("05"), {"channel": "nin", "number": "12345678905"}]},
            "two reported numbers (last digit 5): reported counts once, risk 40 MEDIUM",
            {
                "risk.score": 40,
                "risk.level": "MEDIUM",
                "risk.signals.0.code": "reported",
                "risk.signals.0.weight": 40,
                "checked.identifiers": 2,
            },
        ),
        assess(
            {"identifiers": [bvn("06")]},
            "a number seen with many people (last digit 6): several_names, "
            "several_birth_dates, several_phones, risk 70 HIGH",
            {
                "risk.score": 70,
                "risk.level": "HIGH",
                "risk.signals.0.code": "several_names",
                "risk.signals.1.code": "several_birth_dates",
                "risk.signals.2.code": "several_phones",
            },
        ),
        assess(
            {"phones": ["+234 803 123 4565"]},
            "a reported phone (last digit 5): phone_reported, risk 40 MEDIUM",
            {"risk.score": 40, "risk.level": "MEDIUM", "risk.signals.0.code": "phone_reported"},
        ),
        assess(
            {"identifiers": [bvn("07")], "phones": ["+256 772 123457"]},
            "a number and a phone ending in 7: every signal of both, risk 100 CRITICAL",
            {
                "risk.score": 100,
                "risk.level": "CRITICAL",
                "risk.signals.0.code": "reported",
                "checked.identifiers": 1,
                "checked.phones": 1,
            },
        ),
        assess(
            {"emails": ["musa.o@example.com"]},
            "e-mails are never reported in sandbox: risk 0 LOW",
            {**_LOW, "checked.emails": 1},
        ),
        assess(
            {"address": "Xqzv Wplk", "country_code": "KE", "phones": ["+254 712 345676"]},
            "an unknown address (checked for real) and a shared phone (last digit 6): "
            "phone_shared and address_not_found, risk 60 HIGH",
            {
                "risk.score": 60,
                "risk.level": "HIGH",
                "risk.signals.0.code": "phone_shared",
                "risk.signals.1.code": "address_not_found",
                "checked.addresses": 1,
            },
        ),
        assess(
            {"ip": "10.0.0.7"},
            "a private IP: ip_not_public, risk 10 LOW",
            {"risk.score": 10, "risk.level": "LOW", "risk.signals.0.code": "ip_not_public"},
        ),
        TestValue(
            description="nothing to check: 400 naming identifiers",
            body={"first_name": "Musa"},
            expect=_invalid("identifiers"),
        ),
        TestValue(
            description="an address without its country_code: 400 naming country_code",
            body={"address": "Moi Avenue, Nairobi"},
            expect=_invalid("country_code"),
        ),
        TestValue(
            description="not an IP address: 400 naming ip",
            body={"ip": "999.1.1.1"},
            expect=_invalid("ip"),
        ),
    ]


# --- /v3/fraud/reports ------------------------------------------------------------------------

_REPORT: dict[str, Any] = {
    "subject": {
        "first_name": "Musa",
        "last_name": "Okonkwo",
        "date_of_birth": "1991-04-12",
        "country": "NG",
        "identifiers": [{"type": "bvn", "value": GOLDEN_BVN + "05"}],
        "phones": ["0803 123 4567"],
        "emails": ["musa.o@example.com"],
    },
    "incident": {
        "category": "synthetic_identity",
        "date": "2026-10-02",
        "description": "Loan taken with a BVN whose face matched two others.",
        "amount": 25000000,
        "currency": "NGN",
    },
    "evidence": ["case-2026-1142"],
}


def _report_values() -> list[TestValue]:
    incident = _REPORT["incident"]
    return [
        TestValue(
            description="a report of a synthetic identity: 201, submitted (sandbox reports "
            "count only in sandbox, and sandbox scans answer from their test values)",
            body=_REPORT,
            expect={
                "http_status": 201,
                "status": "submitted",
                "face_enrolled": False,
                "subject.last_name": "Okonkwo",
                "subject.identifiers.0.value": GOLDEN_BVN + "05",
                "incident.category": "synthetic_identity",
                "incident.amount": 25000000,
                "evidence": ["case-2026-1142"],
            },
        ),
        TestValue(
            description="a subject with no identifier, phone, e-mail or last name: 400 naming "
            "subject",
            body={**_REPORT, "subject": {"first_name": "Musa"}},
            expect=_invalid("subject"),
        ),
        TestValue(
            description="an amount without its currency: 400 naming incident",
            body={**_REPORT, "incident": {**incident, "currency": None}},
            expect=_invalid("incident"),
        ),
        TestValue(
            description="an unknown category: 400 naming incident.category",
            body={**_REPORT, "incident": {**incident, "category": "shoplifting"}},
            expect=_invalid("incident.category"),
        ),
    ]


def _report_list_values() -> list[TestValue]:
    empty = {"http_status": 200, "data": [], "pagination.total_items": 0}
    return [
        TestValue(
            description="the first page of a new organisation's reports: none yet",
            query={"page": 1},
            expect={**empty, "pagination.page": 1, "pagination.page_size": 20},
        ),
        TestValue(
            description="filtered by category and identity number",
            query={"category": "synthetic_identity", "identifier": GOLDEN_BVN + "05"},
            expect=empty,
        ),
        TestValue(
            description="page 0: 400 naming page (pages count from 1)",
            query={"page": 0},
            expect=_invalid("page"),
        ),
        TestValue(
            description="incident_from after incident_to: 400 naming incident_from",
            query={"incident_from": "2026-02-01", "incident_to": "2026-01-01"},
            expect=_invalid("incident_from"),
        ),
        TestValue(
            description="an unknown category: 400 naming category",
            query={"category": "shoplifting"},
            expect=_invalid("category"),
        ),
    ]


# --- /v3/fraud/bulk-scan ----------------------------------------------------------------------


def _csv(*lines: str) -> dict[str, str]:
    data = "".join(line + "\r\n" for line in lines).encode()
    return {
        "filename": "applicants.csv",
        "content_type": "text/csv",
        "content_base64": base64.b64encode(data).decode(),
    }


def _bulk_upload_values() -> list[TestValue]:
    started = {
        "http_status": 202,
        "live": False,
        "status": "PENDING",
        "async_pending": True,
        "state": "pending",
        "file_format": "csv",
        "processed_records": 0,
        "price_per_row": 0,
        "charged_amount": 0,
        "failure_reason": None,
    }
    return [
        TestValue(
            description="an ID scan of sandbox BVNs: 202 pending, nothing reserved; the rows "
            "then answer as the single ID scan (LOW, MEDIUM, HIGH, CRITICAL)",
            multipart=Multipart(
                fields={"scan_type": "id"},
                files={
                    "file": _csv(
                        "reference,number,channel",
                        *(f"loan-{d},{GOLDEN_BVN}0{d},bvn" for d in "0567"),
                    )
                },
            ),
            expect={**started, "scan_type": "id", "total_records": 4},
        ),
        TestValue(
            description="a phone scan with the country as a form field: 202 pending",
            multipart=Multipart(
                fields={"scan_type": "phone", "country_code": "KE"},
                files={"file": _csv("phone", "0712 345678", "0712 345675")},
            ),
            expect={**started, "scan_type": "phone", "total_records": 2},
        ),
        TestValue(
            description="a misspelt column: 400 naming the header's row and column",
            multipart=Multipart(
                fields={"scan_type": "id", "channel": "bvn"},
                files={"file": _csv("nmber", GOLDEN_BVN + "00")},
            ),
            expect={
                **_invalid("file"),
                "details.0.row": 1,
                "details.0.column": "nmber",
                "details.0.column_letter": "A",
            },
        ),
        TestValue(
            description="an unknown channel in a row: 400 naming its row and column",
            multipart=Multipart(
                fields={"scan_type": "id"},
                files={"file": _csv("number,channel", f"{GOLDEN_BVN}00,ssn")},
            ),
            expect={**_invalid("file"), "details.0.row": 2, "details.0.column": "channel"},
        ),
        TestValue(
            description="an unknown scan_type: 400 naming scan_type",
            multipart=Multipart(
                fields={"scan_type": "video"}, files={"file": _csv("phone", "0712 345678")}
            ),
            expect=_invalid("scan_type"),
        ),
    ]


def _bulk_list_values() -> list[TestValue]:
    empty = {"http_status": 200, "data": [], "pagination.total_items": 0}
    return [
        TestValue(
            description="the first page of a new organisation's bulk scans: none yet",
            query={"page": 1},
            expect={**empty, "pagination.page": 1},
        ),
        TestValue(
            description="filtered by status and scan type",
            query={"status": "completed", "scan_type": "id"},
            expect=empty,
        ),
        TestValue(
            description="page 0: 400 naming page (pages count from 1)",
            query={"page": 0},
            expect=_invalid("page"),
        ),
        TestValue(
            description="an unknown status: 400 naming status",
            query={"status": "done"},
            expect=_invalid("status"),
        ),
    ]


ID_SCAN: MockingSandbox[str, IdentityEvidence] = IdScanSandbox()
PHONE: MockingSandbox[str, PhoneEvidence] = PhoneSandbox()
FACE_SCAN: MockingSandbox[Sequence[str], FaceEvidence] = FaceScanSandbox()
# Run on the sandbox environment's own data or for real: nothing to mock, only test values.
ADDRESS = Examples(in_data(_address_values()))
IDENTITY_RISK = Examples(in_data(_identity_risk_values()))
REPORT = Examples(in_data(_report_values(), also=frozenset({"status"})))
REPORT_LIST = Examples(_report_list_values())
BULK_UPLOAD = Examples(in_data(_bulk_upload_values()))
BULK_LIST = Examples(_bulk_list_values())
