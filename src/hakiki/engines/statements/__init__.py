"""Statement analysis: mobile-money and bank statements (PDF, CSV, XLSX) read by versioned
layouts, their cash-flow metrics and score, and tamper signals each with its evidence. A pure
library: bytes in, an ``Analysis`` out."""

from hakiki.engines.statements.analyse import ENGINE_VERSION, analyse, precheck
from hakiki.engines.statements.model import (
    Analysis,
    Declared,
    Refused,
    Signal,
    Statement,
    Transaction,
)

__all__ = [
    "ENGINE_VERSION",
    "Analysis",
    "Declared",
    "Refused",
    "Signal",
    "Statement",
    "Transaction",
    "analyse",
    "precheck",
]
