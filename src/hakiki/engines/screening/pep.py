"""What a PEP hit says about the person's public positions: each position with its country and
dates, and whether the tenure has ended, as far as the list can tell."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from hakiki.engines.screening.model import ListEntity


def today_iso() -> str:
    return datetime.now(UTC).date().isoformat()


def pep_details(entity: ListEntity, today: str) -> dict[str, Any]:
    """The ``pep`` block of a hit on ``entity`` on the ISO date ``today``.

    ``tenure_ended`` overall: False when any position is still held, True when every position
    is known to have ended, None otherwise (no positions, or a tenure the list leaves open).
    """
    positions = [
        {
            "title": p.title,
            "country": p.country,
            "start_date": p.start_date,
            "end_date": p.end_date,
            "tenure_ended": p.tenure_ended(today),
        }
        for p in entity.positions
    ]
    ended = [p["tenure_ended"] for p in positions]
    overall: bool | None
    if any(flag is False for flag in ended):
        overall = False
    elif ended and all(flag is True for flag in ended):
        overall = True
    else:
        overall = None
    countries = list(
        dict.fromkeys([*(p["country"] for p in positions if p["country"]), *entity.countries])
    )
    return {"positions": positions, "countries": countries, "tenure_ended": overall}
