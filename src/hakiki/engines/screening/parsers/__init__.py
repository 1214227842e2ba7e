"""One parser per list format; each returns a :class:`~..model.ListSnapshot`."""

from hakiki.engines.screening.parsers.bis_dpl import parse_bis_dpl
from hakiki.engines.screening.parsers.eu_csv import parse_eu, parse_eu_csv
from hakiki.engines.screening.parsers.eu_xml import parse_eu_xml
from hakiki.engines.screening.parsers.ftm_json import parse_ftm_json
from hakiki.engines.screening.parsers.ofac_consolidated_csv import parse_ofac_consolidated_csv
from hakiki.engines.screening.parsers.ofac_csv import parse_ofac_csv
from hakiki.engines.screening.parsers.ofac_xml import parse_ofac_xml
from hakiki.engines.screening.parsers.pep_csv import parse_pep_csv
from hakiki.engines.screening.parsers.popolo_json import parse_popolo_json
from hakiki.engines.screening.parsers.senzing_json import parse_senzing_json
from hakiki.engines.screening.parsers.targets_simple_csv import parse_targets_simple_csv
from hakiki.engines.screening.parsers.text import ListFormatError
from hakiki.engines.screening.parsers.uk_csv import parse_uk_csv
from hakiki.engines.screening.parsers.uk_sanctions_list import parse_uk_sanctions_list_rows
from hakiki.engines.screening.parsers.un_xml import parse_un_xml
from hakiki.engines.screening.parsers.watchlist_csv import parse_watchlist_csv

__all__ = [
    "ListFormatError",
    "parse_bis_dpl",
    "parse_eu",
    "parse_eu_csv",
    "parse_eu_xml",
    "parse_ftm_json",
    "parse_ofac_consolidated_csv",
    "parse_ofac_csv",
    "parse_ofac_xml",
    "parse_pep_csv",
    "parse_popolo_json",
    "parse_senzing_json",
    "parse_targets_simple_csv",
    "parse_uk_csv",
    "parse_uk_sanctions_list_rows",
    "parse_un_xml",
    "parse_watchlist_csv",
]
