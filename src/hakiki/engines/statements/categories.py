"""Categories and counterparties from a transaction's Details text (M-Pesa, Airtel Money and
bank narrations)."""

from __future__ import annotations

import re

# Names matched as whole words ("tala" is not in "Natalia"); a bare "branch" names a bank's
# branch far more often than the lender ("GTBank OAU Branch"), so only the lender's full names.
LENDERS: dict[str, tuple[str, ...]] = {
    "Fuliza": ("fuliza", "overdraft of credit party", "od loan repayment", "overdraw"),
    "M-Shwari": ("m-shwari loan", "mshwari loan"),
    "KCB M-Pesa": ("kcb m-pesa loan", "kcb mpesa loan"),
    "Tala": ("tala",),
    "Branch": ("branch microfinance", "branch international"),
    "Zenka": ("zenka",),
    "Timiza": ("timiza",),
    "OKash": ("okash",),
    "Hustler Fund": ("hustler fund",),
    "Zash": ("zash",),
    "Airtel Wewole": ("wewole",),
    "MoKash": ("mokash",),
}
_LENDER_OF = {word: lender for lender, words in LENDERS.items() for word in words}
_LENDER_ORDER = {lender: rank for rank, lender in enumerate(LENDERS)}
_LENDER_NAMES = re.compile(r"\b(?:" + "|".join(re.escape(w) for w in _LENDER_OF) + r")\b")
# Moves between M-Pesa and the savings accounts beside it (M-Shwari, M-Shwari Lock, KCB M-PESA):
# the customer's own money, neither income nor a loan ("M-Shwari Withdraw", "KCB M-PESA
# Deposit"); their loans say "Loan".
_SAVINGS = re.compile(r"\b(?:m-?shwari|kcb m-?pesa)\b(?!.*\bloan\b)")
BETTING = (
    "sportpesa",
    "betika",
    "odibets",
    "mozzart",
    "betway",
    "shabiki",
    "betin",
    "22bet",
    "1xbet",
    "helabet",
    "kwikbet",
    "betlion",
    "gal sport",
    "sportybet",
    "bangbet",
    "premier bet",
    "fortebet",
    "betpawa",
    "lotto",
)
UTILITIES = (
    "kplc",
    "kenya power",
    "nairobi water",
    "dstv",
    "gotv",
    "zuku",
    "startimes",
    "umeme",
    "nwsc",
    "safaricom home",
    "nhif",
    "water",
    "electricity",
    "tanesco",
    "yaka",
)
AIRTIME = ("airtime", "recharge for customer", "bundle purchase", "bundles")
CATEGORIES = (
    "salary",
    "business_income",
    "transfer_in",
    "cash_deposit",
    "loan_disbursement",
    "loan_repayment",
    "savings",
    "betting",
    "airtime",
    "utilities",
    "bill_payment",
    "merchant_payment",
    "transfer_out",
    "cash_withdrawal",
    "charges",
    "other_in",
    "other_out",
)
_MASKED = re.compile(r"(\+?\d[\d*x]{5,})", re.I)
_PARTY = re.compile(r"(?:\bto|\bfrom|\bat)\s+(?:agent till\s+)?(.+)$", re.I)


def lender_of(details: str) -> str | None:
    text = details.lower()
    if _SAVINGS.search(text):
        return None
    found = {_LENDER_OF[match.group(0)] for match in _LENDER_NAMES.finditer(text)}
    return min(found, key=_LENDER_ORDER.__getitem__) if found else None


def categorise(details: str, inflow: bool) -> str:
    text = details.lower()
    if text.endswith("charge") or ("charge " in text and "transfer of funds" in text):
        return "charges"
    if any(word in text for word in BETTING):
        return "betting"
    if _SAVINGS.search(text):
        return "savings"
    if lender_of(details):
        return "loan_disbursement" if inflow else "loan_repayment"
    if inflow:
        if "salary" in text or "salaries" in text or "payroll" in text:
            return "salary"
        if "deposit" in text:
            return "cash_deposit"
        if "merchant" in text or "till" in text or "paybill" in text or "business payment" in text:
            return "business_income"
        if "received" in text or "transfer from" in text or "receive" in text:
            return "transfer_in"
        return "other_in"
    if any(word in text for word in AIRTIME):
        return "airtime"
    if any(word in text for word in UTILITIES):
        return "utilities"
    if "withdrawal" in text or "withdraw" in text or "atm" in text:
        return "cash_withdrawal"
    if "pay bill" in text or "paybill" in text:
        return "bill_payment"
    if "merchant payment" in text or "buy goods" in text or "pos " in text:
        return "merchant_payment"
    if "transfer" in text or "send money" in text or "sent to" in text:
        return "transfer_out"
    return "other_out"


def counterparty(details: str) -> str | None:
    """The other party named by the text, numbers (masked or not) and account suffixes left
    out, upper-case: "Customer Transfer to 0722****123 - JANE DOE" -> "JANE DOE"."""
    text = details
    if " - " in text:
        text = text.rsplit(" - ", 1)[1]
    else:
        match = _PARTY.search(text)
        if match is None:
            return None
        text = match.group(1)
    text = text.split(" Acc.")[0]
    text = _MASKED.sub("", text)
    cleaned = " ".join(text.upper().split())
    return cleaned or None
