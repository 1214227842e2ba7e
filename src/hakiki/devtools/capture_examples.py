"""Capture the OpenAPI response examples from the sandbox (issue 35).

``python -m hakiki.devtools.capture_examples`` starts the app on a fresh SQLite folder, makes a
sandbox organisation and key, sends each operation's documented request (its body's first
request example, a named sandbox test value, or a GET that needs no input) and writes the answers
to ``src/hakiki/openapi_examples.json``, which ``hakiki.app`` shows as each operation's success
example. ``--check`` writes nothing and fails when the file differs from what the sandbox
answers now (CI runs it: tests/test_captured_examples.py), so the examples cannot drift.

Values that differ between two runs (ids, references, times: ``VOLATILE``) are kept from the
file when it holds them, so a capture changes nothing but what the sandbox really changed.
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import json
import re
import sys
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx

from hakiki.account import service as accounts
from hakiki.app import create_app
from hakiki.core.endpoints import CATALOGUE, Endpoint, TestValue
from hakiki.core.migrate import upgrade
from hakiki.core.scopes import ALL_SCOPES
from hakiki.core.settings import Settings

EXAMPLES_FILE = Path(__file__).resolve().parent.parent / "openapi_examples.json"

# Keys whose values differ between two runs of the same request (and every ``*_at`` time).
VOLATILE = frozenset(
    {
        "request_id",
        "consent_id",
        "reference",
        "id",
        "bulk_id",
        "analysis_id",
        "model_id",
        "product_id",
        "url",  # a verification session's one-time link: a new token each time
        "subject_key",
        "results_file",
        "invitation_url",
        "reviewer",  # the capturing key's client id
        "transaction_id",
        "published",  # the sandbox's lists are dated today
    }
)


@dataclass(frozen=True)
class Recipe:
    """How to ask for one operation's example: a named sandbox test value (``test_value``: the
    start of its description), or a GET of ``after``'s reference (``path`` formats it)."""

    test_value: str | None = None
    after: str | None = None


# Operations whose request is not their body's first request example. The reads of jobs whose
# state moves on its own (a bulk scan, a statement analysis, a background request: its timeline
# gains the invitation e-mail's entry when the timer runs), a reinitiate and a recorded check
# keep the examples of their models (core.envelope.example).
RECIPES: dict[str, Recipe] = {
    "statements.analyze": Recipe(test_value="a genuine M-Pesa statement"),
    "verification.sessions.read": Recipe(after="verification.sessions.create"),
    "fraud.face_scan": Recipe(test_value="first number ends in 7"),
    "fraud.bulk_scan.upload": Recipe(test_value="an ID scan of sandbox BVNs"),
    "screening.watchlist.upload": Recipe(test_value="a watchlist CSV"),
    "credit.models.train": Recipe(test_value="a loan book of three loans"),
    # Only the trained ones: the three-loan book's job may or may not have failed it by then.
    "credit.models": Recipe(test_value="only the trained models"),
    "kyc.status": Recipe(after="kyc.national_id"),
    "kyb.status": Recipe(after="kyb.business"),
    "tax.status": Recipe(after="tax.pin"),
    "vehicle.status": Recipe(after="vehicle.verify"),
    "fraud.report_read": Recipe(after="fraud.report"),
}


def _request_for(value: TestValue) -> dict[str, Any]:
    request: dict[str, Any] = {}
    if value.body is not None:
        request["json"] = dict(value.body)
    if value.query is not None:
        request["params"] = dict(value.query)
    if value.multipart is not None:
        request["data"] = dict(value.multipart.fields)
        request["files"] = {
            name: (
                part["filename"],
                base64.b64decode(part["content_base64"], validate=True),
                part["content_type"],
            )
            for name, part in value.multipart.files.items()
        }
    if value.content is not None:
        request["content"] = value.content.text.encode()
        request["headers"] = {"Content-Type": value.content.content_type}
    return request


def _first_request_example(spec: dict[str, Any], endpoint: Endpoint) -> Any:
    operation = spec["paths"][endpoint.path][endpoint.method.lower()]
    media = operation.get("requestBody", {}).get("content", {}).get("application/json")
    if media is None:
        return None
    schema = media.get("schema", {})
    while "$ref" in schema:
        schema = spec["components"]["schemas"][schema["$ref"].rsplit("/", 1)[-1]]
    found = schema.get("examples") or [v["value"] for v in media.get("examples", {}).values()]
    return found[0] if found else None


