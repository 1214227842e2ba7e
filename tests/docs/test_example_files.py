"""The sample files of examples/ (issue 35): every file a documented command reads is in
examples/ (or written by an earlier example on the same page), so the commands run as pasted
from the repository's root; the generated files are what scripts/make_examples.py writes, and
the copies are their sources'."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

from tests.docs.examples import ROOT, examples

EXAMPLES_DIR = ROOT / "examples"
# What a command reads: curl's @file, base64's file, a redirected stdin, the CLI's file
# arguments (hakiki lists load FILE, hakiki media ingest ... FILES).
READS = re.compile(
    r"""(?:=@|--data-binary\s+@|base64\s+(?:-w0\s+)?|<\s+|lists\s+load\s+|"\s+)"""
    r"""((?:\./)?[\w./*-]+\.(?:jpg|jpeg|png|pdf|csv|xlsx|jsonl|json|xml))"""
)
WRITES = re.compile(r">\s*([\w./-]+\.\w+)")


def test_every_file_a_command_reads_is_shipped_or_written_first() -> None:
    problems = []
    written: dict[Path, set[str]] = {}
    for example in examples()[0]:
        block = example.block
        if block.marker is not None and block.marker != "server":
            continue  # not run: it says why (the operator's own files)
        made = written.setdefault(block.path, set())
        made.update(WRITES.findall(block.text))  # a block may write what it then reads
        for name in READS.findall(block.text):
            if name in made:
                continue
            if not name.startswith("examples/"):
                problems.append(f"{block.where}: {name} is not in examples/")
            elif not list(ROOT.glob(name)):
                problems.append(f"{block.where}: {name} is not in the repository")
    assert not problems, "\n".join(problems)


def test_the_docs_use_the_sample_files() -> None:
    text = "\n".join(
        p.read_text(encoding="utf-8") for p in [ROOT / "README.md", *(ROOT / "docs").glob("*.md")]
    )
    for name in ("mpesa-statement.pdf", "id-card.jpg", "passport.jpg", "selfie.jpg"):
        assert f"examples/{name}" in text, name
    assert "examples/applicants.csv" in text


def _make_examples() -> object:
    spec = importlib.util.spec_from_file_location(
        "make_examples", ROOT / "scripts/make_examples.py"
    )
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_generated_files_are_what_the_script_writes() -> None:
    module = _make_examples()
    assert (EXAMPLES_DIR / "id-card.jpg").read_bytes() == module.id_card()  # type: ignore[attr-defined]


def test_the_copies_are_their_sources() -> None:
    sources = {
        "mpesa-statement.pdf": "src/hakiki/statements/sandbox_data/mpesa-genuine.pdf",
        "selfie.jpg": "src/hakiki/fraud/sandbox_data/face.jpg",
        "passport.jpg": "tests/data/documents/pe-passport-td3.jpg",
        "feeds/east_africa_rss.xml": "tests/engines/adverse_media/data/east_africa_rss.xml",
        "feeds/atom_feed.xml": "tests/engines/adverse_media/data/atom_feed.xml",
    }
    for name, source in sources.items():
        assert (EXAMPLES_DIR / name).read_bytes() == (ROOT / source).read_bytes(), name
    listed = (EXAMPLES_DIR / "README.md").read_text(encoding="utf-8")
    for path in EXAMPLES_DIR.rglob("*"):
        if path.is_file() and path.name != "README.md":
            shown = path.relative_to(EXAMPLES_DIR).as_posix()
            assert f"`{shown}`" in listed or f"`{path.parent.name}/*.xml`" in listed, shown
