"""Free-text addresses of Kenya, Uganda, Tanzania and Nigeria against a bundled gazetteer."""

from hakiki.engines.address.parse import (
    COUNTRIES,
    AddressAnalysis,
    GpsCheck,
    Place,
    check_gps,
    parse_address,
)

__all__ = ["COUNTRIES", "AddressAnalysis", "GpsCheck", "Place", "check_gps", "parse_address"]
