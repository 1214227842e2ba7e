"""Sanctions screening engine: a pure library (no HTTP, no database).

Lists are parsed into one entity model (:mod:`.model`) by one parser per format
(:mod:`.parsers`), indexed in memory (:mod:`.index`), and scored with explanations
(:mod:`.scorer`). :class:`ScreeningEngine` ties them together; :func:`default_engine` builds one
from the list snapshots bundled in ``data/``.
"""

from hakiki.engines.screening.bundled import load_bundled_snapshots
from hakiki.engines.screening.compare import NameComparison, PartComparison, compare_names
from hakiki.engines.screening.engine import ScreeningEngine, default_engine
from hakiki.engines.screening.model import ListEntity, ListSnapshot, NameEntry
from hakiki.engines.screening.parsers import parse_ofac_csv, parse_un_xml
from hakiki.engines.screening.results import Hit, ListVersion, ScreeningResult
from hakiki.engines.screening.subject import Subject

__all__ = [
    "Hit",
    "ListEntity",
    "ListSnapshot",
    "ListVersion",
    "NameComparison",
    "NameEntry",
    "PartComparison",
    "ScreeningEngine",
    "ScreeningResult",
    "Subject",
    "compare_names",
    "default_engine",
    "load_bundled_snapshots",
    "parse_ofac_csv",
    "parse_un_xml",
]
