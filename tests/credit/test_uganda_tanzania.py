"""Uganda and Tanzania: no licensed credit bureau documents an API for third parties
(docs/decisions.md), so a bureau pull there is a 503 that says so, with sandbox and live keys,
before anything is held or charged; on SQLite and PostgreSQL."""

from __future__ import annotations

import httpx
import pytest

from hakiki.core.database import Database
from hakiki.core.runtime import Runtime
from hakiki.credit.service import national_id_unavailable
from tests.conftest import AccountFactory
from tests.kyc.helpers import ledger_kinds

BODIES = {
    "UG": {"id_type": "national_id", "id_number": "CM12345678ABCD", "bureaus": "Compuscan"},
    "TZ": {
        "id_type": "national_id",
        "id_number": "19850101000000000000",
        "bureaus": "Creditinfo",
    },
}


@pytest.mark.parametrize("environment", ["sandbox", "live"])
@pytest.mark.parametrize("country", ["UG", "TZ"])
async def test_a_pull_is_503_with_the_reason_and_free(
    client: httpx.AsyncClient,
    make_account: AccountFactory,
    db: Database,
    environment: str,
    country: str,
) -> None:
    account = await make_account(environment, balance=20_000)
    fields = BODIES[country]
    response = await client.post(
        "/v3/credit/bureau",
        json={
            "country_code": country,
            "id_type": fields["id_type"],
            "id_number": fields["id_number"],
            "report_reason": "new_application",
            "consent": True,
        },
        headers=account.headers,
    )
    assert response.status_code == 503, response.text
    body = response.json()
    assert body["error"] == "channel_unavailable"
    assert "documents an API for third parties publicly" in body["message"]
    assert fields["bureaus"] in body["message"] and "Nothing was charged" in body["message"]
    assert await ledger_kinds(db, account.org_id) == {"credit": 1}


async def test_another_country_is_still_a_400_listing_them(
    client: httpx.AsyncClient, make_account: AccountFactory
) -> None:
    account = await make_account("live", balance=20_000)
    response = await client.post(
        "/v3/credit/bureau",
        json={"country_code": "RW", "id_type": "national_id", "id_number": "1",
              "report_reason": "new_application", "consent": True},
        headers=account.headers,
    )  # fmt: skip
    assert response.status_code == 400
    assert "KE, NG, UG, TZ" in response.json()["message"]


def test_other_domains_are_told_the_same_reason(runtime: Runtime) -> None:
    reason = national_id_unavailable(runtime, live=True, country="UG")
    assert reason is not None and "Metropol Uganda" in reason
