"""HTTP handlers of the Credit category (thin: the work is in bureau.py and decision.py)."""

from __future__ import annotations

from hakiki.core.calls import Call
from hakiki.core.routing import EndpointRouter
from hakiki.credit import bureau, decision
from hakiki.credit.endpoints import BUREAU, DECISION
from hakiki.credit.schemas import BureauRequest, BureauResult, DecisionRequest, DecisionResult

router = EndpointRouter(tags=["Credit"])


@router.endpoint(BUREAU, response_model=BureauResult)
async def credit_bureau(body: BureauRequest, call: Call) -> bytes:
    """Pulls the applicant's credit report from the country's bureau (KE: Metropol by national
    ID, passport, alien ID or company registration; NG: FirstCentral by BVN or NIN) and answers
    it in one schema whatever the bureau: accounts (lender type, performing or not, balance,
    arrears, days past due), enquiries and bounced cheques by period, legal cases, the fraud
    flag, the bureau's own score, and which bureau answered and when. `consent: true` is
    required (else 400). The report is kept encrypted under `reference` for
    POST /v3/credit/decision. Live: one charge when the bureau answered (found or not found);
    503 `channel_unavailable` and no charge when no bureau is configured. Sandbox: the
    number's last digit picks the file (3 thin, 4 delinquent, 6 non-performing, 5 not found)."""
    return await bureau.pull(call, body)


@router.endpoint(DECISION, response_model=DecisionResult)
async def credit_decision(body: DecisionRequest, call: Call) -> bytes:
    """Decides a loan application with a trained, versioned scorecard (German Credit data,
    monotonic binning and logistic regression, 300-850; docs/credit-model.md): `score`, `band`,
    `decision` (approve, refer, decline) at the server's or the request's cut-offs, up to four
    `reasons` (points lost per variable against its best bin), the model version and its
    holdout AUC and KS. Inputs: the loan, declared income, obligations and employment, a bureau
    report by `bureau_reference` (404 if not your organisation's) or a `bureau` summary,
    statement metrics, and fraud and AML `signals` (a sanctions hit or confirmed fraud
    declines). Never age, sex, marital status, nationality, tribe or religion. One charge per
    live decision; sandbox runs the same engine, free."""
    return await decision.decide(call, body)
