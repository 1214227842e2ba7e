"""Phone numbers of Kenya, Uganda, Tanzania and Nigeria (and any +E.164): a pure library."""

from hakiki.engines.phone.analyse import SUPPORTED_REGIONS, PhoneAnalysis, analyse, lookup_key

__all__ = ["SUPPORTED_REGIONS", "PhoneAnalysis", "analyse", "lookup_key"]
