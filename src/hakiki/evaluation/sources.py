"""Where the 360 engine's figures come from besides the request: the operator's reference files
(read once at start), and hooks for the bureau reports and statement analyses other categories
own. A hook left unset makes a request that names such a reference a 503 channel_unavailable."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from hakiki.core.auth import Principal
from hakiki.core.settings import Settings
from hakiki.engines.evaluation.reference import (
    ClimateNorm,
    PriceVolatility,
    ReferenceFileError,
    load_climate,
    load_wfp_prices,
)
from hakiki.evaluation.schemas import BureauIn, CashFlowIn


class BureauReports(Protocol):
    """Resolves ``bureau_reference`` to the report's figures (the credit category, once wired);
    None when the organisation has no such report."""

    async def figures(self, principal: Principal, reference: str) -> BureauIn | None: ...


class StatementAnalyses(Protocol):
    """Resolves ``statement_analysis_id`` to cash-flow figures (the statements category,
    ``statement_analyses.py``); may raise the 404 or 409 itself."""

    async def cash_flow(self, principal: Principal, analysis_id: str) -> CashFlowIn | None: ...


class ClimateFeed(Protocol):
    """A live feed of this season's conditions for an area (rainfall so far, NDVI)."""

    async def current(
        self, country: str, area: str, season: str
    ) -> tuple[float | None, float | None, str, str | None]:
        """(season rainfall mm, NDVI, source, as_of)."""
        ...


@dataclass
class EvaluationSources:
    climate: dict[tuple[str, str, str], ClimateNorm]
    climate_file: str | None
    prices: dict[tuple[str, str], PriceVolatility]
    prices_file: str | None
    bureau: BureauReports | None = None
    statements: StatementAnalyses | None = None
    feed: ClimateFeed | None = None

    @classmethod
    def from_settings(cls, settings: Settings) -> EvaluationSources:
        climate_path, prices_path = settings.evaluation_climate_csv, settings.evaluation_prices_csv
        return cls(
            climate=load_climate(_read(climate_path)) if climate_path else {},
            climate_file=climate_path.name if climate_path else None,
            prices=load_wfp_prices(_read(prices_path)) if prices_path else {},
            prices_file=prices_path.name if prices_path else None,
        )


def _read(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError) as exc:
        raise ReferenceFileError(f"{path}: {exc}") from exc
