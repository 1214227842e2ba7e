"""Every 400 speaks the API's own words (issue 35): bad inputs derived from the OpenAPI
document (each body property and query parameter of the wrong type, out of its bounds, off its
format or its list of values; a field the request does not take; an empty body) are sent to
every operation with a sandbox key, and no answer quotes pydantic ("Input should be True",
"String should match pattern '^\\d{4}...'", "Field required", "Extra inputs are not
permitted"). Each 400 names its field and says what the field must be."""

from __future__ import annotations

import copy
import re
from typing import Any

import httpx
import pytest

from hakiki.app import create_app
from hakiki.core.errors import PATTERN_WORDS, plain_problem
from hakiki.core.scopes import ALL_SCOPES
from tests.conftest import AccountFactory

Spec = dict[str, Any]

PYDANTIC = re.compile(
    r"Input should|String should|List should|Dictionary should|Tuple should|Field required|"
    r"Extra inputs|Value error|Assertion failed|Unable to parse|should match pattern|"
    r"should have at (least|most)|greater than or equal|less than or equal|valid (integer|number|"
    r"boolean|string|dictionary|list)|Input is|URL input|Object has no attribute"
)


def _spec() -> Spec:
    spec: Spec = create_app().openapi()
    return spec


SPEC = _spec()


def _resolve(schema: dict[str, Any]) -> dict[str, Any]:
    while "$ref" in schema:
        schema = SPEC["components"]["schemas"][schema["$ref"].rsplit("/", 1)[-1]]
    return schema


def _variants(schema: dict[str, Any]) -> list[dict[str, Any]]:
    """The alternatives of a property's schema (``anyOf``: a type or null), resolved."""
    schema = _resolve(schema)
    options = schema.get("anyOf") or schema.get("oneOf") or [schema]
    return [_resolve(o) for o in options if o.get("type") != "null"]


def bad_values(schema: dict[str, Any]) -> list[Any]:
    """Values a property of this schema refuses: the wrong type, out of bounds, off format."""
    found: list[Any] = []
    for option in _variants(schema):
        kind = option.get("type")
        if "const" in option or "enum" in option:
            found.append("no-such-value")
        if kind == "string":
            found.append(12345)
            if "pattern" in option:
                found.append("!! not it !!")
            if "maxLength" in option:
                found.append("x" * (option["maxLength"] + 1))
            if option.get("minLength", 0) >= 1:
                found.append("")
        elif kind in ("integer", "number"):
            found.append("not a number")
            if "minimum" in option:
                found.append(option["minimum"] - 1)
            if "maximum" in option:
                found.append(option["maximum"] + 1)
        elif kind == "boolean":
            found.append("maybe")
        elif kind == "array":
            found.append("not a list")
            found.append([{"an": "object"}])
            if "maxItems" in option:
                found.append(["x"] * (option["maxItems"] + 1))
        elif kind == "object":
            found.append(7)
    return found


def _json_body(operation: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]] | None:
    """(a valid example, the properties) of a JSON body; None without one."""
    media = operation.get("requestBody", {}).get("content", {}).get("application/json")
    if media is None:
        return None
    schema = _resolve(media["schema"])
    examples = media.get("examples") or {}
    example = next(iter(examples.values()))["value"] if examples else None
    if example is None:
        example = (schema.get("examples") or [{}])[0]
    properties: dict[str, Any] = {}
    for option in schema.get("anyOf") or schema.get("oneOf") or [schema]:
        properties.update(_resolve(option).get("properties", {}))
    return example, properties


