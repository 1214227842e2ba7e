"""Every list is paginated the same way (issue 35): each GET whose answer is a list (`data`,
an array) takes `page` and `page_size` (20 by default, 100 at most, anything else a 400 naming
the parameter) and answers `pagination`; `page_size` is honoured by each, the lists served from
memory (channels, the lists' status, countries, check types, test values) too."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from hakiki.core.scopes import ALL_SCOPES
from tests.conftest import AccountFactory

Spec = dict[str, Any]


def _resolve(spec: Spec, schema: dict[str, Any]) -> dict[str, Any]:
    while "$ref" in schema:
        schema = spec["components"]["schemas"][schema["$ref"].rsplit("/", 1)[-1]]
    return schema


def _list_operations(spec: Spec) -> list[tuple[str, dict[str, Any]]]:
    """(path, operation) of every GET whose 200 answer holds a `data` array."""
    found = []
    for path, methods in spec["paths"].items():
        operation = methods.get("get")
        if operation is None:
            continue
        content = operation["responses"].get("200", {}).get("content", {})
        schema = _resolve(spec, content.get("application/json", {}).get("schema", {}))
        data = schema.get("properties", {}).get("data", {})
        if data.get("type") == "array":
            found.append((path, operation))
    return found


async def test_every_list_operation_documents_page_and_page_size(
    client: httpx.AsyncClient,
) -> None:
    spec = (await client.get("/openapi.json")).json()
    lists = _list_operations(spec)
    assert len(lists) >= 15
    problems = []
    for path, operation in lists:
        query = {p["name"]: p for p in operation.get("parameters", []) if p["in"] == "query"}
        if not {"page", "page_size"} <= set(query):
            problems.append(f"GET {path}: no page/page_size parameters")
        elif query["page_size"]["schema"].get("maximum") != 100:
            problems.append(f"GET {path}: page_size is not at most 100")
        schema = _resolve(spec, operation["responses"]["200"]["content"]["application/json"])
        schema = _resolve(spec, schema["schema"])
        if "pagination" not in schema.get("properties", {}):
            problems.append(f"GET {path}: no pagination in the answer")
        if "400" not in operation["responses"]:
            problems.append(f"GET {path}: a bad page_size's 400 is not documented")
    assert not problems, "\n".join(problems)


async def test_every_list_without_a_path_parameter_honours_page_size(
    client: httpx.AsyncClient, make_account: AccountFactory
) -> None:
    spec = (await client.get("/openapi.json")).json()
    checked = []
    for path, _ in _list_operations(spec):
        if "{" in path:
            continue
        # A key of its own per list: five calls a list, and the lists outnumber one key's
        # rate limit (100 a second) together.
        headers = (await make_account("sandbox", scopes=list(ALL_SCOPES))).headers
        one = await client.get(path, params={"page_size": 1}, headers=headers)
        assert one.status_code == 200, (path, one.text)
        body = one.json()
        assert len(body["data"]) <= 1, path
        assert body["pagination"]["page_size"] == 1, path
        assert body["pagination"]["total_pages"] == body["pagination"]["total_items"], path
        default = (await client.get(path, headers=headers)).json()["pagination"]
        assert (default["page"], default["page_size"]) == (1, 20), path
        for bad in ({"page_size": 0}, {"page_size": 101}, {"page": 0}):
            refused = await client.get(path, params=bad, headers=headers)
            assert refused.status_code == 400, (path, bad)
            assert refused.json()["details"][0]["field"] == next(iter(bad)), (path, bad)
        checked.append(path)
    assert len(checked) >= 14


# The five lists the issue names: each page holds the items of the whole list in order.
IN_MEMORY = [
    ("/v3/screening/channels", {}, "code"),
    ("/v3/account/lists", {}, "code"),
    ("/v3/background/countries", {}, "country_code"),
    ("/v3/background/check-types", {"country_code": "KE"}, "code"),
    ("/v3/sandbox/test-values", {"path": "/v3/tax/pin"}, "description"),
]


@pytest.mark.parametrize(("path", "query", "key"), IN_MEMORY, ids=[p for p, _, _ in IN_MEMORY])
async def test_the_in_memory_lists_page_through_their_items(
    client: httpx.AsyncClient,
    make_account: AccountFactory,
    path: str,
    query: dict[str, str],
    key: str,
) -> None:
    headers = (await make_account("sandbox")).headers
    whole = await client.get(path, params={**query, "page_size": 100}, headers=headers)
    assert whole.status_code == 200, whole.text
    everything = [item[key] for item in whole.json()["data"]]
    total = whole.json()["pagination"]["total_items"]
    assert total == len(everything) >= 3
    paged: list[Any] = []
    page = 1
    while True:
        response = await client.get(
            path, params={**query, "page": page, "page_size": 2}, headers=headers
        )
        body = response.json()
        assert body["pagination"] == {
            "page": page,
            "page_size": 2,
            "total_pages": (total + 1) // 2,
            "total_items": total,
        }
        paged += [item[key] for item in body["data"]]
        if page >= body["pagination"]["total_pages"]:
            break
        page += 1
    assert paged == everything
    beyond = await client.get(path, params={**query, "page": page + 1}, headers=headers)
    assert beyond.status_code == 200 and beyond.json()["data"] == []


async def test_the_test_values_path_filter_keeps_one_endpoint(
    client: httpx.AsyncClient, make_account: AccountFactory
) -> None:
    headers = (await make_account("sandbox")).headers
    response = await client.get(
        "/v3/sandbox/test-values", params={"path": "/v3/tax/pin"}, headers=headers
    )
    assert response.status_code == 200
    assert {e["path"] for e in response.json()["data"]} == {"/v3/tax/pin"}
    nothing = await client.get(
        "/v3/sandbox/test-values", params={"path": "/v3/no-such"}, headers=headers
    )
    assert nothing.json()["data"] == [] and nothing.json()["pagination"]["total_items"] == 0
