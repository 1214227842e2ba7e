"""The official lists Hakiki can download, where from, and how each is parsed.

The addresses are the publishers' own. ``HAKIKI_LISTS_SOURCES`` (JSON) overrides them per list,
e.g. ``{"eu_fsf": {"enabled": true, "files": {"xml": "https://...?token=..."}}}``, or defines a
new list in one of the supported formats (see docs/lists.md).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, BinaryIO

from pydantic import Field
from pydantic_settings import BaseSettings, SettingsConfigDict

from hakiki.engines.screening.model import ListSnapshot
from hakiki.engines.screening.parsers import (
    ListFormatError,
    parse_bis_dpl,
    parse_eu,
    parse_ftm_json,
    parse_ofac_consolidated_csv,
    parse_ofac_csv,
    parse_ofac_xml,
    parse_senzing_json,
    parse_targets_simple_csv,
    parse_uk_csv,
    parse_un_xml,
)

# The roles each format needs (first = required; the others are optional).
FORMAT_ROLES: dict[str, tuple[str, ...]] = {
    "ofac_csv": ("sdn", "alt", "add"),
    "ofac_consolidated_csv": ("prim", "alt", "add"),
    "ofac_xml": ("xml",),
    "un_xml": ("xml",),
    "uk_csv": ("csv",),
    "eu_xml": ("xml",),
    "eu_csv": ("csv",),
    "bis_dpl": ("txt",),
    # OpenSanctions exports (and anyone's in these formats), from a URL or a local path
    "ftm_json": ("json",),
    "senzing_json": ("json",),
    "targets_simple_csv": ("csv",),
}

_OFAC = "https://www.treasury.gov/ofac/downloads"


@dataclass(frozen=True, slots=True)
class ListSource:
    code: str
    title: str
    format: str
    files: dict[str, str]  # role -> URL
    checks: frozenset[str] = frozenset({"sanction"})
    enabled: bool = True
    headers: dict[str, str] = field(default_factory=dict)
    note: str = ""

    @property
    def source_url(self) -> str:
        return self.files[FORMAT_ROLES[self.format][0]]


DEFAULT_SOURCES: tuple[ListSource, ...] = (
    ListSource(
        code="us_ofac_sdn",
        title="OFAC Specially Designated Nationals (SDN) List",
        format="ofac_csv",
        files={"sdn": f"{_OFAC}/sdn.csv", "alt": f"{_OFAC}/alt.csv", "add": f"{_OFAC}/add.csv"},
    ),
    ListSource(
        code="us_ofac_consolidated",
        title="OFAC Consolidated (non-SDN) Sanctions List",
        format="ofac_consolidated_csv",
        files={
            "prim": f"{_OFAC}/consolidated/cons_prim.csv",
            "alt": f"{_OFAC}/consolidated/cons_alt.csv",
            "add": f"{_OFAC}/consolidated/cons_add.csv",
        },
    ),
    ListSource(
        code="un_sc_consolidated",
        title="UN Security Council Consolidated List",
        format="un_xml",
        files={"xml": "https://scsanctions.un.org/resources/xml/en/consolidated.xml"},
    ),
    ListSource(
        code="gb_fcdo_sanctions",
        title="UK Sanctions List (FCDO)",
        format="uk_csv",
        files={"csv": "https://sanctionslist.fcdo.gov.uk/docs/UK-Sanctions-List.csv"},
        enabled=False,
        note="The official UK list. Its parser follows the published column layout but has "
        "not been run on a real file yet: enable it and check the first update.",
    ),
    ListSource(
        code="gb_hmt_sanctions",
        title="UK OFSI Consolidated List of Financial Sanctions Targets",
        format="uk_csv",
        files={
            "csv": "https://ofsistorage.blob.core.windows.net/publishlive/2022format/ConList.csv"
        },
        enabled=False,
        note="OFSI retired the Consolidated List on 28 January 2026 in favour of the FCDO's "
        "UK Sanctions List (gb_fcdo_sanctions); enable only for a mirror of a ConList.csv.",
    ),
    ListSource(
        code="eu_fsf",
        title="EU Financial Sanctions Files (FSF) Consolidated List",
        format="eu_xml",
        files={
            "xml": "https://webgate.ec.europa.eu/fsd/fsf/public/files/xmlFullSanctionsList_1_1"
            "/content?token=CONFIGURE-ME"
        },
        enabled=False,
        note="The EU file needs a personal token: set its URL in HAKIKI_LISTS_SOURCES. For the "
        "CSV export set format eu_csv and a csv file (csvFullSanctionsList_1_1).",
    ),
)


class ListsConfig(BaseSettings):
    """``HAKIKI_LISTS_*`` environment variables."""

    model_config = SettingsConfigDict(env_prefix="HAKIKI_LISTS_", env_file=".env", extra="ignore")

    sources: dict[str, dict[str, Any]] = Field(
        default_factory=dict,
        description="JSON overrides per list code: enabled, files (role -> URL), title, checks, "
        "headers, format (for a new list).",
    )
    timeout_seconds: float = 60.0
    max_bytes: int = Field(
        default=2 * 1024**3,
        description="Largest file accepted, in bytes (2 GiB: an OpenSanctions collection of a "
        "million entities is several hundred megabytes).",
    )
    retries: int = Field(default=2, description="Extra attempts after a failed download.")
    retry_backoff_seconds: float = 2.0
    min_entity_ratio: float = Field(
        default=0.5,
        description="Refuse a new version with fewer entities than this share of the last one.",
    )
    max_warning_ratio: float = Field(
        default=0.1,
        description="Refuse a new version when more than this share of its records were unusable.",
    )


def configured_sources(config: ListsConfig) -> list[ListSource]:
    """The default sources with ``config.sources`` applied (enabled or not)."""
    by_code = {source.code: source for source in DEFAULT_SOURCES}
    for code, override in config.sources.items():
        base = by_code.get(code)
        if base is None:
            if "format" not in override or "files" not in override:
                raise ValueError(f"list source {code!r}: a new list needs 'format' and 'files'")
            base = ListSource(
                code=code, title=str(override.get("title", code)), format="", files={}
            )
        by_code[code] = _apply(base, override)
    return list(by_code.values())


def enabled_sources(config: ListsConfig) -> list[ListSource]:
    return [source for source in configured_sources(config) if source.enabled]


def _apply(base: ListSource, override: dict[str, Any]) -> ListSource:
    unknown = set(override) - {"enabled", "files", "title", "checks", "headers", "format"}
    if unknown:
        raise ValueError(f"list source {base.code!r}: unknown keys {sorted(unknown)}")
    fmt = str(override.get("format", base.format))
    # Changing a list's format (eu_xml -> eu_csv) drops the default files of the old one.
    kept = base.files if fmt == base.format else {}
    files = {**kept, **{str(k): str(v) for k, v in override.get("files", {}).items()}}
    source = replace(
        base,
        enabled=bool(override.get("enabled", base.enabled)),
        files={role: url for role, url in files.items() if url},
        title=str(override.get("title", base.title)),
        checks=frozenset(override.get("checks", base.checks)),
        headers={str(k): str(v) for k, v in override.get("headers", base.headers).items()},
        format=fmt,
    )
    roles = FORMAT_ROLES.get(source.format)
    if roles is None:
        raise ValueError(f"list source {source.code!r}: unknown format {source.format!r}")
    if roles[0] not in source.files:
        raise ValueError(f"list source {source.code!r}: needs a {roles[0]!r} file")
    extra = set(source.files) - set(roles)
    if extra:
        raise ValueError(f"list source {source.code!r}: unknown file roles {sorted(extra)}")
    return source


def parse_source(
    source: ListSource, files: dict[str, bytes], *, fallback_version: str
) -> ListSnapshot:
    """Parse downloaded files with the format's parser.

    Lists that carry their own publication date (UN, EU, UK) keep it as the version; the
    others (OFAC's CSV files have no date) get ``fallback_version``, the download date.
    """
    common: dict[str, Any] = {
        "code": source.code,
        "title": source.title,
        "source_url": source.source_url,
        "checks": source.checks,
    }
    fmt = source.format
    if fmt == "ofac_csv":
        return parse_ofac_csv(
            files["sdn"], files.get("alt"), files.get("add"), version=fallback_version, **common
        )
    if fmt == "ofac_consolidated_csv":
        return parse_ofac_consolidated_csv(
            files["prim"], files.get("alt"), files.get("add"), version=fallback_version, **common
        )
    if fmt == "un_xml":
        snapshot = parse_un_xml(files["xml"], **common)
    elif fmt == "uk_csv":
        snapshot = parse_uk_csv(files["csv"], **common)
    elif fmt in ("eu_xml", "eu_csv"):
        # Either EU export, told apart by content: a CSV address under "xml" still parses.
        snapshot = parse_eu(files["xml" if fmt == "eu_xml" else "csv"], **common)
    elif fmt == "ofac_xml":
        snapshot = parse_ofac_xml(files["xml"], **common)
    elif fmt == "bis_dpl":
        snapshot = parse_bis_dpl(files["txt"], version=fallback_version, **common)
    elif fmt == "ftm_json":
        snapshot = parse_ftm_json(files["json"], version=fallback_version, **common)
    elif fmt == "senzing_json":
        snapshot = parse_senzing_json(files["json"], version=fallback_version, **common)
    elif fmt == "targets_simple_csv":
        snapshot = parse_targets_simple_csv(files["csv"], version=fallback_version, **common)
    else:
        raise ListFormatError(f"unknown list format {fmt!r}")
    if not snapshot.version:
        snapshot = replace(snapshot, version=fallback_version)
    return snapshot


# Formats whose parsers read a binary file a line (or a row) at a time: a stored version of
# these is parsed from its gzip stream, never decompressed whole into memory (issue 33).
STREAMED_FORMATS: dict[str, str] = {
    "ftm_json": "json",
    "senzing_json": "json",
    "targets_simple_csv": "csv",
}


def parse_stream(source: ListSource, stream: BinaryIO, *, fallback_version: str) -> ListSnapshot:
    """:func:`parse_source` for a format of ``STREAMED_FORMATS``, its one file an open stream."""
    common: dict[str, Any] = {
        "code": source.code,
        "title": source.title,
        "source_url": source.source_url,
        "checks": source.checks,
        "version": fallback_version,
    }
    if source.format == "ftm_json":
        snapshot = parse_ftm_json(stream, **common)
    elif source.format == "senzing_json":
        snapshot = parse_senzing_json(stream, **common)
    elif source.format == "targets_simple_csv":
        snapshot = parse_targets_simple_csv(stream, **common)
    else:
        raise ListFormatError(f"list format {source.format!r} is not read as a stream")
    if not snapshot.version:
        snapshot = replace(snapshot, version=fallback_version)
    return snapshot
