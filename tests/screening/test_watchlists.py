"""Organisation watchlists over real HTTP, on SQLite and PostgreSQL: the upload streamed and
sealed, the job and its progress, the list screened with its organisation's screenings only,
the PEP flavour, deletion, and every refusal (400, 403, 404, 413, 415, a failed job naming the
line)."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi import FastAPI

from hakiki.core.settings import Settings
from hakiki.screening.watchlists.files import WatchlistIndexes
from tests.conftest import AccountFactory

URL = "/v3/screening/watchlists"
CSV = {"Content-Type": "text/csv"}

WATCHLIST = (
    "id,name,aliases,birth_date,countries\r\n"
    "F-1,Wanjiru Kamau Njoroge,Wanjiru Njoroge,1984-03-02,KE\r\n"
    "F-2,Obinna Chukwuemeka Eze,,1979,NG;GH\r\n"
    "F-3,,,,\r\n"
    "F-4,Zawadi Achieng Otieno,,1990-13-40,Atlantis\r\n"
)


async def upload(
    client: httpx.AsyncClient,
    headers: dict[str, str],
    content: bytes | AsyncIterator[bytes],
    name: str = "Dismissed for fraud",
    list_type: str = "watchlist",
    content_type: str = "text/csv",
) -> httpx.Response:
    return await client.post(
        URL,
        params={"name": name, "list_type": list_type},
        content=content,
        headers={**headers, "Content-Type": content_type},
    )


async def uploaded(
    client: httpx.AsyncClient, headers: dict[str, str], content: bytes, **options: str
) -> dict[str, Any]:
    response = await upload(client, headers, content, **options)
    assert response.status_code == 202, response.text
    body: dict[str, Any] = response.json()
    assert body["status"] == "pending" and body["id"].startswith("wl_")
    return body


async def finished(
    client: httpx.AsyncClient, headers: dict[str, str], watchlist_id: str, within: float = 60
) -> dict[str, Any]:
    deadline = time.monotonic() + within
    while True:
        response = await client.get(f"{URL}/{watchlist_id}", headers=headers)
        assert response.status_code == 200, response.text
        body: dict[str, Any] = response.json()
        if body["status"] in ("ready", "failed"):
            return body
        assert time.monotonic() < deadline, body
        await asyncio.sleep(0.1)


async def screen(
    client: httpx.AsyncClient, headers: dict[str, str], path: str = "individual", **body: Any
) -> dict[str, Any]:
    response = await client.post(f"/v3/screening/{path}", json=body, headers=headers)
    assert response.status_code == 200, response.text
    result: dict[str, Any] = response.json()
    return result


def watchlist_hits(result: dict[str, Any], watchlist_id: str) -> list[dict[str, Any]]:
    return [h for h in result["data"]["aml"]["hits"] if h["list_code"] == watchlist_id]


async def test_a_watchlist_is_built_by_a_job_and_screened_for_its_organisation_only(
    client: httpx.AsyncClient, make_account: AccountFactory, settings: Settings
) -> None:
    account = await make_account("sandbox")
    created = await uploaded(client, account.headers, WATCHLIST.encode())
    assert created["size_bytes"] == len(WATCHLIST.encode())
    done = await finished(client, account.headers, created["id"])
    assert done["status"] == "ready", done
    assert (done["rows_read"], done["rows_accepted"], done["rows_refused"]) == (4, 3, 1)
    assert done["issues"] == [
        {"line": 4, "problem": "empty name; row skipped", "refused": True},
        {"line": 5, "problem": "birth_date is not YYYY[-MM[-DD]]; dropped", "refused": False},
        {"line": 5, "problem": "unknown country; dropped", "refused": False},
    ]
    assert "Atlantis" not in str(done) and "1990-13-40" not in str(done)  # never the values

    # A typo'd spelling of a listed name, with the listed birth date: a watchlist hit.
    result = await screen(
        client, account.headers, name="Wanjiru Kamau Njoroge", birth_date="1984-03-02"
    )
    (hit,) = watchlist_hits(result, created["id"])
    assert hit["check"] == "watchlist" and hit["entity_id"] == "F-1"
    assert result["data"]["aml"]["status"] == "POTENTIAL_MATCH"
    used = {lst["code"]: lst for lst in result["data"]["aml"]["lists"]}
    assert used[created["id"]]["title"] == "Dismissed for fraud"
    assert used[created["id"]]["checks"] == ["watchlist"]
    # the business endpoint and the aml endpoint's own "watchlist" check screen it too
    only = await screen(client, account.headers, "aml", name="Obinna Eze", checks=["watchlist"])
    assert [h["entity_id"] for h in watchlist_hits(only, created["id"])] == ["F-2"]
    assert only["data"]["aml"]["unavailable"] == []

    # Another organisation, and the same organisation's live environment, never see it.
    stranger = await make_account("sandbox")
    other = await screen(
        client, stranger.headers, name="Wanjiru Kamau Njoroge", birth_date="1984-03-02"
    )
    assert watchlist_hits(other, created["id"]) == []
    assert created["id"] not in {lst["code"] for lst in other["data"]["aml"]["lists"]}
    nothing = await client.post(
        "/v3/screening/aml",
        json={"name": "Obinna Eze", "checks": ["watchlist"]},
        headers=stranger.headers,
    )
    assert nothing.status_code == 503  # no list could be screened: never a CLEAR
    assert "no ready watchlist" in nothing.json()["message"]


async def test_the_upload_is_sealed_at_rest_and_deleted_with_its_watchlist(
    client: httpx.AsyncClient, app: FastAPI, make_account: AccountFactory, settings: Settings
) -> None:
    account = await make_account("sandbox")
    created = await uploaded(client, account.headers, WATCHLIST.encode())
    assert (await finished(client, account.headers, created["id"]))["status"] == "ready"
    await screen(client, account.headers, name="Wanjiru Kamau Njoroge")  # loads the index
    assert created["id"] in app.state.runtime.part(WatchlistIndexes).loaded()
    folder = Path(settings.data_dir) / "watchlists" / account.org_id
    stored = sorted(folder.iterdir())
    assert sorted(p.name.split(".")[-2] for p in stored) == ["csv", "index"]
    for path in stored:
        content = path.read_bytes()
        assert path.stat().st_mode & 0o077 == 0
        for clear in (b"Wanjiru", b"Njoroge", b"1984-03-02", "Kamau".encode("utf-16-le")):
            assert clear not in content, path

    stranger = await make_account("sandbox")
    for method in ("GET", "DELETE"):
        response = await client.request(method, f"{URL}/{created['id']}", headers=stranger.headers)
        assert response.status_code == 404, response.text
    response = await client.delete(f"{URL}/{created['id']}", headers=account.headers)
    assert response.status_code == 204, response.text
    assert list(folder.iterdir()) == []
    assert created["id"] not in app.state.runtime.part(WatchlistIndexes).loaded()
    assert (await client.get(f"{URL}/{created['id']}", headers=account.headers)).status_code == 404
    after = await screen(client, account.headers, name="Wanjiru Kamau Njoroge")
    assert watchlist_hits(after, created["id"]) == []


async def test_listing_is_per_organisation_and_environment_with_filters(
    client: httpx.AsyncClient, make_account: AccountFactory
) -> None:
    account = await make_account("sandbox")
    first = await uploaded(client, account.headers, WATCHLIST.encode(), name="First")
    second = await uploaded(client, account.headers, b"name\nA B\n", name="PEPs", list_type="pep")
    for item in (first, second):
        await finished(client, account.headers, item["id"])
    listed = (await client.get(URL, headers=account.headers)).json()
    assert [w["id"] for w in listed["data"]] == [second["id"], first["id"]]
    assert listed["pagination"]["total_items"] == 2
    peps = (await client.get(URL, params={"list_type": "pep"}, headers=account.headers)).json()
    assert [w["name"] for w in peps["data"]] == ["PEPs"]
    stranger = await make_account("sandbox")
    assert (await client.get(URL, headers=stranger.headers)).json()["data"] == []


async def test_a_pep_watchlist_answers_the_pep_check_with_the_position(
    client: httpx.AsyncClient, make_account: AccountFactory
) -> None:
    """A live organisation's own PEP CSV: the pep check runs against it (the server loads no
    PEP list: without it the call is a 503, nothing screened)."""
    account = await make_account("live", balance=100_000)
    before = await client.post(
        "/v3/screening/pep", json={"name": "Achieng Atieno Odhiambo"}, headers=account.headers
    )
    assert before.status_code == 503, before.text
    peps = (
        "name,aliases,birth_date,countries,position,start_date,end_date\n"
        "Achieng Atieno Odhiambo,,1961,KE,Governor of Kisumu County,2013-03-27,2017-08-21\n"
        "Baraka Mwangi Kiprono,,1970,KE,Member of Parliament,2022-09-08,\n"
    )
    created = await uploaded(client, account.headers, peps.encode(), list_type="pep")
    assert (await finished(client, account.headers, created["id"]))["status"] == "ready"
    result = await screen(client, account.headers, "pep", name="Achieng Atieno Odhiambo")
    (hit,) = watchlist_hits(result, created["id"])
    assert hit["check"] == "pep"
    assert hit["programs"] == ["Governor of Kisumu County (2013-03-27 to 2017-08-21)"]
    assert result["data"]["aml"]["unavailable"] == []
    # a PEP list is not screened by a sanctions-only call
    sanction = await screen(client, account.headers, "sanction", name="Achieng Atieno Odhiambo")
    assert watchlist_hits(sanction, created["id"]) == []


async def test_refusals_name_what_is_wrong(
    client: httpx.AsyncClient, make_account: AccountFactory
) -> None:
    account = await make_account("sandbox")
    no_name = await upload(client, account.headers, b"full_name,country\nA,KE\n")
    assert no_name.status_code == 400, no_name.text
    assert "'name' is missing" in no_name.json()["message"]
    assert no_name.json()["details"][0]["field"] == "body"
    empty = await upload(client, account.headers, b"")
    assert empty.status_code == 400 and "empty" in empty.json()["message"]
    wrong_type = await upload(client, account.headers, b"name\nA\n", content_type="image/png")
    assert wrong_type.status_code == 415, wrong_type.text
    bad_type = await upload(client, account.headers, b"name\nA\n", list_type="crime")
    assert bad_type.status_code == 400 and "list_type" in bad_type.text
    no_label = await upload(client, account.headers, b"name\nA\n", name="   ")
    assert no_label.status_code == 400 and no_label.json()["details"][0]["field"] == "name"
    header_bomb = await upload(client, account.headers, b"name" + b"," * 70_000)
    assert header_bomb.status_code == 400, header_bomb.text
    assert "line 1" in header_bomb.json()["message"]
    assert list(await _stored(client, account)) == []  # nothing kept of a refused upload


async def _stored(client: httpx.AsyncClient, account: Any) -> list[dict[str, Any]]:
    data: list[dict[str, Any]] = (await client.get(URL, headers=account.headers)).json()["data"]
    return data


async def test_an_unclosed_quote_fails_the_job_naming_its_line(
    client: httpx.AsyncClient, make_account: AccountFactory
) -> None:
    account = await make_account("sandbox")
    bomb = b"name,aliases\nAmani Juma,\nNeema Mushi,\n" + b'"Open quote' + b",x\n" * 100_000
    created = await uploaded(client, account.headers, bomb)
    done = await finished(client, account.headers, created["id"])
    assert done["status"] == "failed", done
    assert "line 4" in done["failure_reason"] or "line 5" in done["failure_reason"]
    assert "field larger than field limit" in done["failure_reason"]
    assert done["rows_read"] == 2
    result = await screen(client, account.headers, name="Amani Juma")
    assert watchlist_hits(result, created["id"]) == []


async def test_too_many_rows_and_a_line_without_end_fail_the_job(
    client: httpx.AsyncClient, app: FastAPI, make_account: AccountFactory, monkeypatch: Any
) -> None:
    account = await make_account("sandbox")
    monkeypatch.setattr(app.state.runtime.settings, "watchlist_max_rows", 3)
    many = await uploaded(client, account.headers, b"name\n" + b"Juma Bakari Mussa\n" * 5)
    done = await finished(client, account.headers, many["id"])
    assert done["status"] == "failed"
    assert done["failure_reason"] == "watchlist CSV: line 5: more than 3 rows"
    endless = await uploaded(client, account.headers, b"name\nA B\n" + b"x" * (1 << 21))
    done = await finished(client, account.headers, endless["id"])
    assert done["status"] == "failed"
    assert "line 3 is longer than 1,048,576 characters" in done["failure_reason"]


async def test_the_size_cap_is_a_413(
    client: httpx.AsyncClient, app: FastAPI, make_account: AccountFactory, monkeypatch: Any
) -> None:
    account = await make_account("sandbox")
    declared = await client.post(
        URL,
        params={"name": "Big"},
        content=b"name\n",
        headers={
            **account.headers,
            **CSV,
            "Content-Length": str(app.state.runtime.settings.watchlist_max_bytes + 1),
        },
    )
    assert declared.status_code == 413, declared.text
    monkeypatch.setattr(app.state.runtime.settings, "watchlist_max_bytes", 100_000)
    pulled = 0

    async def endless() -> AsyncIterator[bytes]:  # no Content-Length: only the cap stops it
        nonlocal pulled
        yield b"name\n"
        while pulled < 10_000_000:
            pulled += 65_536
            yield b"Amani Juma\n" * 5_958
            await asyncio.sleep(0)

    streamed = await upload(client, account.headers, endless())
    assert streamed.status_code == 413, streamed.text
    assert streamed.json()["error"] == "payload_too_large"
    assert pulled < 400_000
    assert await _stored(client, account) == []
    folder = Path(app.state.runtime.settings.data_dir) / "watchlists" / account.org_id
    assert not folder.exists() or list(folder.iterdir()) == []


@pytest.mark.parametrize("method", ["POST", "DELETE"])
async def test_a_key_without_the_write_scope_is_403(
    client: httpx.AsyncClient, make_account: AccountFactory, method: str
) -> None:
    reader = await make_account("sandbox", scopes=["screening:read"])
    response = await client.request(
        method,
        URL if method == "POST" else f"{URL}/wl_00000000000000000000000000",
        params={"name": "x"},
        content=b"name\nA\n",
        headers={**reader.headers, **CSV},
    )
    assert response.status_code == 403, response.text
    assert (await client.get(URL, headers=reader.headers)).status_code == 200


async def test_the_combined_id_screening_includes_the_live_watchlist(
    client: httpx.AsyncClient, make_account: AccountFactory, fake_prembly: Any
) -> None:
    from tests.identity.providers.fake_prembly import BVN_FOUND

    account = await make_account("live", balance=50_000)
    own = "name,birth_date,countries\nChiamaka Ngozi Okafor-Nwosu,1985-05-15,NG\n"
    created = await uploaded(client, account.headers, own.encode())
    assert (await finished(client, account.headers, created["id"]))["status"] == "ready"
    response = await client.post(
        "/v3/screening/aml-with-id",
        json={"channel": "bvn", "number": BVN_FOUND},
        headers=account.headers,
    )
    assert response.status_code == 200, response.text
    aml = response.json()["data"]["aml"]
    (hit,) = [h for h in aml["hits"] if h["list_code"] == created["id"]]
    assert hit["check"] == "watchlist" and hit["entity_id"] == "row-2"


async def test_a_large_list_is_built_in_a_child_process(
    client: httpx.AsyncClient, make_account: AccountFactory, monkeypatch: Any
) -> None:
    """From CHILD_BUILD_BYTES a build runs in a spawned process (its peak memory is not the
    server's): the same outcome, progress and refusals."""
    from hakiki.screening.watchlists import tasks

    monkeypatch.setattr(tasks, "CHILD_BUILD_BYTES", 0)
    account = await make_account("sandbox")
    created = await uploaded(client, account.headers, WATCHLIST.encode())
    done = await finished(client, account.headers, created["id"])
    assert done["status"] == "ready", done
    assert (done["rows_read"], done["rows_accepted"], done["rows_refused"]) == (4, 3, 1)
    assert done["issues"][0] == {"line": 4, "problem": "empty name; row skipped", "refused": True}
    result = await screen(client, account.headers, name="Wanjiru Kamau Njoroge")
    assert [h["entity_id"] for h in watchlist_hits(result, created["id"])] == ["F-1"]
    bomb = b"name\nAmani Juma\n" + b'"Open quote' + b",x\n" * 100_000
    failed = await finished(
        client, account.headers, (await uploaded(client, account.headers, bomb))["id"]
    )
    assert (
        failed["status"] == "failed" and "field larger than field limit" in failed["failure_reason"]
    )
    assert failed["rows_read"] == 1
