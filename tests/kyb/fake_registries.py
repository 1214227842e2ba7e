"""Fake business registries that speak the documented APIs over real HTTP, for tests: Prembly's
Kenya BRS search and Nigeria "Advance CAC", GLEIF's LEI API and OpenCorporates' API v0.4, on one
local server.

    with run_fake_registries() as fake:
        fake.base_url + "/prembly"           # Prembly base URL
        fake.base_url + "/gleif/api/v1"      # GLEIF base URL
        fake.base_url + "/oc/v0.4"           # OpenCorporates base URL
        fake.set_mode(FaultMode.SLOW, slow_seconds=0.5)
"""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse, PlainTextResponse, Response

from tests.support.fake_server import serve_in_thread

APP_ID = "fake-app-id-0001"
API_KEY = "fake_sk_live_0123456789"
OC_TOKEN = "oc-token-0123456789"

KE_FOUND = "PVT-AB12CD34"
KE_DISSOLVED = "CPR/2009/12345"
LEI = "5493001KJTIIGC8Y1R12"
PARENT_LEI = "HAKIKIPARENT00000134"
ULTIMATE_LEI = "HAKIKIULTIMATE000175"
GB_NUMBER = "01234567"
SANCTIONED = "ABUBAKAR MOHAMMED SHEKAU"  # on the bundled UN and OFAC lists
NG_FOUND = "RC 1234567"
NG_BUSINESS_NAME = "BN 2345678"
# Advance CAC answers a list of records (docs.prembly.com "Advance CAC"); the people follow
# CAC's own field names (firstname, otherName, surname, affiliateTypeFk, numSharesAlloted).
_NG_RECORDS: dict[tuple[str, str], list[dict[str, Any]]] = {
    ("1234567", "RC"): [
        {
            "company_id": 616155,
            "rc_number": "1234567",
            "company_name": "ZARIA AGRO-ALLIED NIGERIA LIMITED",
            "state": "KADUNA",
            "company_address": "12 Example Road, Zaria",
            "company_status": "ACTIVE",
            "city": "ZARIA",
            "branchAddress": None,
            "lga": "ZARIA",
            "entity_type": "RC",
            "registrationDate": "2015-03-02T00:00:00",
            "share_capital": "10,000,000",
            "directors": [
                {
                    "firstname": "HALIMA",
                    "otherName": "N/A",
                    "surname": "BELLO",
                    "affiliateTypeFk": {"name": "DIRECTOR"},
                    "nationality": "Nigerian",
                    "phoneNumber": "08000000000",
                    "email": "hb@example.com",
                },
                {
                    "firstname": "HALIMA",
                    "otherName": "N/A",
                    "surname": "BELLO",
                    "affiliateTypeFk": {"name": "SHAREHOLDER"},
                    "nationality": "Nigerian",
                    "numSharesAlloted": 7_000_000,
                    "typeOfShares": "ORDINARY",
                },
                {
                    "firstname": "EMEKA",
                    "otherName": "JOHN",
                    "surname": "OKAFOR",
                    "affiliateTypeFk": {"name": "SHAREHOLDER"},
                    "nationality": "Nigerian",
                    "numSharesAlloted": 2_700_000,
                    "typeOfShares": "ORDINARY",
                },
                {
                    "firstname": "TUNDE",
                    "otherName": "",
                    "surname": "ADEYEMI",
                    "affiliateTypeFk": {"name": "SHAREHOLDER"},
                    "nationality": "Nigerian",
                    "numSharesAlloted": 300_000,
                    "typeOfShares": "ORDINARY",
                },
                {
                    "firstname": "TUNDE",
                    "otherName": "",
                    "surname": "ADEYEMI",
                    "affiliateTypeFk": {"name": "PERSON WITH SIGNIFICANT CONTROL"},
                },
                {
                    "firstname": "AISHA",
                    "otherName": "",
                    "surname": "MUSA",
                    "affiliateTypeFk": {"name": "SECRETARY"},
                    "nationality": "Nigerian",
                },
            ],
        }
    ],
    ("2345678", "BN"): [
        {
            "rc_number": "2345678",
            "company_name": "MAMA NKECHI KITCHEN",
            "company_status": "INACTIVE",
            "city": "ENUGU",
            "lga": "ENUGU NORTH",
            "state": "ENUGU",
            "entity_type": "BN",
            "registrationDate": "2019-08-14T00:00:00",
        }
    ],
}