def capture() -> dict[str, Any]:
    """Every operation's captured success answer, by catalogue key."""
    with tempfile.TemporaryDirectory(prefix="hakiki-examples-") as folder:
        settings = Settings(
            data_dir=Path(folder), secret_key="capture-examples-" + "0" * 32, database_url=None
        )
        upgrade(settings)
        return asyncio.run(_capture_app(settings))


async def _capture_app(settings: Settings) -> dict[str, Any]:
    app = create_app(settings)
    async with app.router.lifespan_context(app):
        db = app.state.runtime.db
        org = await accounts.create_org(db, "examples", approved=True, currency="KES")
        # Every scope: the account:admin reads (the audit log) are documented too.
        key = await accounts.create_key(db, org.name, "sandbox", list(ALL_SCOPES))
        headers = {"Authorization": f"Bearer {key.client_id}:{key.secret}"}
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://hakiki") as client:
            spec = (await client.get("/openapi.json")).json()
            return await capture_with(client, headers, spec)


async def capture_with(
    client: httpx.AsyncClient, headers: dict[str, str], spec: dict[str, Any]
) -> dict[str, Any]:
    """The answers to every operation's documented request, sent with ``headers`` (a fresh
    sandbox organisation's key) through ``client``."""
    captured: dict[str, Any] = {}
    ordered = sorted(CATALOGUE.values(), key=lambda e: RECIPES.get(e.key, Recipe()).after or "")
    for endpoint in ordered:
        recipe = RECIPES.get(endpoint.key, Recipe())
        request: dict[str, Any] | None = None
        path = endpoint.path
        if recipe.test_value is not None:
            value = next(
                v for v in endpoint.test_values() if v.description.startswith(recipe.test_value)
            )
            request = _request_for(value)
        elif recipe.after is not None:
            path = re.sub(r"\{\w+\}", captured[recipe.after]["reference"], path)
            request = {}
        elif endpoint.has_path_parameter:
            pass
        elif endpoint.method == "GET":
            request = {}
        elif endpoint.method == "POST":
            body = _first_request_example(spec, endpoint)
            if body is not None and endpoint.test_values():
                request = {"json": body}
        if request is None:
            continue
        sent = {**headers, **request.pop("headers", {})}
        response = await client.request(endpoint.method, path, headers=sent, **request)
        if response.status_code != endpoint.status_code:
            raise SystemExit(
                f"{endpoint.key}: {response.status_code} {response.text[:300]} "
                "(a documented request must succeed in the sandbox)"
            )
        captured[endpoint.key] = response.json()
    return dict(sorted(captured.items()))


def _volatile(key: str) -> bool:
    return key in VOLATILE or key.endswith("_at")


def keep_volatile(new: Any, old: Any) -> Any:
    """``new`` with each ``VOLATILE`` value taken from ``old`` where ``old`` has it."""
    if isinstance(new, dict) and isinstance(old, dict):
        return {
            k: (old[k] if _volatile(k) and k in old else keep_volatile(v, old.get(k)))
            for k, v in new.items()
        }
    if isinstance(new, list) and isinstance(old, list) and len(new) == len(old):
        return [keep_volatile(a, b) for a, b in zip(new, old, strict=True)]
    return new


def render(examples: dict[str, Any]) -> str:
    return json.dumps(examples, indent=2, ensure_ascii=False) + "\n"


def load(path: Path = EXAMPLES_FILE) -> dict[str, Any]:
    if not path.exists():
        return {}
    loaded: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return loaded


def main(argv: list[str] | None = None, out: Callable[[str], object] = print) -> int:
    parser = argparse.ArgumentParser(prog="python -m hakiki.devtools.capture_examples")
    parser.add_argument("--check", action="store_true", help="fail when the file would change")
    parser.add_argument("--file", type=Path, default=EXAMPLES_FILE)
    args = parser.parse_args(argv)
    old = load(args.file)
    new = keep_volatile(capture(), old)
    text = render(new)
    if args.check:
        if args.file.exists() and args.file.read_text(encoding="utf-8") == text:
            out(f"{args.file}: {len(new)} examples, as the sandbox answers them")
            return 0
        changed = sorted(k for k in new.keys() | old.keys() if new.get(k) != old.get(k))
        out(
            f"{args.file} differs from the sandbox's answers ({', '.join(changed)}): "
            "run python -m hakiki.devtools.capture_examples"
        )
        return 1
    args.file.write_text(text, encoding="utf-8")
    out(f"{args.file}: {len(new)} examples written")
    return 0


if __name__ == "__main__":
    sys.exit(main())