def _requests(path: str, method: str, operation: dict[str, Any]) -> list[dict[str, Any]]:
    """The bad requests of one operation, as keyword arguments of httpx's request."""
    url = re.sub(r"\{[^}]+\}", "x" * 300, path)  # a path parameter longer than any id
    out: list[dict[str, Any]] = [{"url": url}] if "{" in path else []
    url = re.sub(r"\{[^}]+\}", "nope", path)
    for parameter in operation.get("parameters", []):
        if parameter["in"] != "query":
            continue
        for value in bad_values(parameter.get("schema", {})):
            if not isinstance(value, list | dict):
                out.append({"url": url, "params": {parameter["name"]: str(value)}})
    body = _json_body(operation)
    if body is not None:
        example, properties = body
        out.append({"url": url, "json": {}})
        out.append({"url": url, "json": {**example, "not_a_field": 1}})
        out.append({"url": url, "json": [example]})
        out.append({"url": url, "content": b"{", "headers": {"Content-Type": "application/json"}})
        for name, schema in properties.items():
            for value in bad_values(schema):
                sent = copy.deepcopy(example)
                sent[name] = value
                out.append({"url": url, "json": sent})
    form = operation.get("requestBody", {}).get("content", {}).get("multipart/form-data")
    if form is not None:
        out.append({"url": url, "data": {"not_a_field": "1"}})
        for name, schema in _resolve(form["schema"]).get("properties", {}).items():
            if "contentMediaType" in schema or schema.get("format") == "binary":
                continue
            for value in bad_values(schema):
                if not isinstance(value, list | dict):
                    out.append({"url": url, "data": {name: str(value)}})
    return out


def _operations() -> list[Any]:
    return [
        pytest.param(path, method, operation, id=f"{method.upper()} {path}")
        for path, methods in SPEC["paths"].items()
        for method, operation in methods.items()
        if "400" in operation["responses"]
    ]


@pytest.mark.parametrize(("path", "method", "operation"), _operations())
async def test_no_400_speaks_pydantic(
    client: httpx.AsyncClient,
    make_account: AccountFactory,
    path: str,
    method: str,
    operation: dict[str, Any],
) -> None:
    headers = (await make_account("sandbox", scopes=list(ALL_SCOPES))).headers  # admin reads too
    leaks: list[str] = []
    refused = 0
    for request in _requests(path, method, operation):
        sent = {**request, "headers": {**headers, **request.get("headers", {})}}
        response = await client.request(method.upper(), **sent)
        if response.status_code != 400:
            continue
        refused += 1
        body = response.json()
        text = body["message"] + " " + " ".join(str(d) for d in body.get("details") or [])
        if PYDANTIC.search(text):
            leaks.append(f"{request}: {body['message']}")
        for detail in body.get("details") or []:
            assert detail.get("field") and detail.get("problem"), (request, body)
    assert not leaks, "\n".join(leaks[:20])
    takes_input = any(p["in"] == "query" for p in operation.get("parameters", []))
    assert refused or not (takes_input or "requestBody" in operation), "no bad input refused"


def test_every_pattern_of_the_document_has_words() -> None:
    patterns = set(re.findall(r'"pattern": "((?:[^"\\]|\\.)*)"', str(SPEC).replace("'", '"')))
    found: set[str] = set()

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            if isinstance(node.get("pattern"), str):
                found.add(node["pattern"])
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(SPEC)
    assert found, patterns
    assert found <= set(PATTERN_WORDS), found - set(PATTERN_WORDS)


@pytest.mark.parametrize(
    ("error", "words"),
    [
        ({"type": "literal_error", "ctx": {"expected": "True"}, "input": False}, "must be true"),
        (
            {
                "type": "string_pattern_mismatch",
                "ctx": {"pattern": r"^\d{4}(-\d{2}(-\d{2})?)?$"},
                "input": "17/05/1970",
            },
            "YYYY-MM-DD",
        ),
        ({"type": "extra_forbidden", "input": 1}, "is not a field of this request"),
        ({"type": "too_long", "ctx": {"max_length": 10}, "input": []}, "at most 10 items"),
        ({"type": "value_error", "msg": "Value error, an amount needs its currency"}, "an amount"),
    ],
)
def test_the_words_of_pydantic_s_errors(error: dict[str, Any], words: str) -> None:
    problem = plain_problem(error)
    assert words in problem and not PYDANTIC.search(problem)


def test_our_own_error_types_are_not_pydantic_s() -> None:
    """plain_problem words pydantic's error types and passes our own through: an error of ours
    named like one of pydantic's (``date_type``) would lose its words."""
    from pathlib import Path
    from typing import get_args

    from pydantic_core.core_schema import ErrorType

    pydantic_types = set(get_args(ErrorType))
    source = Path(__file__).resolve().parents[2] / "src" / "hakiki"
    ours = {
        name
        for path in source.rglob("*.py")
        for name in re.findall(r'PydanticCustomError\(\s*"([a-z_]+)"', path.read_text("utf-8"))
    }
    assert ours and not ours & pydantic_types, ours & pydantic_types