class FaultMode(StrEnum):
    NORMAL = "normal"
    SLOW = "slow"
    HTTP_503 = "http_503"
    GARBAGE = "garbage"  # 200 with a body that is not JSON
    UNEXPECTED_JSON = "unexpected_json"  # 200 with JSON of another shape
    UNAUTHORIZED = "unauthorized"
    RATE_LIMITED = "rate_limited"  # OpenCorporates: 403 usage limit; others 429
    TOO_FAST = "too_fast"  # 429 with Retry-After
    SERVICE_DOWN = "service_down"  # Prembly response_code "02"


@dataclass
class State:
    mode: FaultMode = FaultMode.NORMAL
    slow_seconds: float = 2.0
    requests: list[tuple[str, str, dict[str, str]]] = field(default_factory=list)


def _prembly_found(data: dict[str, Any]) -> dict[str, Any]:
    return {
        "status": True,
        "detail": "Verification Successful",
        "response_code": "00",
        "data": data,
        "verification": {"status": "VERIFIED", "reference": str(uuid.uuid4())},
    }


_KE_RECORDS: dict[str, dict[str, Any]] = {
    KE_FOUND: {
        "company_name": "MLIMA AGRO EXPORTERS LIMITED",
        "registration_number": KE_FOUND,
        "registration_date": "02/03/2016",
        "status": "Registered",
        "company_type": "Private Company Limited by Shares",
        "physical_address": "Kenyatta Avenue, Nairobi",
        "share_capital": "KES 100,000",
        "partners": [
            {
                "name": "JOHN KAMAU MWANGI",
                "type": "Director/Shareholder",
                "id_type": "National ID",
                "nationality": "Kenyan",
                "shares": [{"name": "ORDINARY", "number": 700}],
            },
            {
                "name": SANCTIONED,
                "type": "Director/Shareholder",
                "id_type": "Passport",
                "nationality": "NG",
                "shares": [{"name": "ORDINARY", "number": "300"}],
            },
            {"name": "MARY WANJIKU", "type": "Secretary", "nationality": "Kenyan"},
        ],
    },
    KE_DISSOLVED: {
        "business_name": "OLD HARBOUR TRADERS LIMITED",
        "registration_date": "2009-05-01",
        "status": "Dissolved",
        "partners": [],
    },
}


def _gleif_record(
    lei: str, name: str, registered_as: str, status: str = "ACTIVE"
) -> dict[str, Any]:
    return {
        "type": "lei-records",
        "id": lei,
        "attributes": {
            "lei": lei,
            "entity": {
                "legalName": {"name": name, "language": "en"},
                "legalAddress": {
                    "addressLines": ["1 Example Street"],
                    "city": "London",
                    "region": None,
                    "country": "GB",
                    "postalCode": "EC1A 1AA",
                },
                "jurisdiction": "GB",
                "registeredAs": registered_as,
                "legalForm": {"id": "H0PO", "other": None},
                "status": status,
                "creationDate": "2001-02-03T00:00:00Z",
                "expiration": {"date": None, "reason": None},
            },
            "registration": {"status": "ISSUED"},
        },
    }


_GLEIF = {
    LEI: _gleif_record(LEI, "Example Holdings UK Limited", GB_NUMBER),
    PARENT_LEI: _gleif_record(PARENT_LEI, "Example Group Plc", "00000042"),
    ULTIMATE_LEI: _gleif_record(ULTIMATE_LEI, "Example Global AG", "CHE-1"),
}
_PARENTS = {(LEI, "direct-parent"): PARENT_LEI, (LEI, "ultimate-parent"): ULTIMATE_LEI}

