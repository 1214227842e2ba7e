"""The list snapshots shipped inside the package (see data/SOURCES.md and data/manifest.json)."""

from __future__ import annotations

import gzip
import hashlib
import json
from dataclasses import dataclass
from importlib import resources
from typing import Any

from hakiki.engines.screening.model import ListSnapshot
from hakiki.engines.screening.parsers.ofac_csv import parse_ofac_csv
from hakiki.engines.screening.parsers.un_xml import parse_un_xml

_DATA = "hakiki.engines.screening.data"


class BundledDataError(RuntimeError):
    """A bundled file is missing or does not match its recorded checksum."""


@dataclass(frozen=True, slots=True)
class BundledList:
    code: str
    title: str
    version: str
    source_url: str
    format: str
    checks: frozenset[str]
    files: dict[str, dict[str, Any]]


def read_manifest() -> list[BundledList]:
    raw = json.loads(resources.files(_DATA).joinpath("manifest.json").read_text("utf-8"))
    return [
        BundledList(
            code=item["code"],
            title=item["title"],
            version=item["version"],
            source_url=item["source_url"],
            format=item["format"],
            checks=frozenset(item["checks"]),
            files={f["role"]: f for f in item["files"]},
        )
        for item in raw["lists"]
    ]


def _read_verified(meta: dict[str, Any]) -> bytes:
    path = resources.files(_DATA).joinpath(meta["path"])
    try:
        data = gzip.decompress(path.read_bytes())
    except (OSError, EOFError) as exc:
        raise BundledDataError(f"bundled file {meta['path']} unreadable: {exc}") from exc
    digest = hashlib.sha256(data).hexdigest()
    if digest != meta["sha256"]:
        raise BundledDataError(
            f"bundled file {meta['path']}: sha256 {digest} does not match manifest {meta['sha256']}"
        )
    return data


def load_bundled_snapshot(item: BundledList) -> ListSnapshot:
    if item.format == "ofac_csv":
        alt = item.files.get("alt")
        add = item.files.get("add")
        return parse_ofac_csv(
            _read_verified(item.files["sdn"]),
            _read_verified(alt) if alt else None,
            _read_verified(add) if add else None,
            version=item.version,
            code=item.code,
            title=item.title,
            source_url=item.source_url,
            checks=item.checks,
        )
    if item.format == "un_xml":
        return parse_un_xml(
            _read_verified(item.files["xml"]),
            code=item.code,
            title=item.title,
            source_url=item.source_url,
            checks=item.checks,
            version=item.version,
        )
    raise BundledDataError(f"unknown bundled list format {item.format!r}")


def load_bundled_snapshots() -> list[ListSnapshot]:
    """Parse every bundled list after checking each file against its manifest checksum."""
    return [load_bundled_snapshot(item) for item in read_manifest()]
