"""Finding the examples in README.md and docs/*.md, and matching a real output against the one
a document shows. The rules are in tests/docs/test_examples.py's docstring."""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
DOCUMENTS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]

SHELL = {"bash", "sh", "shell"}
OUTPUT = {"json", "text"}
ELLIPSIS = "..."
# A command runs `curl` or `hakiki` (directly, through `uv run`, after a pipe or `&&`).
COMMAND = re.compile(r"(?m)(?:^|[|;&]|\$\()\s*(?:uv\s+run\s+(?:--frozen\s+)?)?(?:curl|hakiki)\b")
MARKER = re.compile(r"^\s*<!--\s*example:\s*(.*?)\s*-->\s*$")
FENCE = re.compile(r"^(\s*)```(\S*)\s*$")
# Setup commands are not run: the test's environment already has what they install.
SETUP = re.compile(r"(?m)^\s*(?:pip|pip3|apt-get|apt)\s+install\b[^&\n]*(?:&&\s*|$)")

# Keys whose values change on every call or deployment: compared by type only. (A `reference`
# is not one: sandbox references are fixed, the others are shown as `scr_...`.)
VOLATILE = frozenset(
    {
        "request_id", "id", "bulk_id", "transaction_id", "reversal_transaction_id",
        "subject_key", "results_file", "created_at", "updated_at", "started_at", "completed_at",
        "occurred_at", "fetched_at", "delivered_at", "last_attempt_at", "attempted_at",
        "previous_secret_expires_at", "latency_ms",
    }
)  # fmt: skip


@dataclass(frozen=True)
class Block:
    """One fenced block of a document."""

    path: Path
    line: int  # of the opening fence, 1-based
    lang: str
    text: str
    marker: str | None  # the `<!-- example: ... -->` comment right before it

    @property
    def where(self) -> str:
        return f"{self.path.relative_to(ROOT)}:{self.line}"

    @property
    def is_example(self) -> bool:
        return self.lang in SHELL and bool(COMMAND.search(self.text))

    @property
    def not_run(self) -> str | None:
        """The reason given for not running this block, if it has one."""
        if self.marker and self.marker.startswith("not run"):
            return self.marker.removeprefix("not run").lstrip(":, ") or None
        return None


@dataclass(frozen=True)
class Example:
    block: Block
    output: Block | None  # the output the document shows for it


def blocks(path: Path) -> list[Block]:
    lines = path.read_text(encoding="utf-8").splitlines()
    found: list[Block] = []
    index = 0
    while index < len(lines):
        opening = FENCE.match(lines[index])
        if not opening:
            index += 1
            continue
        indent, lang = opening.groups()
        marker = None
        before = index - 1
        while before >= 0 and not lines[before].strip():
            before -= 1
        if before >= 0 and (match := MARKER.match(lines[before])):
            marker = match.group(1)
        end = index + 1
        while end < len(lines) and lines[end].strip() != "```":
            end += 1
        body = [line.removeprefix(indent) for line in lines[index + 1 : end]]
        found.append(Block(path, index + 1, lang.lower(), "\n".join(body) + "\n", marker))
        index = end + 1
    return found


def examples(paths: list[Path] = DOCUMENTS) -> tuple[list[Example], list[Block]]:
    """The examples with their outputs, and the output blocks that belong to no example."""
    found: list[Example] = []
    orphans: list[Block] = []
    for path in paths:
        previous: Block | None = None
        for block in blocks(path):
            if block.lang in OUTPUT:
                paired = previous is not None and previous.is_example and not found[-1].output
                if paired and block.marker is None:
                    found[-1] = Example(found[-1].block, block)
                else:
                    orphans.append(block)
            elif block.is_example:
                found.append(Example(block, None))
            previous = block
    return found, orphans


def setup_stripped(script: str) -> str:
    return SETUP.sub("", script)


# ---- outputs -------------------------------------------------------------------------------


def _quote_bare_ellipses(text: str) -> str:
    """`[...]` and `{"a": 1, ...}` are abridgements, not JSON: read a bare ... as "..." (as
    `"...": "..."` where an object expects a key)."""
    out: list[str] = []
    stack: list[str] = []
    last = ""  # the last character outside strings that is not a space
    in_string = escaped = False
    index = 0
    while index < len(text):
        char = text[index]
        if in_string:
            out.append(char)
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
                last = '"'
            index += 1
            continue
        if text.startswith(ELLIPSIS, index):
            key = bool(stack) and stack[-1] == "{" and last in "{,"
            out.append('"...": "..."' if key else '"..."')
            last = '"'
            index += len(ELLIPSIS)
            continue
        if char == '"':
            in_string = True
        elif char in "{[":
            stack.append(char)
        elif char in "}]" and stack:
            stack.pop()
        if not char.isspace():
            last = char
        out.append(char)
        index += 1
    return "".join(out)