_OC_COMPANY = {
    "name": "EXAMPLE HOLDINGS UK LIMITED",
    "company_number": GB_NUMBER,
    "jurisdiction_code": "gb",
    "incorporation_date": "2001-02-03",
    "dissolution_date": None,
    "company_type": "Private Limited Company",
    "current_status": "Active",
    "inactive": False,
    "registered_address_in_full": "1 Example Street, London, EC1A 1AA",
    "registered_address": {"postal_code": "EC1A 1AA", "country": "United Kingdom"},
    "opencorporates_url": f"https://opencorporates.com/companies/gb/{GB_NUMBER}",
    "officers": [
        {"officer": {"name": "JANE EXAMPLE", "position": "director", "start_date": "2010-01-01",
                     "end_date": None, "nationality": "GB", "inactive": False}},
        {"officer": {"name": "OLD DIRECTOR", "position": "director", "start_date": "2002-01-01",
                     "end_date": "2009-12-31", "inactive": True}},
    ],
}  # fmt: skip


def create_app(state: State) -> FastAPI:
    app = FastAPI()

    async def faults(request: Request, api: str) -> Response | None:
        state.requests.append((api, request.url.path, dict(request.query_params)))
        mode = state.mode
        if mode is FaultMode.SLOW:
            await asyncio.sleep(state.slow_seconds)
        if mode is FaultMode.HTTP_503:
            return PlainTextResponse("<html>503 Service Unavailable</html>", status_code=503)
        if mode is FaultMode.GARBAGE:
            return PlainTextResponse("<!doctype html>not json {", status_code=200)
        if mode is FaultMode.UNEXPECTED_JSON:
            return JSONResponse({"unexpected": ["shape"]})
        if mode is FaultMode.TOO_FAST:
            return JSONResponse(
                {"error": {"message": "Too many requests"}}, 429, headers={"Retry-After": "30"}
            )
        return None

    @app.post("/prembly/verification/ke/brs/search/advanced")
    async def prembly(request: Request) -> Response:
        if (fault := await faults(request, "prembly")) is not None:
            return fault
        headers = request.headers
        if (
            state.mode is FaultMode.UNAUTHORIZED
            or headers.get("x-api-key") != API_KEY
            or headers.get("app-id") != APP_ID
        ):
            return JSONResponse({"status": False, "detail": "Invalid API key or app id"}, 401)
        if state.mode is FaultMode.SERVICE_DOWN:
            return JSONResponse({"status": False, "response_code": "02", "detail": "Retry later"})
        body = await request.json()
        if body.get("check_type") not in ("CR12", "CR13", "LLP"):
            return JSONResponse({"status": False, "detail": "check_type is required"}, 400)
        record = _KE_RECORDS.get(str(body.get("company_id")))
        if record is None:
            return JSONResponse(
                {"status": False, "response_code": "01", "detail": "Record not found",
                 "verification": {"status": "NOT-VERIFIED", "reference": str(uuid.uuid4())}}
            )  # fmt: skip
        return JSONResponse(_prembly_found(record))

    @app.post("/prembly/verification/cac/advance")
    async def prembly_cac(request: Request) -> Response:
        if (fault := await faults(request, "prembly")) is not None:
            return fault
        headers = request.headers
        if (
            state.mode is FaultMode.UNAUTHORIZED
            or headers.get("x-api-key") != API_KEY
            or headers.get("app-id") != APP_ID
        ):
            return JSONResponse({"status": False, "detail": "Invalid API key or app id"}, 401)
        if state.mode is FaultMode.SERVICE_DOWN:
            return JSONResponse({"status": False, "response_code": "02", "detail": "Retry later"})
        body = await request.json()
        kind = body.get("company_type", "RC")
        if kind not in ("RC", "BN", "IT") or not str(body.get("rc_number") or "").isdigit():
            return JSONResponse({"status": False, "detail": "rc_number is required"}, 400)
        records = _NG_RECORDS.get((str(body["rc_number"]), kind))
        if records is None:
            return JSONResponse(
                {"status": False, "response_code": "01", "detail": "Record not found",
                 "verification": {"status": "NOT-VERIFIED", "reference": str(uuid.uuid4())}}
            )  # fmt: skip
        return JSONResponse(
            {"status": True, "detail": "Verification successful", "response_code": "00",
             "data": records,
             "verification": {"status": "VERIFIED", "reference": str(uuid.uuid4())}}
        )  # fmt: skip

    def gleif_json(body: dict[str, Any], status: int = 200) -> JSONResponse:
        return JSONResponse(body, status, media_type="application/vnd.api+json")

    not_found = {"errors": [{"status": "404", "title": "Not Found"}]}

    @app.get("/gleif/api/v1/lei-records")
    async def gleif_search(request: Request) -> Response:
        if (fault := await faults(request, "gleif")) is not None:
            return fault
        params = request.query_params
        country = params.get("filter[entity.legalAddress.country]")
        matches = [
            record
            for record in _GLEIF.values()
            if record["attributes"]["entity"]["legalAddress"]["country"] == country
            and (
                params.get("filter[entity.registeredAs]")
                in (None, record["attributes"]["entity"]["registeredAs"])
            )
            and (
                params.get("filter[entity.legalName]") is None
                or params["filter[entity.legalName]"].lower()
                in record["attributes"]["entity"]["legalName"]["name"].lower()
            )
        ]
        size = int(params.get("page[size]", "10"))
        meta = {"pagination": {"currentPage": 1, "perPage": size, "total": len(matches)}}
        return gleif_json({"meta": meta, "data": matches[:size]})

    @app.get("/gleif/api/v1/lei-records/{lei}")
    async def gleif_record(lei: str, request: Request) -> Response:
        if (fault := await faults(request, "gleif")) is not None:
            return fault
        record = _GLEIF.get(lei)
        return gleif_json({"data": record}) if record else gleif_json(not_found, 404)

    @app.get("/gleif/api/v1/lei-records/{lei}/{relation}")
    async def gleif_parent(lei: str, relation: str, request: Request) -> Response:
        if (fault := await faults(request, "gleif")) is not None:
            return fault
        parent = _PARENTS.get((lei, relation))
        return gleif_json({"data": _GLEIF[parent]}) if parent else gleif_json(not_found, 404)

    async def oc_guard(request: Request) -> Response | None:
        if (fault := await faults(request, "opencorporates")) is not None:
            return fault
        if (
            state.mode is FaultMode.UNAUTHORIZED
            or request.query_params.get("api_token") != OC_TOKEN
        ):
            return JSONResponse({"error": {"message": "Invalid Api Token"}}, 401)
        if state.mode is FaultMode.RATE_LIMITED:
            return JSONResponse(
                {"error": {"message": "You have exceeded your daily API call limit"}}, 403
            )
        return None

    @app.get("/oc/v0.4/companies/search")
    async def oc_search(request: Request) -> Response:
        if (refused := await oc_guard(request)) is not None:
            return refused
        q = request.query_params.get("q", "").lower()
        found = [{"company": _OC_COMPANY}] if q and q in str(_OC_COMPANY["name"]).lower() else []
        return JSONResponse(
            {"api_version": "0.4", "results": {"companies": found, "total_count": len(found)}}
        )

    @app.get("/oc/v0.4/companies/{jurisdiction}/{number}")
    async def oc_company(jurisdiction: str, number: str, request: Request) -> Response:
        if (refused := await oc_guard(request)) is not None:
            return refused
        if (jurisdiction, number) != ("gb", GB_NUMBER):
            return JSONResponse({"error": {"message": "Not Found"}}, 404)
        return JSONResponse({"api_version": "0.4", "results": {"company": _OC_COMPANY}})

    return app


@dataclass
class FakeRegistries:
    base_url: str
    state: State

    @property
    def prembly_url(self) -> str:
        return self.base_url + "/prembly"

    @property
    def gleif_url(self) -> str:
        return self.base_url + "/gleif/api/v1"

    @property
    def opencorporates_url(self) -> str:
        return self.base_url + "/oc/v0.4"

    def set_mode(self, mode: FaultMode, *, slow_seconds: float | None = None) -> None:
        self.state.mode = mode
        if slow_seconds is not None:
            self.state.slow_seconds = slow_seconds

    def calls(self, api: str) -> list[tuple[str, str, dict[str, str]]]:
        return [r for r in self.state.requests if r[0] == api]

    def reset(self) -> None:
        self.state.mode = FaultMode.NORMAL
        self.state.slow_seconds = 2.0
        self.state.requests.clear()


@contextmanager
def run_fake_registries() -> Iterator[FakeRegistries]:
    state = State()
    with serve_in_thread(create_app(state), "fake-registries") as base_url:
        yield FakeRegistries(base_url, state)
