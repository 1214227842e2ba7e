"""The client cannot drift from the API: its typed models and operations, generated from the
OpenAPI document, are regenerated here from the app's current document and must equal the
checked-in file (run `uv run python clients/python/generate.py` after changing the API)."""

from __future__ import annotations

import importlib.util
import typing
from pathlib import Path

from hakiki.app import create_app

CLIENT = Path(__file__).resolve().parents[2] / "clients" / "python"


def _generator() -> typing.Any:
    spec = importlib.util.spec_from_file_location("hakiki_client_generate", CLIENT / "generate.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_checked_in_client_is_what_the_current_document_generates() -> None:
    generator = _generator()
    document = create_app().openapi()
    written = (CLIENT / "src" / "hakiki_client" / "_generated.py").read_text(encoding="utf-8")
    assert written == generator.generate(document), (
        "clients/python is out of date: run `uv run python clients/python/generate.py`"
    )


def test_every_operation_and_schema_has_its_typed_counterpart() -> None:
    from hakiki_client import AsyncHakiki, Hakiki, models

    generator = _generator()
    document = create_app().openapi()
    for path, methods in document["paths"].items():
        for method in methods:
            name = generator.method_name(method, path)
            assert callable(getattr(Hakiki, name)), name
            assert callable(getattr(AsyncHakiki, name)), name
    for name, schema in document["components"]["schemas"].items():
        model = getattr(models, generator.class_name(name))
        # Postponed annotations: strings (ForwardRefs in TypedDict's own bookkeeping).
        annotations = {
            k: getattr(v, "__forward_arg__", v) for k, v in model.__annotations__.items()
        }
        assert set(annotations) == set(schema.get("properties", {})), name
        required = {k for k, v in annotations.items() if not str(v).startswith("NotRequired[")}
        assert required == set(schema.get("required", [])), name
