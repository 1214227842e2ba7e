"""Generate the client's typed models and operations (src/hakiki_client/_generated.py) from
Hakiki's OpenAPI document: a TypedDict per schema of the document, and one method per operation
(sync and async) with its path parameters, query parameters, body and answer typed.

    uv run python clients/python/generate.py            # from the app in this repository
    python clients/python/generate.py openapi.json      # from a document saved from /openapi.json

tests/clients/test_generated.py regenerates from the app's current document and fails when the
checked-in file differs, so the client cannot drift from the API.
"""

from __future__ import annotations

import json
import keyword
import re
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
TARGET = HERE / "src" / "hakiki_client" / "_generated.py"
PREFIXES = ("v3", "api", "v1")

Schema = dict[str, Any]


def class_name(name: str) -> str:
    cleaned = re.sub(r"\W", "_", name)
    return cleaned if cleaned.isidentifier() else f"M_{cleaned}"


def _literal(values: list[Any]) -> str:
    # repr: True and None as Python writes them; strings in double quotes like the rest.
    shown = [json.dumps(v) if isinstance(v, str) else repr(v) for v in values]
    return "Literal[" + ", ".join(shown) + "]"


def py_type(schema: Schema) -> str:
    """The Python annotation of a JSON Schema (the subset FastAPI writes)."""
    if "$ref" in schema:
        return class_name(schema["$ref"].rsplit("/", 1)[-1])
    for key in ("anyOf", "oneOf"):
        if key in schema:
            options = list(dict.fromkeys(py_type(option) for option in schema[key]))
            return " | ".join(options)
    if "allOf" in schema and len(schema["allOf"]) == 1:
        return py_type(schema["allOf"][0])
    if "const" in schema:
        return _literal([schema["const"]])
    if "enum" in schema:
        return _literal(schema["enum"])
    kind = schema.get("type")
    if isinstance(kind, list):
        return " | ".join(py_type({**schema, "type": k}) for k in kind)
    if kind == "string":
        return "str"
    if kind == "integer":
        return "int"
    if kind == "number":
        return "float"
    if kind == "boolean":
        return "bool"
    if kind == "null":
        return "None"
    if kind == "array":
        return f"list[{py_type(schema['items'])}]" if "items" in schema else "list[Any]"
    if kind == "object":
        extra = schema.get("additionalProperties")
        if isinstance(extra, dict) and extra:
            return f"dict[str, {py_type(extra)}]"
        return "dict[str, Any]"
    return "Any"


def _typed_dict(name: str, schema: Schema) -> list[str]:
    properties: dict[str, Schema] = schema.get("properties", {})
    required = set(schema.get("required", []))
    fields = []
    for key, prop in properties.items():
        annotation = py_type(prop)
        fields.append((key, annotation if key in required else f"NotRequired[{annotation}]"))
    doc = (schema.get("description") or schema.get("title") or name).strip().splitlines()[0]
    if all(key.isidentifier() and not keyword.iskeyword(key) for key, _ in fields):
        lines = [f"class {name}(TypedDict):", f"    {_docstring(doc)}"]
        lines += [f"    {key}: {annotation}" for key, annotation in fields]
        return lines
    # A key that is no Python name: the functional form, its annotations as strings.
    body = ", ".join(f"{json.dumps(key)}: {json.dumps(annotation)}" for key, annotation in fields)
    return [f"{name} = TypedDict({json.dumps(name)}, {{{body}}})"]


def _docstring(text: str) -> str:
    text = text.replace("\\", "\\\\").replace('"""', "'''").strip()
    return f'"""{text}"""'


def method_name(method: str, path: str) -> str:
    parts = []
    for segment in path.strip("/").split("/"):
        if segment in PREFIXES and not parts:
            continue
        if segment.startswith("{"):
            parts.append("by_" + segment.strip("{}"))
        else:
            parts.append(re.sub(r"\W", "_", segment))
    return f"{method}_{'_'.join(parts)}"


def _answer(operation: Schema) -> str:
    for status, response in sorted(operation.get("responses", {}).items()):
        if not status.startswith("2"):
            continue
        if status == "204":
            return "None"
        schema = response.get("content", {}).get("application/json", {}).get("schema")
        return py_type(schema) if schema else "Any"
    return "Any"


