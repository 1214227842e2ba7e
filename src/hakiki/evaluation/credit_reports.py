"""The bureau hook of the 360 engine over the credit category's stored reports: a
``bureau_reference`` from ``POST /v3/credit/bureau`` resolves to the figures the CRB component
scores, for the organisation and environment that pulled it only."""

from __future__ import annotations

from datetime import date

from hakiki.core.auth import Principal
from hakiki.core.crypto import Vault
from hakiki.core.database import Database
from hakiki.credit.reports import stored_report
from hakiki.credit.schemas import CreditReport
from hakiki.evaluation.schemas import BureauIn


class CreditBureauReports:
    def __init__(self, db: Database, vault: Vault) -> None:
        self._db = db
        self._vault = vault

    async def figures(self, principal: Principal, reference: str) -> BureauIn | None:
        report = await stored_report(self._db, self._vault, principal, reference)
        return None if report is None else figures_of(report)


def figures_of(report: CreditReport) -> BureauIn:
    """What the CRB component reads from a normalised report. The normalised schema has no
    written-off status, so ``written_off_accounts`` stays unknown rather than guessed as 0."""
    retrieved = report.retrieved_at.date()
    opened = [account.opened_on for account in report.accounts if account.opened_on]
    return BureauIn(
        max_days_past_due=report.summary.max_days_past_due,
        non_performing_accounts=report.summary.non_performing_accounts,
        months_of_history=_months_between(min(opened), retrieved) if opened else 0,
        enquiries_90_days=report.enquiries.last_3_months,
        bureau=report.bureau_name,
        report_date=retrieved,
    )


def _months_between(start: date, end: date) -> int:
    months = (end.year - start.year) * 12 + end.month - start.month
    return max(0, months - (end.day < start.day))
