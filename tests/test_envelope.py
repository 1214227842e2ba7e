"""One result envelope (issue 35): every operation that answers a result documents the
envelope's fields in the OpenAPI document, with one schema each, the category's payload in
``data``; the answers themselves are checked at every sandbox test value's replay
(tests/support/replay.py, tests/core/test_sandbox_test_values.py) and at every captured example
(below)."""

from __future__ import annotations

from typing import Any

import httpx

from hakiki import api  # noqa: F401  (declaring the routers' endpoints fills the catalogue)
from hakiki.core.endpoints import CATALOGUE
from hakiki.devtools.capture_examples import load
from tests.support.envelope import FIELDS, RESOURCES, envelope_problems, enveloped

Spec = dict[str, Any]
JOBS = (
    "fraud.bulk_scan.upload",
    "fraud.bulk_scan",
    "statements.analyze",
    "statements.read",
    "background.candidates.create",
    "background.candidates.read",
    "background.candidates.reinitiate",
    "background.checks.record",
    "verification.sessions.create",
    "verification.sessions.read",
    "screening.monitored_subjects.create",
    "screening.monitored_subjects.read",
)


def _resolve(spec: Spec, schema: dict[str, Any]) -> dict[str, Any]:
    while "$ref" in schema:
        schema = spec["components"]["schemas"][schema["$ref"].rsplit("/", 1)[-1]]
    return schema


def _success_schema(spec: Spec, key: str) -> dict[str, Any] | None:
    endpoint = CATALOGUE[key]
    operation = spec["paths"][endpoint.path][endpoint.method.lower()]
    response = operation["responses"].get(str(endpoint.status_code), {})
    media = response.get("content", {}).get("application/json")
    return None if media is None else _resolve(spec, media["schema"])


async def test_every_result_operation_documents_the_envelope(client: httpx.AsyncClient) -> None:
    spec = (await client.get("/openapi.json")).json()
    problems: list[str] = []
    shared: dict[str, Any] = {}
    walked = 0
    for key, endpoint in CATALOGUE.items():
        schema = _success_schema(spec, key)
        if schema is None:
            continue  # a 204
        has = set(FIELDS) <= set(schema.get("properties", {}))
        if not enveloped(endpoint):
            if has:
                problems.append(f"{key} answers the envelope: take it out of RESOURCES")
            continue
        walked += 1
        if not has or not set(FIELDS) <= set(schema.get("required", [])):
            problems.append(f"{key}: the envelope's fields are not all required properties")
            continue
        if list(schema["properties"])[: len(FIELDS)] != list(FIELDS):
            problems.append(f"{key}: the envelope's fields are not first, in their order")
        for name in FIELDS:
            if name == "data":
                continue
            field = _resolve(spec, schema["properties"][name])
            field = {k: v for k, v in field.items() if k != "title"}
            if name == "billing":  # KYC, tax and vehicle add the refund's reversal
                field = {"required": field.get("required")}
            if shared.setdefault(name, field) != field:
                problems.append(f"{key}: {name} is documented differently")
        data = _resolve(spec, schema["properties"]["data"])
        models = [_resolve(spec, m) for m in data.get("anyOf", data.get("oneOf", [data]))]
        if not all(m.get("type") == "object" and m.get("properties") for m in models):
            problems.append(f"{key}: data is not the category's payload model")
    assert walked >= 30
    assert not problems, "\n".join(problems)


def test_the_resource_list_names_real_operations() -> None:
    assert set(CATALOGUE) >= RESOURCES


def test_every_job_answers_the_envelope() -> None:
    """Bulk scans, statements, background requests, verification sessions and monitoring
    enrolments are results, their reads included (issue 35); only their lists are
    resources."""
    assert [key for key in JOBS if not enveloped(CATALOGUE[key])] == []


def test_every_captured_result_example_is_the_envelope() -> None:
    """The success examples the OpenAPI document shows (captured from the sandbox)."""
    examples = load()
    problems = [
        f"{key}: {problem}"
        for key, example in examples.items()
        if enveloped(CATALOGUE[key])
        for problem in envelope_problems(example)
    ]
    assert len([k for k in examples if enveloped(CATALOGUE[k])]) >= 30
    assert not problems, "\n".join(problems)