def _operation(method: str, path: str, operation: Schema, asynchronous: bool) -> list[str]:
    name = method_name(method, path)
    positional: list[str] = []
    keywords: list[str] = []
    request = [repr(method.upper()), _path_expression(path)]
    query = []
    for parameter in operation.get("parameters", []):
        pname = parameter["name"]
        annotation = py_type(parameter.get("schema", {}))
        if parameter["in"] == "path":
            positional.append(f"{pname}: str")
        elif parameter["in"] == "query":
            identifier = pname if not keyword.iskeyword(pname) else pname + "_"
            if parameter.get("required"):
                keywords.append(f"{identifier}: {annotation}")
            else:
                keywords.append(f"{identifier}: {annotation} | None = None")
            query.append(f"{json.dumps(pname)}: {identifier}")
    content = operation.get("requestBody", {}).get("content", {})
    if "application/json" in content:
        body_type = py_type(content["application/json"].get("schema", {}))
        positional.append(f"body: {body_type}")
        request.append("json=body")
    elif "multipart/form-data" in content:
        positional.append("files: Mapping[str, Any]")
        keywords.insert(0, "data: Mapping[str, Any] | None = None")
        request += ["data=data", "files=files"]
    elif content:
        media_type = next(iter(content))
        positional.append("content: bytes | str")
        request += ["content=content", f"content_type={media_type!r}"]
    if query:
        request.append("params={" + ", ".join(query) + "}")
    if method == "post":
        keywords.append("idempotency_key: str | None = None")
        request.append("idempotency_key=idempotency_key")
    answer = _answer(operation)
    arguments = ", ".join(["self", *positional, *(["*", *keywords] if keywords else [])])
    summary = operation.get("summary") or name
    call = f"self._send(Request({', '.join(request)}))"
    if asynchronous:
        call = f"await {call}"
    returns = f"return cast({json.dumps(answer)}, {call})" if answer != "None" else f"{call}"
    prefix = "async def" if asynchronous else "def"
    return [
        f"    {prefix} {name}({arguments}) -> {answer}:",
        f"        {_docstring(f'{summary} ({method.upper()} {path}).')}",
        f"        {returns}",
        "",
    ]


def _path_expression(path: str) -> str:
    if "{" not in path:
        return repr(path)
    return "f" + repr(re.sub(r"\{(\w+)\}", r"{_segment(\1)}", path))


def generate(document: Schema) -> str:
    schemas: dict[str, Schema] = document.get("components", {}).get("schemas", {})
    lines = [
        '"""Generated by clients/python/generate.py from Hakiki\'s OpenAPI document '
        f"({document['info']['title']} {document['info']['version']}): do not edit; run",
        "`uv run python clients/python/generate.py` after changing the API (a test fails until",
        'this file is what the generator writes)."""',
        "",
        "# ruff: noqa",
        "from __future__ import annotations",
        "",
        "from collections.abc import Mapping",
        "from typing import Any, Literal, NotRequired, TypedDict, cast",
        "from urllib.parse import quote",
        "",
        "from hakiki_client._transport import Request",
        "",
        "",
        "def _segment(value: str) -> str:",
        '    return quote(str(value), safe="")',
        "",
        "",
    ]
    for name in sorted(schemas):
        lines += _typed_dict(class_name(name), schemas[name])
        lines += ["", ""]
    for asynchronous in (False, True):
        cls = "AsyncOperations" if asynchronous else "Operations"
        send = "async def _send" if asynchronous else "def _send"
        lines += [
            f"class {cls}:",
            f'    """Every operation of the API, {"awaited" if asynchronous else "called"} '
            'through ``_send``."""',
            "",
            f"    {send}(self, request: Request) -> Any:",
            "        raise NotImplementedError",
            "",
        ]
        for path, methods in document["paths"].items():
            for method, operation in methods.items():
                lines += _operation(method, path, operation, asynchronous)
        lines += [""]
    return "\n".join(lines).rstrip() + "\n"


def current_document() -> Schema:
    sys.path.insert(0, str(HERE.parents[1] / "src"))
    from hakiki.app import create_app

    document: Schema = create_app().openapi()
    return document


def main() -> None:
    if len(sys.argv) > 1:
        document = json.loads(Path(sys.argv[1]).read_text(encoding="utf-8"))
    else:
        document = current_document()
    TARGET.write_text(generate(document), encoding="utf-8")
    print(f"wrote {TARGET.relative_to(HERE)}")


if __name__ == "__main__":
    main()
