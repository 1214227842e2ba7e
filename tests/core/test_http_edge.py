"""The HTTP edge (issue 11): credentials refused before any look-up, unknown ids remembered in
bounded memory, authentication before the body, body limits, every unreadable body a 400 of the
catalogue, NUL and lone surrogates refused at the door, no Host-header redirect, full Allow
headers, health endpoints, and /docs served from local files with a bearer scheme."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator, Iterator
from contextlib import contextmanager
from typing import Any

import httpx
import pytest
from sqlalchemy import event

from hakiki.core.auth import CLIENT_ID_FORMAT, SECRET_FORMAT, KeyCache
from hakiki.core.cache import MissCache
from hakiki.core.database import Database
from hakiki.core.endpoints import JSON_BODY_BYTES
from hakiki.core.settings import Settings
from hakiki.fraud.endpoints import FACE_SCAN, bulk_upload_max_body_bytes
from tests.conftest import AccountFactory

AML = "/v3/screening/aml-with-id"
AML_BODY = {"channel": "bvn", "number": "22212345670"}
CHUNK = 64 * 1024


@contextmanager
def key_lookups(db: Database) -> Iterator[list[str]]:
    """The SQL statements that read api_keys while the block runs."""
    seen: list[str] = []

    def record(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        if "api_keys" in statement:
            seen.append(statement)

    engine = db.reader.sync_engine
    event.listen(engine, "before_cursor_execute", record)
    try:
        yield seen
    finally:
        event.remove(engine, "before_cursor_execute", record)


class Stream:
    """A request body streamed in chunks, counting how much of it the server pulled."""

    def __init__(self, total: int, prefix: bytes = b"") -> None:
        self.total = total
        self.prefix = prefix
        self.consumed = 0

    async def __aiter__(self) -> AsyncIterator[bytes]:
        while self.consumed < self.total:
            filler = b" " * min(CHUNK, self.total - self.consumed)
            chunk = (self.prefix + filler)[:CHUNK] if self.consumed == 0 else filler
            self.consumed += len(chunk)
            yield chunk


def assert_error(response: httpx.Response, status: int, error: str) -> dict[str, Any]:
    assert response.status_code == status, response.text
    body: dict[str, Any] = response.json()
    assert body["error"] == error, body
    assert response.headers["x-request-id"].startswith("req_")
    return body


# 1. Credentials: malformed ones never reach the look-up; misses are bounded in bytes.


async def test_issued_keys_have_the_format_authentication_accepts(
    make_account: AccountFactory,
) -> None:
    for environment in ("sandbox", "live"):
        account = await make_account(environment)
        assert CLIENT_ID_FORMAT.fullmatch(account.client_id), account.client_id
        assert SECRET_FORMAT.fullmatch(account.secret)


@pytest.mark.parametrize(
    ("header", "says"),
    [
        (f"Bearer hk_test_{'a' * 24}:hks_{'s' * 43}{'x' * (1 << 20)}", "characters long"),
        (f"Bearer hk_test_{'a' * (1 << 20)}:hks_{'s' * 43}", "characters long"),
        (f"Bearer hk_test_unknown:hks_{'s' * 43}", "client_id is malformed"),
        (f"Bearer hk_prod_{'a' * 24}:hks_{'s' * 43}", "client_id is malformed"),
        (f"Bearer hk_test_{'A' * 24}:hks_{'s' * 43}", "client_id is malformed"),
        (f"Bearer hk_test_{'a' * 24}:hks_whatever", "secret is malformed"),
        (f"Bearer hk_test_{'a' * 24}:{'s' * 47}", "secret is malformed"),
    ],
)
async def test_malformed_or_overlong_credentials_are_refused_before_any_lookup(
    client: httpx.AsyncClient, db: Database, header: str, says: str
) -> None:
    with key_lookups(db) as lookups:
        response = await client.post(AML, json=AML_BODY, headers={"Authorization": header})
    body = assert_error(response, 401, "unauthorized")
    assert says in body["message"] and "Authorization: Bearer" in body["message"]
    assert len(body["message"]) < 300  # the header is never echoed back
    assert lookups == []


async def test_a_well_formed_unknown_id_is_looked_up_and_refused(
    client: httpx.AsyncClient, db: Database
) -> None:
    header = f"Bearer hk_live_{'0' * 24}:hks_{'s' * 43}"
    with key_lookups(db) as lookups:
        response = await client.post(AML, json=AML_BODY, headers={"Authorization": header})
    assert "not valid" in assert_error(response, 401, "unauthorized")["message"]
    assert len(lookups) == 1


async def test_unknown_ids_are_remembered_within_the_miss_cache_byte_bound(db: Database) -> None:
    bound = 20_000
    cache = KeyCache(db, 60.0, miss_cache_bytes=bound)
    ids = [f"hk_test_{n:024x}" for n in range(2_000)]
    with key_lookups(db) as lookups:
        for client_id in ids:
            assert await cache.get(client_id) is None
            assert cache.misses.size_bytes <= bound
        assert len(lookups) == len(ids)
        assert 0 < len(cache.misses) < len(ids)
        assert await cache.get(ids[-1]) is None  # a recent miss: answered from memory
        assert len(lookups) == len(ids)
        assert await cache.get(ids[0]) is None  # the oldest were dropped: looked up again
        assert len(lookups) == len(ids) + 1


async def test_with_no_cache_time_a_miss_is_not_remembered(
    db: Database, make_account: AccountFactory
) -> None:
    cache = KeyCache(db, 0.0)  # nothing cached: a miss is never remembered
    account = await make_account("sandbox")
    assert await cache.get(account.client_id) is not None
    cache.misses.add(account.client_id)
    assert len(cache.misses) == 0


def test_miss_cache_counts_bytes_not_entries() -> None:
    misses = MissCache(60.0, 4 << 20)
    for n in range(20):
        misses.add(f"{n:04d}" + "x" * (1 << 20))  # 1 MiB keys: four fit at most
        assert misses.size_bytes <= 4 << 20
    assert 0 < len(misses) <= 4
    misses.add("y" * (5 << 20))  # larger than the whole bound: not kept
    assert "y" * (5 << 20) not in misses and misses.size_bytes <= 4 << 20


# 2. Authentication before the body; body limits from Content-Length and while streaming.


async def test_a_big_body_without_credentials_is_refused_unread(
    client: httpx.AsyncClient,
) -> None:
    body = Stream(16 << 20)
    response = await client.post(AML, content=body, headers={"Content-Type": "application/json"})
    assert_error(response, 401, "unauthorized")
    assert body.consumed <= CHUNK  # nothing read past what the transport handed over


async def test_a_big_body_without_the_scope_is_refused_unread(
    client: httpx.AsyncClient, make_account: AccountFactory
) -> None:
    account = await make_account("sandbox", scopes=["fraud:read"])
    body = Stream(16 << 20)
    headers = {**account.headers, "Content-Type": "application/json"}
    response = await client.post(AML, content=body, headers=headers)
    assert_error(response, 403, "insufficient_scope")
    assert body.consumed <= CHUNK


async def test_an_oversized_content_length_is_413_unread(
    client: httpx.AsyncClient, make_account: AccountFactory
) -> None:
    account = await make_account("sandbox")
    body = Stream(JSON_BODY_BYTES + 1)
    headers = {
        **account.headers,
        "Content-Type": "application/json",
        "Content-Length": str(JSON_BODY_BYTES + 1),
    }
    response = await client.post(AML, content=body, headers=headers)
    error = assert_error(response, 413, "payload_too_large")
    assert "1,048,576 bytes" in error["message"]
    assert error["details"] == [{"field": "body", "problem": "larger than 1,048,576 bytes"}]
    assert body.consumed <= CHUNK


async def test_an_oversized_chunked_body_is_413_once_it_passes_the_limit(
    client: httpx.AsyncClient, make_account: AccountFactory
) -> None:
    account = await make_account("sandbox")
    body = Stream(64 << 20)  # no Content-Length: sent chunked
    headers = {**account.headers, "Content-Type": "application/json"}
    response = await client.post(AML, content=body, headers=headers)
    assert "1,048,576 bytes" in assert_error(response, 413, "payload_too_large")["message"]
    assert body.consumed <= JSON_BODY_BYTES + 2 * CHUNK


async def test_an_oversized_multipart_stream_is_413_at_its_own_limit(
    client: httpx.AsyncClient, make_account: AccountFactory, settings: Settings
) -> None:
    account = await make_account("sandbox")
    limit = FACE_SCAN.body_limit(settings)
    assert limit > JSON_BODY_BYTES  # an image upload may be larger than a JSON body
    # A well-formed part whose file never ends: only the limit stops it.
    part = b'--xyz\r\nContent-Disposition: form-data; name="image"; filename="a.jpg"\r\n\r\n'
    body = Stream(limit + 4 * CHUNK, prefix=part)
    headers = {**account.headers, "Content-Type": "multipart/form-data; boundary=xyz"}
    response = await client.post("/v3/fraud/face-scan", content=body, headers=headers)
    assert f"{limit:,} bytes" in assert_error(response, 413, "payload_too_large")["message"]
    assert body.consumed <= limit + 2 * CHUNK


async def test_the_bulk_upload_limit_follows_its_setting(
    client: httpx.AsyncClient, make_account: AccountFactory, settings: Settings
) -> None:
    account = await make_account("sandbox")
    limit = bulk_upload_max_body_bytes(settings)
    assert limit > settings.bulk_max_bytes
    body = Stream(limit + 1)
    headers = {
        **account.headers,
        "Content-Type": "multipart/form-data; boundary=xyz",
        "Content-Length": str(limit + 1),
    }
    response = await client.post("/v3/fraud/bulk-scan/upload", content=body, headers=headers)
    assert f"{limit:,} bytes" in assert_error(response, 413, "payload_too_large")["message"]
    assert body.consumed <= CHUNK


async def test_a_body_under_the_limit_is_served(
    client: httpx.AsyncClient, make_account: AccountFactory
) -> None:
    account = await make_account("sandbox")
    padded = b'{"channel": "bvn", "number": "22212345670"' + b" " * 900_000 + b"}"
    headers = {**account.headers, "Content-Type": "application/json"}
    response = await client.post(AML, content=padded, headers=headers)
    assert response.status_code == 200, response.text


# 3. Unreadable bodies: 400 invalid_request naming the body; the wrong Content-Type: 415.


@pytest.mark.parametrize(
    ("content", "says"),
    [
        (b'{"channel": "bvn", "number": "\xff\xfe"}', "is not valid UTF-8 (byte 30)"),
        (b'{"channel": "bvn", "number": 1' + b"0" * 5000 + b"}", "number too large"),
        (b"[" * 100_000, "nested more than 1024 levels deep"),
        (b'{"channel": "bvn",, "number": "1"}', "is not valid JSON"),
        (b'{"channel": "bvn", "number": NaN}', "is not valid JSON"),
        (b'\xef\xbb\xbf{"channel": "bvn"}', "byte order mark"),
    ],
)
async def test_an_unreadable_json_body_is_400_naming_the_body(
    client: httpx.AsyncClient, make_account: AccountFactory, content: bytes, says: str
) -> None:
    account = await make_account("sandbox")
    headers = {**account.headers, "Content-Type": "application/json"}
    response = await client.post(AML, content=content, headers=headers)
    body = assert_error(response, 400, "invalid_request")
    assert says in body["message"]
    assert [d["field"] for d in body["details"]] == ["body"]


async def test_a_json_syntax_error_names_its_line_and_column(
    client: httpx.AsyncClient, make_account: AccountFactory
) -> None:
    account = await make_account("sandbox")
    headers = {**account.headers, "Content-Type": "application/json"}
    response = await client.post(AML, content=b'{\n  "channel": "bvn",,\n}', headers=headers)
    body = assert_error(response, 400, "invalid_request")
    assert "line 2, column 20" in body["message"]
    assert body["details"][0]["field"] == "body"


@pytest.mark.parametrize(
    ("content_type", "body"),
    [
        ("multipart/form-data; boundary=xyz", b"this is not multipart at all"),
        ("multipart/form-data", b"--xyz\r\n"),
        (
            "multipart/form-data; boundary=xyz",
            b'--xyz\r\nContent-Disposition: form-data; name="image"; filename="a.jpg"\r\n\r\nab',
        ),
    ],
)
async def test_a_broken_multipart_body_is_400_naming_the_body(
    client: httpx.AsyncClient, make_account: AccountFactory, content_type: str, body: bytes
) -> None:
    account = await make_account("sandbox")
    headers = {**account.headers, "Content-Type": content_type}
    response = await client.post("/v3/fraud/face-scan", content=body, headers=headers)
    error = assert_error(response, 400, "invalid_request")
    assert error["details"][0]["field"] in ("body", "image")
    assert "http_error" not in response.text


@pytest.mark.parametrize("content_type", [None, "text/plain", "application/x-www-form-urlencoded"])
async def test_json_sent_without_its_content_type_is_415_saying_so(
    client: httpx.AsyncClient, make_account: AccountFactory, content_type: str | None
) -> None:
    account = await make_account("sandbox")
    headers = dict(account.headers)
    if content_type:
        headers["Content-Type"] = content_type
    response = await client.post(AML, content=b'{"channel": "bvn"}', headers=headers)
    body = assert_error(response, 415, "unsupported_media_type")
    assert "Content-Type: application/json" in body["message"]
    assert (content_type or "no Content-Type") in body["message"]


async def test_json_sent_to_an_upload_is_415_naming_multipart(
    client: httpx.AsyncClient, make_account: AccountFactory
) -> None:
    account = await make_account("sandbox")
    response = await client.post(
        "/v3/fraud/face-scan", json={"image": "x"}, headers=account.headers
    )
    assert "multipart/form-data" in assert_error(response, 415, "unsupported_media_type")["message"]


# 4. A NUL or a lone surrogate in any string: a 400 naming the field, before any work.

REPORTS = "/v3/fraud/reports"
REPORT = (
    '{"subject": {"last_name": "Okonkwo", "phones": [%s], "emails": [%s]},'
    ' "incident": {"category": "synthetic_identity", "date": "2026-10-02",'
    ' "description": "Loan taken with a borrowed BVN."}, "evidence": [%s]}'
)


@pytest.mark.parametrize(
    ("path", "content", "field"),
    [
        ("/v3/account/webhooks", '{"url": "https://hooks.example/a\\u0000b"}', "url"),
        ("/v3/account/webhooks", '{"url": "https://hooks.example/\\ud800"}', "url"),
        ("/v3/account/webhooks", '{"url": "https://hooks.example/\\udfff"}', "url"),
        (REPORTS, REPORT % ('"+2348031234567"', '"a\\u0000@b.ng"', ""), "subject.emails.0"),
        (REPORTS, REPORT % ('"+234803\\ud83d"', "", ""), "subject.phones.0"),
        (REPORTS, REPORT % ("", '"a@b.ng"', '"ok", "case\\u0000"'), "evidence.1"),
        (REPORTS, REPORT % ("", '"a@b.ng"', '"\\udc00case"'), "evidence.0"),
        (AML, '{"channel": "bvn", "number": "2221234567\\u0000"}', "number"),
        (AML, '{"channel": "bvn", "number": "22212345670", "last_name": "A\\ud800"}', "last_name"),
        (AML, '{"channel": "bvn", "number": "22212345670", "\\u0000": 1}', "body"),
    ],
)
async def test_a_nul_or_lone_surrogate_in_a_string_is_400_naming_the_field(
    client: httpx.AsyncClient,
    make_account: AccountFactory,
    path: str,
    content: str,
    field: str,
) -> None:
    account = await make_account("sandbox")
    headers = {**account.headers, "Content-Type": "application/json"}
    response = await client.post(path, content=content.encode(), headers=headers)
    body = assert_error(response, 400, "invalid_request")
    assert body["details"][0]["field"] == field, body
    assert re.search(r"NUL character|lone UTF-16 surrogate", body["message"]), body


async def test_a_nul_in_a_query_path_or_form_parameter_is_400_naming_it(
    client: httpx.AsyncClient, make_account: AccountFactory
) -> None:
    account = await make_account("sandbox")
    query = await client.get("/v3/fraud/reports?identifier=2221%00", headers=account.headers)
    assert assert_error(query, 400, "invalid_request")["details"][0]["field"] == "identifier"
    path = await client.get("/v3/fraud/reports/rep_%00", headers=account.headers)
    assert assert_error(path, 400, "invalid_request")["details"][0]["field"] == "report_id"
    form = await client.post(
        "/v3/fraud/face-scan",
        files={"image": ("a.jpg", b"not really a jpeg", "image/jpeg")},
        data={"identity_numbers": ["22212345670", "2221\x00"]},
        headers=account.headers,
    )
    error = assert_error(form, 400, "invalid_request")
    assert error["details"][0]["field"] == "identity_numbers.1"
    assert "NUL character" in error["message"]


async def test_a_valid_surrogate_pair_is_an_ordinary_character(
    client: httpx.AsyncClient, make_account: AccountFactory
) -> None:
    account = await make_account("sandbox")
    headers = {**account.headers, "Content-Type": "application/json"}
    content = b'{"channel": "bvn", "number": "22212345670", "first_name": "Ada \\ud83d\\ude00"}'
    response = await client.post(AML, content=content, headers=headers)
    assert response.status_code == 200, response.text


# 5. No redirect built from the Host header; a 405 names every method of its path.


async def test_a_trailing_slash_is_a_404_naming_the_path_not_a_redirect(
    client: httpx.AsyncClient, make_account: AccountFactory
) -> None:
    account = await make_account("sandbox")
    response = await client.get(
        "/v3/fraud/reports/", headers={**account.headers, "Host": "evil.example"}
    )
    body = assert_error(response, 404, "not_found")
    assert "location" not in response.headers
    assert "Did you mean /v3/fraud/reports?" in body["message"]
    missing = await client.get("/v3/nowhere/")
    assert "Did you mean" not in assert_error(missing, 404, "not_found")["message"]


@pytest.mark.parametrize(
    ("method", "path", "allowed"),
    [
        ("DELETE", "/v3/fraud/reports", {"GET", "POST"}),
        ("PUT", "/v3/fraud/reports", {"GET", "POST"}),
        ("GET", AML, {"POST"}),
        ("POST", "/v3/account/wallet", {"GET"}),
    ],
)
async def test_a_405_allows_every_method_of_its_path(
    client: httpx.AsyncClient, method: str, path: str, allowed: set[str]
) -> None:
    response = await client.request(method, path)
    assert_error(response, 405, "method_not_allowed")
    assert {m.strip() for m in response.headers["allow"].split(",")} == allowed


# 6. Health endpoints: no key, no rate limit.


async def test_health_endpoints_need_no_key(client: httpx.AsyncClient) -> None:
    alive = await client.get("/healthz")
    assert alive.status_code == 200 and alive.json() == {"status": "alive"}
    ready = await client.get("/readyz")
    assert ready.status_code == 200, ready.text
    body = ready.json()
    # Each configured provider's circuit breaker (the session's: both fakes; its breakers never
    # open, and other tests' outages may have counted failures).
    breakers = body.pop("providers")["identity"]
    assert {name: b["state"] for name, b in breakers.items()} == {
        "prembly": "closed",
        "smile_id": "closed",
    }
    assert body == {"status": "ready", "checks": {"database": "ok", "screening_lists": "ok"}}
    root = await client.get("/")
    assert root.status_code == 200 and root.json()["docs"] == "/docs"
    for response in (alive, ready, root):
        assert "ratelimit-limit" not in response.headers
        assert response.headers["x-request-id"].startswith("req_")


async def test_health_endpoints_are_not_rate_limited_even_with_a_key(
    client: httpx.AsyncClient, make_account: AccountFactory
) -> None:
    account = await make_account("sandbox")
    counted = await client.get("/v3/account/wallet", headers=account.headers)
    assert "ratelimit-limit" in counted.headers  # the key's calls are counted
    for path in ("/healthz", "/readyz", "/"):
        response = await client.get(path, headers=account.headers)
        assert response.status_code == 200
        assert "ratelimit-limit" not in response.headers, path


# 7. /docs and /redoc: local assets only; the OpenAPI document declares the bearer scheme.


async def test_openapi_declares_the_bearer_scheme_on_authenticated_operations(
    client: httpx.AsyncClient,
) -> None:
    spec = (await client.get("/openapi.json")).json()
    assert spec["components"]["securitySchemes"]["bearer"] == {
        "type": "http",
        "scheme": "bearer",
        "description": spec["components"]["securitySchemes"]["bearer"]["description"],
    }
    for path, methods in spec["paths"].items():
        for method, operation in methods.items():
            assert operation["security"] == [{"bearer": []}], (method, path)
            if "requestBody" in operation:
                assert {"413", "415"} <= set(operation["responses"]), (method, path)


@pytest.mark.parametrize("page", ["/docs", "/redoc"])
async def test_docs_pages_load_only_local_assets(client: httpx.AsyncClient, page: str) -> None:
    response = await client.get(page)
    assert response.status_code == 200
    html = response.text
    assert "cdn" not in html.lower() and "fonts.googleapis" not in html
    urls = set(re.findall(r"""(?:src|href)\s*=\s*["']([^"']+)["']""", html))
    urls |= set(re.findall(r"""(?:url|spec-url)\s*[:=]\s*["']([^"']+)["']""", html))
    assert urls, html
    for url in urls:
        assert url.startswith("/") and not url.startswith("//"), url
        asset = await client.get(url)
        assert asset.status_code == 200, url
        assert asset.content, url
    assert any(u.endswith(".js") for u in urls) and "/openapi.json" in urls
    for url in (u for u in urls if u.endswith((".js", ".css"))):
        # Nothing the scripts load comes from outside either: ReDoc's bundle drew its
        # side menu's logo from cdn.redoc.ly (issue 35).
        asset = (await client.get(url)).text
        assert "cdn." not in asset and "fonts.googleapis" not in asset, url
        for image in re.findall(r"""src:\s*["']([^"']+\.(?:svg|png))["']""", asset):
            assert image.startswith("/"), (url, image)
            assert (await client.get(image)).status_code == 200, image
