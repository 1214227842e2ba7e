"""One parser per list format; each returns a :class:`~..model.ListSnapshot`."""

from hakiki.engines.screening.parsers.ofac_csv import parse_ofac_csv
from hakiki.engines.screening.parsers.un_xml import parse_un_xml

__all__ = ["parse_ofac_csv", "parse_un_xml"]
