"""The OpenAPI success examples are the sandbox's answers now (issue 35): what
``python -m hakiki.devtools.capture_examples`` would write is the checked-in file, so an
example cannot drift from the sandbox. Captured through the session's app, the capture
script's own requests."""

from __future__ import annotations

import httpx

from hakiki.devtools import capture_examples


def test_the_checked_in_examples_are_what_the_sandbox_answers() -> None:
    """The script's own run (a fresh app on default settings: no live provider configured,
    as a new server has), once: it does not depend on the database backend."""
    checked_in = capture_examples.load()
    now = capture_examples.keep_volatile(capture_examples.capture(), checked_in)
    changed = sorted(k for k in now.keys() | checked_in.keys() if now.get(k) != checked_in.get(k))
    assert not changed, (
        f"the sandbox no longer answers these examples: {changed}; "
        "run python -m hakiki.devtools.capture_examples"
    )


async def test_the_openapi_document_shows_the_captured_examples(client: httpx.AsyncClient) -> None:
    spec = (await client.get("/openapi.json")).json()
    checked_in = capture_examples.load()
    operation = spec["paths"]["/v3/kyc/national-id"]["post"]
    assert (
        operation["responses"]["200"]["content"]["application/json"]["example"]
        == (checked_in["kyc.national_id"])
    )
    assert len(checked_in) >= 50


def test_a_capture_keeps_the_volatile_values_it_already_had() -> None:
    old = {"a": {"request_id": "req_1", "created_at": "then", "data": [{"id": "x", "n": 1}]}}
    new = {"a": {"request_id": "req_2", "created_at": "now", "data": [{"id": "y", "n": 2}]}}
    assert capture_examples.keep_volatile(new, old) == {
        "a": {"request_id": "req_1", "created_at": "then", "data": [{"id": "x", "n": 2}]}
    }
