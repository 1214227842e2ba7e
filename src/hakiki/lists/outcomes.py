"""Honest screening outcomes, shared by the API and ``hakiki screen``: each list screened with
its publication date, age and staleness; per requested check ``clear``, ``hits`` or
``not_performed`` (with why); and the overall status, ``CLEAR`` only when every requested check
ran and found nothing (docs/decisions.md, "Honest screening outcomes").

Light on imports on purpose: ``hakiki screen`` uses it without the database or the web stack.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Literal

from hakiki.engines.screening.results import ListVersion

if TYPE_CHECKING:
    from hakiki.core.settings import Settings
    from hakiki.engines.screening.engine import ScreeningEngine
    from hakiki.lists.loading import LoadedList

CheckOutcome = Literal["clear", "hits", "not_performed"]
Status = Literal["CLEAR", "POTENTIAL_MATCH", "INCOMPLETE"]

STALE_FATAL_SETTING = "HAKIKI_LIST_STALE_FATAL"


def utcnow() -> datetime:
    """``core.clock.utcnow`` without importing SQLAlchemy (which ``core.clock`` does for its
    column type): ``hakiki screen`` starts without it."""
    return datetime.now(UTC)


_MISSING_REASONS = {
    "adverse_media": "No adverse-media source is configured on this server.",
    "watchlist": "Your organisation has no ready watchlist in this environment "
    "(POST /v3/screening/watchlists).",
}


def missing_reason(check: str) -> str:
    """Why ``check`` was not performed when no list serves it."""
    return _MISSING_REASONS.get(check, f"No {check} list is loaded on this server.")


def age_days(date_text: str | None) -> int | None:
    """Whole days since a list version's date (ISO date or datetime), None when unknown."""
    when = _parse(date_text)
    if when is None:
        return None
    today = utcnow()
    when = when if when.tzinfo else when.replace(tzinfo=today.tzinfo)
    return max(0, (today - when).days)


def _parse(date_text: str | None) -> datetime | None:
    if not date_text:
        return None
    try:
        return datetime.fromisoformat(date_text)
    except ValueError:
        return None


def is_stale(info: LoadedList, settings: Settings) -> bool:
    age = age_days(info.date)
    return age is not None and age > settings.list_max_age_days


@dataclass(frozen=True, slots=True)
class DatedList:
    """A list screened, with its publication date, its age in days and whether it is stale."""

    code: str
    title: str
    version: str
    checks: tuple[str, ...]
    published: str | None  # ISO date; None when the list carries no date (unknown age)
    age_days: int | None
    stale: bool
    licence: str | None = None  # as the operator declared it

    def to_dict(self) -> dict[str, object]:
        return {
            "code": self.code,
            "title": self.title,
            "version": self.version,
            "checks": list(self.checks),
            "licence": self.licence,
            "published": self.published,
            "age_days": self.age_days,
            "stale": self.stale,
        }


@dataclass(frozen=True, slots=True)
class ListDates:
    """Each list's date (by code) and the operator's staleness rules: what dates a result."""

    dates: Mapping[str, str | None]
    max_age_days: int
    stale_fatal: bool = False

    @classmethod
    def of_engine(cls, engine: ScreeningEngine, settings: Settings) -> ListDates:
        """The dates of the lists an engine holds (``LoadedList.date``)."""
        from hakiki.lists.loading import describe_engine

        return cls(
            {info.code: info.date for info in describe_engine(engine)},
            settings.list_max_age_days,
            settings.list_stale_fatal,
        )

    @classmethod
    def current(cls, codes: Iterable[str], settings: Settings) -> ListDates:
        """Lists that are current by construction (the sandbox's): dated today."""
        today = utcnow().date().isoformat()
        return cls(
            {code: today for code in codes}, settings.list_max_age_days, settings.list_stale_fatal
        )

    def dated(self, version: ListVersion) -> DatedList:
        when = self.dates.get(version.code, version.version)
        parsed = _parse(when)
        age = age_days(when)
        return DatedList(
            code=version.code,
            title=version.title,
            version=version.version,
            checks=tuple(version.checks),
            published=parsed.date().isoformat() if parsed else None,
            age_days=age,
            stale=age is not None and age > self.max_age_days,
            licence=version.licence,
        )

    def stale_gaps(self, checks: Iterable[str], lists: Iterable[DatedList]) -> dict[str, str]:
        """When the operator made staleness fatal: each requested check served by a stale list,
        and why it is not performed. Empty otherwise."""
        if not self.stale_fatal:
            return {}
        gaps: dict[str, str] = {}
        stale = [lst for lst in lists if lst.stale]
        for check in checks:
            old = [lst for lst in stale if check in lst.checks]
            if old:
                named = ", ".join(
                    f"{lst.code} (published {lst.published}, {lst.age_days} days)" for lst in old
                )
                gaps[check] = (
                    f"A {check} list is older than {self.max_age_days} days: {named}; this "
                    f"server treats stale lists as unusable ({STALE_FATAL_SETTING}). Update the "
                    "lists (`hakiki lists update`)."
                )
        return gaps


@dataclass(frozen=True, slots=True)
class Outcome:
    """One requested check: what came of it."""

    check: str
    outcome: CheckOutcome
    reason: str | None = None
    lists: tuple[str, ...] = field(default_factory=tuple)

    def to_dict(self) -> dict[str, object]:
        return {
            "check": self.check,
            "outcome": self.outcome,
            "reason": self.reason,
            "lists": list(self.lists),
        }


def check_outcomes(
    checks: Sequence[str],
    hit_checks: Iterable[str],
    not_performed: Mapping[str, str],
    lists: Iterable[tuple[str, Iterable[str]]],
) -> list[Outcome]:
    """Per requested check (in order, once): ``not_performed`` with its reason, else ``hits``
    when a hit is of that check, else ``clear``. ``lists``: (code, checks) of each list used."""
    hit = set(hit_checks)
    used = [(code, set(served)) for code, served in lists]
    outcomes: list[Outcome] = []
    for check in dict.fromkeys(checks):
        codes = tuple(code for code, served in used if check in served)
        if check in not_performed:
            outcomes.append(Outcome(check, "not_performed", not_performed[check], codes))
        else:
            outcomes.append(Outcome(check, "hits" if check in hit else "clear", None, codes))
    return outcomes


def overall_status(outcomes: Iterable[Outcome]) -> Status:
    """POTENTIAL_MATCH when anything hit; else CLEAR only when every check ran; else
    INCOMPLETE (never CLEAR with a check not performed)."""
    seen = list(outcomes)
    if any(o.outcome == "hits" for o in seen):
        return "POTENTIAL_MATCH"
    if all(o.outcome == "clear" for o in seen):
        return "CLEAR"
    return "INCOMPLETE"


def performed_count(outcomes: Iterable[Outcome]) -> int:
    return sum(1 for o in outcomes if o.outcome != "not_performed")