def json_documents(text: str) -> list[Any]:
    """Every JSON document in ``text`` (curl prints them back to back, `hakiki` one a line)."""
    decoder = json.JSONDecoder()
    documents: list[Any] = []
    index = 0
    while True:
        while index < len(text) and text[index].isspace():
            index += 1
        if index == len(text):
            return documents
        document, index = decoder.raw_decode(text, index)
        documents.append(document)


def shown_json(text: str) -> list[Any]:
    return json_documents(_quote_bare_ellipses(text.replace("…", ELLIPSIS)))


class Mismatch(AssertionError):
    pass


def _is_ellipsis(value: Any) -> bool:
    return value == ELLIPSIS


def match(shown: Any, real: Any, where: str = "$", key: str | None = None) -> None:
    """Raise `Mismatch` unless ``real`` is what ``shown`` (a document's output) says."""
    if _is_ellipsis(shown):
        return
    if key in VOLATILE:  # the type only
        if type(shown) is not type(real):
            raise Mismatch(f"{where}: expected a {type(shown).__name__}, got {real!r}")
        return
    if isinstance(shown, str) and ELLIPSIS in shown:
        pattern = ".*".join(re.escape(part) for part in shown.split(ELLIPSIS))
        if not isinstance(real, str) or not re.fullmatch(pattern, real, re.DOTALL):
            raise Mismatch(f"{where}: expected {shown!r}, got {real!r}")
        return
    if isinstance(shown, dict):
        if not isinstance(real, dict):
            raise Mismatch(f"{where}: expected an object, got {real!r}")
        for name, value in shown.items():
            if name == ELLIPSIS:
                continue
            if name not in real:
                raise Mismatch(f"{where}: no {name!r} in {sorted(real)}")
            match(value, real[name], f"{where}.{name}", name)
        return
    if isinstance(shown, list):
        if not isinstance(real, list):
            raise Mismatch(f"{where}: expected a list, got {real!r}")
        if not _match_sequence(shown, real, where):
            raise Mismatch(f"{where}: expected {shown!r}, got {real!r}")
        return
    if isinstance(shown, float) or isinstance(real, float):
        numbers = all(isinstance(v, int | float) and not isinstance(v, bool) for v in (shown, real))
        if not numbers or not math.isclose(shown, real, rel_tol=1e-9, abs_tol=1e-12):
            raise Mismatch(f"{where}: expected {shown!r}, got {real!r}")
        return
    if type(shown) is not type(real) or shown != real:
        raise Mismatch(f"{where}: expected {shown!r}, got {real!r}")


def _match_sequence(shown: list[Any], real: list[Any], where: str) -> bool:
    """Items in order; a "..." item stands for any number of items."""
    if not shown:
        return not real
    head, rest = shown[0], shown[1:]
    if _is_ellipsis(head):
        return any(_match_sequence(rest, real[skip:], where) for skip in range(len(real) + 1))
    if not real:
        return False
    try:
        match(head, real[0], where + "[]")
    except Mismatch:
        return False
    return _match_sequence(rest, real[1:], where)


def match_json(shown_text: str, stdout: str) -> None:
    shown = shown_json(shown_text)
    try:
        real = json_documents(stdout)
    except json.JSONDecodeError as error:
        raise Mismatch(f"the output is not JSON ({error}): {stdout[:500]!r}") from None
    if len(real) != len(shown):
        raise Mismatch(f"{len(shown)} JSON document(s) shown, {len(real)} printed: {stdout!r}")
    for number, (expected, got) in enumerate(zip(shown, real, strict=True)):
        match(expected, got, f"${number}" if len(shown) > 1 else "$")


def match_text(shown_text: str, stdout: str) -> None:
    """Line by line; "..." inside a line stands for any text, a line of "..." for any lines."""
    shown = [line.rstrip() for line in shown_text.strip("\n").splitlines()]
    real = [line.rstrip() for line in stdout.strip("\n").splitlines()]
    if not _match_sequence(shown, real, "$"):
        raise Mismatch(f"expected lines {shown!r}, got {real!r}")
