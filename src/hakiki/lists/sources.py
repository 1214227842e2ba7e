"""The official lists Hakiki can download, where from, and how each is parsed.

The addresses are the publishers' own. ``HAKIKI_LISTS_SOURCES`` (JSON) overrides them per list,
e.g. ``{"eu_fsf": {"enabled": true, "files": {"xml": "https://...?token=..."}}}``, or defines a
new list in one of the supported formats (see docs/lists.md).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, BinaryIO

from pydantic import Field
from pydantic_settings import BaseSettings, SettingsConfigDict

from hakiki.engines.screening.countries import to_country_code
from hakiki.engines.screening.model import ListSnapshot
from hakiki.engines.screening.parsers import (
    ListFormatError,
    parse_bis_dpl,
    parse_eu,
    parse_ftm_json,
    parse_ofac_consolidated_csv,
    parse_ofac_csv,
    parse_ofac_xml,
    parse_pep_csv,
    parse_popolo_json,
    parse_senzing_json,
    parse_targets_simple_csv,
    parse_uk_csv,
    parse_un_xml,
)
from hakiki.engines.screening.parsers.common import parse_iso_date
from hakiki.lists.published import DATED_BY_PARSER, published_date

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
    # PEP lists: EveryPolitician (Popolo JSON) and a simple PEP CSV (docs/lists.md)
    "popolo_json": ("json",),
    "pep_csv": ("csv",),
}
# Formats whose entities name their checks (OpenSanctions topics): no checks given -> those.
TOPIC_FORMATS = frozenset({"ftm_json", "senzing_json"})
# Formats whose lists are PEP lists unless the operator says otherwise.
PEP_FORMATS = frozenset({"popolo_json", "pep_csv"})

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
    licence: str = ""  # as the operator declares it (shown in status and in every answer)
    published: str | None = None  # the publication date the operator states (ISO date)
    country: str | None = None  # the country of a list whose file names none (Popolo)

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
        "headers, format (for a new list), licence, published, country.",
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


_CODE = re.compile(r"^[a-z][a-z0-9_]{1,63}$")


def file_source(
    code: str,
    path: Path,
    *,
    format: str,
    title: str | None = None,
    checks: Iterable[str] = (),
    licence: str = "",
    published: str | None = None,
    country: str | None = None,
) -> ListSource:
    """A list the operator loads from a file on this machine (``hakiki lists load``).

    Raises ValueError naming what is wrong: an unknown format, a bad code, a missing file, a
    publication date that is not an ISO date. Without ``checks``, OpenSanctions FtM and
    Senzing lists take theirs from the entities' topics (``role.pep``, ``sanction``), PEP
    formats are ``pep`` lists and the others ``sanction`` lists."""
    if format not in FORMAT_ROLES:
        raise ValueError(f"unknown format {format!r}; one of {', '.join(sorted(FORMAT_ROLES))}")
    if not _CODE.match(code):
        raise ValueError(
            f"list code {code!r}: use 2 to 64 lowercase letters, digits and _ (e.g. ke_peps)"
        )
    if not path.is_file():
        raise ValueError(f"{path}: no such file")
    if published is not None and parse_iso_date(published) != published:
        raise ValueError(f"published {published!r}: give the date as YYYY-MM-DD")
    where = to_country_code(country) if country else None
    if country and where is None:
        raise ValueError(f"country {country!r}: give an ISO code such as KE")
    chosen = frozenset(checks)
    if not chosen and format not in TOPIC_FORMATS:  # the others' checks come from topics
        chosen = frozenset({"pep" if format in PEP_FORMATS else "sanction"})
    unknown = chosen - {"pep", "sanction"}
    if unknown:
        raise ValueError(f"checks {sorted(unknown)}: each check is pep or sanction")
    return ListSource(
        code=code,
        title=title or code,
        format=format,
        files={FORMAT_ROLES[format][0]: str(path.resolve())},
        checks=chosen,
        enabled=False,  # `hakiki lists update` leaves it alone; load it again to replace it
        licence=licence,
        published=published,
        country=where,
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
    known = {"enabled", "files", "title", "checks", "headers", "format"}
    unknown = set(override) - known - {"licence", "published", "country"}
    if unknown:
        raise ValueError(f"list source {base.code!r}: unknown keys {sorted(unknown)}")
    fmt = str(override.get("format", base.format))
    # Changing a list's format (eu_xml -> eu_csv) drops the default files of the old one.
    kept = base.files if fmt == base.format else {}
    files = {**kept, **{str(k): str(v) for k, v in override.get("files", {}).items()}}
    default_checks = {"pep"} if fmt in PEP_FORMATS and not base.format else base.checks
    source = replace(
        base,
        enabled=bool(override.get("enabled", base.enabled)),
        files={role: url for role, url in files.items() if url},
        title=str(override.get("title", base.title)),
        checks=frozenset(override.get("checks", default_checks)),
        headers={str(k): str(v) for k, v in override.get("headers", base.headers).items()},
        format=fmt,
        licence=str(override.get("licence", base.licence)),
        published=override.get("published", base.published),
        country=override.get("country", base.country),
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
    """Parse downloaded files with the format's parser, with the publisher's date inside the
    files as ``published`` (``lists/published.py``).

    A version is that date when the files carry one (UN, EU, UK, OFAC XML, BIS, OpenSanctions'
    ``last_change``); the others (OFAC's CSV files have no date) get ``fallback_version``, an
    identifier of the file set that says nothing of its age (``undated_version``).
    """
    common: dict[str, Any] = {
        "code": source.code,
        "title": source.title,
        "source_url": source.source_url,
        "checks": source.checks,
    }
    if not source.checks and source.format in TOPIC_FORMATS:
        common["checks"] = None  # from the entities' topics
    fmt = source.format
    if fmt == "ofac_csv":
        snapshot = parse_ofac_csv(
            files["sdn"], files.get("alt"), files.get("add"), version=fallback_version, **common
        )
    elif fmt == "ofac_consolidated_csv":
        snapshot = parse_ofac_consolidated_csv(
            files["prim"], files.get("alt"), files.get("add"), version=fallback_version, **common
        )
    elif fmt == "un_xml":
        snapshot = parse_un_xml(files["xml"], **common)
    elif fmt == "uk_csv":
        snapshot = parse_uk_csv(files["csv"], **common)
    elif fmt in ("eu_xml", "eu_csv"):
        # Either EU export, told apart by content: a CSV address under "xml" still parses.
        snapshot = parse_eu(files["xml" if fmt == "eu_xml" else "csv"], **common)
    elif fmt == "ofac_xml":
        snapshot = parse_ofac_xml(files["xml"], **common)
    elif fmt == "bis_dpl":
        snapshot = parse_bis_dpl(files["txt"], **common)  # the newest Last_Update
    elif fmt == "ftm_json":
        snapshot = parse_ftm_json(files["json"], version=fallback_version, **common)
    elif fmt == "senzing_json":
        snapshot = parse_senzing_json(files["json"], version=fallback_version, **common)
    elif fmt == "targets_simple_csv":
        snapshot = parse_targets_simple_csv(files["csv"], version=fallback_version, **common)
    elif fmt == "popolo_json":
        snapshot = parse_popolo_json(
            files["json"], version=fallback_version, country=source.country, **common
        )
    elif fmt == "pep_csv":
        snapshot = parse_pep_csv(
            files["csv"], version=fallback_version, country=source.country, **common
        )
    else:
        raise ListFormatError(f"unknown list format {fmt!r}")
    if not snapshot.version:
        snapshot = replace(snapshot, version=fallback_version)
    return dated(source, snapshot, published_date(fmt, files, snapshot))


def dated(source: ListSource, snapshot: ListSnapshot, found: str | None) -> ListSnapshot:
    """The operator's licence and the list's date: the one the operator states, else the one
    found inside the files; a list dated so takes that date as its version (never the download
    day). A list whose entities name no check, and the operator none, is refused."""
    if not snapshot.checks:
        raise ListFormatError(
            "no check: the file's entities name no topic (role.pep, sanction); give the "
            "list's checks (hakiki lists load --checks pep)"
        )
    published = source.published or found or snapshot.published
    if published and source.format not in DATED_BY_PARSER:
        snapshot = replace(snapshot, version=published)
    return replace(snapshot, published=published, licence=source.licence or None)


def undated_version(digest: str) -> str:
    """The version of a file set that carries no date: ``sha256-`` and the first 12 hex digits
    of its digest (``store.files_digest``). Never a date: a download day is not the list's."""
    return f"sha256-{digest[:12]}"


# Formats whose parsers read a binary file a line (or a row) at a time: a stored version of
# these is parsed from its gzip stream, never decompressed whole into memory (issue 33).
STREAMED_FORMATS: dict[str, str] = {
    "ftm_json": "json",
    "senzing_json": "json",
    "targets_simple_csv": "csv",
}


def parse_stream(source: ListSource, stream: BinaryIO, *, fallback_version: str) -> ListSnapshot:
    """:func:`parse_source` for a format of ``STREAMED_FORMATS``, its one file an open stream
    (their parsers read the newest ``last_change`` as they go: the date inside the file)."""
    common: dict[str, Any] = {
        "code": source.code,
        "title": source.title,
        "source_url": source.source_url,
        "checks": source.checks,
        "version": fallback_version,
    }
    if not source.checks and source.format in TOPIC_FORMATS:
        common["checks"] = None  # from the entities' topics, as parse_source reads them
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
    return dated(source, snapshot, None)
