"""JSON's loose readings are refused: `true` is not a coordinate, a threshold or an amount, and
`0` is not a date (pydantic would read it as 1970-01-01). Each is a 400 naming the field; the
right types still pass (a JSON integer is a valid coordinate)."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from tests.conftest import AccountFactory

ADDRESS = {"address": "Moi Avenue, Nairobi", "country_code": "KE"}
ID_SCAN = {"channel": "bvn", "number": "22212345670"}
REPORT = {
    "subject": {"last_name": "Okafor", "identifiers": [{"type": "bvn", "value": "22987650111"}]},
    "incident": {"category": "identity_theft", "date": "2026-01-02",
                 "description": "Opened an account with a stolen BVN."},
}  # fmt: skip


def _with(body: dict[str, Any], path: str, value: Any) -> dict[str, Any]:
    """``body`` with the field at the dotted ``path`` set to ``value``."""
    copy: dict[str, Any] = {k: dict(v) if isinstance(v, dict) else v for k, v in body.items()}
    *parents, leaf = path.split(".")
    target = copy
    for key in parents:
        target = target[key]
    target[leaf] = value
    return copy


CASES = [
    ("/v3/fraud/address", ADDRESS | {"longitude": 36.8}, "latitude", [True, False, "-1.28"]),
    ("/v3/fraud/address", ADDRESS | {"latitude": -1.28}, "longitude", [True, "36.8"]),
    ("/v3/fraud/id-scan", ID_SCAN, "date_of_birth",
     [0, "0", 1_700_000_000, "1700000000", True, 0.0, "2020-01-01T00:00:00", "20200101"]),
    ("/v3/fraud/identity-risk", {"phones": ["0712 345678"], "country_code": "KE"},
     "date_of_birth", [0, "0", True]),
    ("/v3/fraud/reports", REPORT, "subject.date_of_birth", [0, "0", True]),
    ("/v3/fraud/reports", REPORT, "incident.date", [0, "0", 1_700_000_000]),
    ("/v3/fraud/reports", _with(REPORT, "incident.currency", "NGN"), "incident.amount",
     [True, "100", 1.5]),
    ("/v3/screening/sanction", {"name": "Sandbox Sanction Person"}, "threshold", [True, "0.9"]),
    ("/v3/screening/sanction", {"name": "Sandbox Sanction Person"}, "limit", [True, "5"]),
    ("/v3/screening/sanction", {"name": "Sandbox Sanction Person"}, "birth_date", [0, True]),
    ("/v3/screening/aml-with-id", ID_SCAN, "threshold", [True]),
]  # fmt: skip


@pytest.mark.parametrize(("path", "body", "field", "values"), CASES)
async def test_loose_values_are_a_400_naming_the_field(
    client: httpx.AsyncClient,
    make_account: AccountFactory,
    path: str,
    body: dict[str, Any],
    field: str,
    values: list[Any],
) -> None:
    account = await make_account("sandbox")
    for value in values:
        response = await client.post(path, json=_with(body, field, value), headers=account.headers)
        assert response.status_code == 400, (field, value, response.text)
        error = response.json()
        assert [d["field"] for d in error["details"]] == [field], (value, error)


@pytest.mark.parametrize(
    ("path", "body"),
    [
        ("/v3/fraud/address", ADDRESS | {"latitude": -1, "longitude": 37}),  # integers
        ("/v3/fraud/address", ADDRESS | {"latitude": -1.2833, "longitude": 36.8167}),
        ("/v3/fraud/id-scan", ID_SCAN | {"date_of_birth": "1991-04-12"}),
        ("/v3/fraud/reports", _with(REPORT, "subject.date_of_birth", "1991-04-12")),
        ("/v3/fraud/reports", _with(_with(REPORT, "incident.currency", "NGN"),
                                    "incident.amount", 5)),
        ("/v3/screening/sanction", {"name": "Sandbox Sanction Person", "threshold": 1, "limit": 5}),
    ],
)  # fmt: skip
async def test_the_right_types_pass(
    client: httpx.AsyncClient, make_account: AccountFactory, path: str, body: dict[str, Any]
) -> None:
    account = await make_account("sandbox")
    response = await client.post(path, json=body, headers=account.headers)
    assert response.status_code in (200, 201), response.text


async def test_a_report_filter_date_is_a_date(
    client: httpx.AsyncClient, make_account: AccountFactory
) -> None:
    account = await make_account("sandbox")
    for name in ("incident_from", "incident_to"):
        for value in ("0", "1700000000", "true"):
            response = await client.get(
                "/v3/fraud/reports", params={name: value}, headers=account.headers
            )
            assert response.status_code == 400, (name, value, response.text)
            assert [d["field"] for d in response.json()["details"]] == [name]
        fine = await client.get(
            "/v3/fraud/reports", params={name: "2026-01-02"}, headers=account.headers
        )
        assert fine.status_code == 200, fine.text
