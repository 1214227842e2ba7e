"""From the accounts a bureau lists to the normalised report's summary."""

from __future__ import annotations

from datetime import datetime

from hakiki.credit.schemas import (
    BureauAccount,
    CreditReport,
    LenderSummary,
    PeriodCounts,
    ReportSummary,
)


def assemble(
    *,
    bureau: str,
    bureau_name: str,
    country: str,
    currency: str,
    retrieved_at: datetime,
    bureau_reference: str | None,
    bureau_score: int | None,
    accounts: list[BureauAccount],
    lenders: list[LenderSummary] | None,
    enquiries: PeriodCounts,
    bounced_cheques: PeriodCounts,
    legal_cases: int | None,
    fraud_flag: bool,
) -> CreditReport:
    """The report, its summary counted from ``accounts``; ``lenders`` too when the bureau
    does not summarise them itself."""
    if lenders is None:
        by_type: dict[str, list[int]] = {}
        for account in accounts:
            pair = by_type.setdefault(account.lender_type, [0, 0])
            pair[account.performance == "non_performing"] += 1
        lenders = [
            LenderSummary(lender_type=kind, performing=p, non_performing=n)  # type: ignore[arg-type]
            for kind, (p, n) in sorted(by_type.items())
        ]
    summary = ReportSummary(
        accounts=len(accounts),
        open_accounts=sum(a.status == "open" for a in accounts),
        performing_accounts=sum(a.performance == "performing" for a in accounts),
        non_performing_accounts=sum(a.performance == "non_performing" for a in accounts),
        total_balance=sum(a.balance or 0 for a in accounts),
        total_arrears=sum(a.arrears for a in accounts),
        max_days_past_due=max((a.days_past_due for a in accounts), default=0),
    )
    return CreditReport(
        bureau=bureau,
        bureau_name=bureau_name,
        country_code=country,  # type: ignore[arg-type]
        retrieved_at=retrieved_at,
        bureau_reference=bureau_reference,
        currency=currency,
        file="thin" if not accounts else "established",
        bureau_score=bureau_score,
        summary=summary,
        lenders=lenders,
        accounts=accounts,
        enquiries=enquiries,
        bounced_cheques=bounced_cheques,
        legal_cases=legal_cases,
        fraud_flag=fraud_flag,
    )
