"""Every list endpoint bounds `page` and `page_size` when the request arrives: a page beyond the
databases' integers, a negative page or a page that is not a number is a 400 naming the field,
never a 500; the highest page allowed answers an empty page."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from hakiki.core.errors import ApiError
from hakiki.core.pagination import MAX_PAGE, PageRequest
from tests.conftest import AccountFactory
from tests.fraud.bulk.conftest import csv_bytes, finished, upload

LISTS = (
    "/v3/account/wallet/transactions",
    "/v3/account/webhooks",
    "/v3/account/webhooks/deliveries",
    "/v3/account/screening-reviews",
    "/v3/fraud/reports",
    "/v3/fraud/bulk-scan",
)


def _problem(response: httpx.Response) -> dict[str, Any]:
    assert response.status_code == 400, response.text
    body: dict[str, Any] = response.json()
    assert body["error"] == "invalid_request"
    return body


async def test_every_list_bounds_its_page(
    client: httpx.AsyncClient, make_account: AccountFactory
) -> None:
    account = await make_account("sandbox")
    scan = await upload(client, account.headers, csv_bytes([["phone"], ["0712345678"]]), "phone")
    await finished(client, account.headers, scan["bulk_id"])
    paths = (*LISTS, f"/v3/fraud/bulk-scan/{scan['bulk_id']}")
    assert len(paths) == 7
    for path in paths:
        for page in ("99999999999999999999999", str(MAX_PAGE + 1), "-1", "0", "abc", "1.5"):
            body = _problem(await client.get(path, params={"page": page}, headers=account.headers))
            assert [d["field"] for d in body["details"]] == ["page"], (path, page, body)
            assert "page" in body["message"]
        for size in ("0", "101", "99999999999999999999999", "x"):
            response = await client.get(path, params={"page_size": size}, headers=account.headers)
            assert [d["field"] for d in _problem(response)["details"]] == ["page_size"]

        last = await client.get(
            path, params={"page": MAX_PAGE, "page_size": 100}, headers=account.headers
        )
        assert last.status_code == 200, (path, last.text)
        found = last.json()
        if "pagination" not in found:  # a bulk scan in the envelope: its rows' page in data
            found = found["data"]
        assert found["pagination"]["page"] == MAX_PAGE
        assert found.get("data", found.get("results")) == []


@pytest.mark.parametrize(
    ("page", "size", "field"),
    [(0, 20, "page"), (MAX_PAGE + 1, 20, "page"), (1, 0, "page_size"), (1, 101, "page_size")],
)
def test_a_page_request_built_in_code_is_bounded_too(page: int, size: int, field: str) -> None:
    with pytest.raises(ApiError) as refused:
        PageRequest(page, size)
    assert refused.value.status_code == 400
    assert refused.value.details == [
        {"field": field, "problem": refused.value.details[0]["problem"]}
    ]
