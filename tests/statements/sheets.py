"""Statement sheets as issuers and their customers' tools really write them, made by code with
the facts measured on real files (bench/real_statements.py compares them):

- M-Pesa CSV exports: newest first, details wrapped inside quoted cells, a long name continued
  on a row of its own (every other cell empty), a Pay Bill row split by an unquoted line break,
  the column titles repeated with the verification code on every page, withdrawals printed
  negative, Cancelled rows, the rows of one second in any order, Fuliza overdraft credits
  (alone when the payment they funded is not printed), dates as YYYY-MM-DD HH:MM:SS or, in the
  spreadsheet-saved exports, DD-MM-YY HH:MM (day first, two-digit year);
- GTBank's "Excel" export: an ASP.NET HTML page named .xls with nested layout tables, the
  statement table's titles Trans Date, Reference, Value Date, Debit, Credit, Balance, Remarks,
  dates as 05-Jan-2015, &nbsp; in empty amount cells, "0" as the reference of most rows; and its
  XLSX twin (real date cells, numbers as numbers);
- legacy binary XLS (BIFF8, as MTN Uganda's exports), written by xlwt."""

from __future__ import annotations

import csv
import io
import random
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from html import escape

import xlwt
from openpyxl import Workbook

from tests.statements.documents import money

MPESA_TITLES = [
    "Receipt No.",
    "Completion Time",
    "Details",
    "Transaction Status",
    "Paid In",
    "Withdrawn",
    "Balance",
]
GTB_TITLES = ["Trans Date", "Reference", "Value Date", "Debit", "Credit", "Balance", "Remarks"]
PEOPLE = ["JOHN KAMAU", "MARY ATIENO", "PETER OTIENO", "GRACE NJERI", "ALI HASSAN"]


@dataclass
class Line:
    receipt: str
    time: datetime
    details: str
    status: str
    paid_in: int
    withdrawn: int
    balance: int


def _receipt(rng: random.Random, prefix: str = "RE") -> str:
    return prefix + "".join(rng.choice("ABCDEFGHJKLMNPQRSTUVWXYZ0123456789") for _ in range(8))


def mpesa_lines(count: int = 60, seed: int = 3, start: datetime | None = None) -> list[Line]:
    """Chronological M-Pesa rows whose balances follow, with same-second groups as Safaricom
    makes them: a transfer and its charge, and Fuliza overdrafts (the credit, the payment it
    funds, its charge, all in one second), one Fuliza credit whose payment is not printed, an
    M-Shwari savings move and a Cancelled row."""
    rng = random.Random(seed)
    moment = start or datetime(2023, 5, 1, 8, 0, 0)
    balance = 2_000_00
    lines: list[Line] = []
    for index in range(count):
        moment += timedelta(minutes=rng.randrange(20, 600), seconds=rng.randrange(60))
        receipt = _receipt(rng)
        person = rng.choice(PEOPLE)
        if index % 9 == 4:  # Fuliza: the credit, the transfer it funds and the charge
            amount = balance + rng.randrange(1, 5) * 100_00  # more than the balance
            credit = amount + 7_00 - balance
            lines.append(
                Line(
                    receipt,
                    moment,
                    "OverDraft of Credit Party",
                    "Completed",
                    credit,
                    0,
                    balance + credit,
                )
            )
            lines.append(
                Line(
                    receipt,
                    moment,
                    f"Customer Transfer Fuliza MPesa\nto - 07******{index:03d} {person}",
                    "Completed",
                    0,
                    amount,
                    7_00,
                )
            )
            lines.append(
                Line(receipt, moment, "Customer Transfer of Funds\nCharge", "Completed", 0, 7_00, 0)
            )
            balance = 0
        elif index % 9 == 6:  # repaid from the next credit, in the same second
            amount = rng.randrange(10, 40) * 100_00
            lines.append(
                Line(
                    receipt,
                    moment,
                    f"Funds received from -\n07******{index:03d} {person}",
                    "Completed",
                    amount,
                    0,
                    balance + amount,
                )
            )
            balance += amount
            repay = min(balance, 50_00)
            lines.append(
                Line(
                    _receipt(rng),
                    moment,
                    "OD Loan Repayment to 232323 -\nM-PESA Overdraw",
                    "Completed",
                    0,
                    repay,
                    balance - repay,
                )
            )
            balance -= repay
        elif index == 20:  # a Fuliza credit printed without the payment it funded
            lines.append(
                Line(
                    receipt,
                    moment,
                    "OverDraft of Credit Party",
                    "Completed",
                    30_00,
                    0,
                    balance + 30_00,
                )
            )
        elif index == 30:
            lines.append(Line(receipt, moment, "M-Shwari Withdraw", "Cancelled", 19_036_00, 0, 0))
        elif index % 5 == 0 and balance > 1_000_00:
            lines.append(
                Line(receipt, moment, "M-Shwari Deposit", "Completed", 0, 500_00, balance - 500_00)
            )
            balance -= 500_00
        elif index % 3 == 0 and balance > 800_00:
            amount = rng.randrange(1, 7) * 100_00
            lines.append(
                Line(
                    receipt,
                    moment,
                    f"Customer Transfer to -\n07******{index:03d} {person}",
                    "Completed",
                    0,
                    amount,
                    balance - amount,
                )
            )
            lines.append(
                Line(
                    receipt,
                    moment,
                    "Customer Transfer of Funds\nCharge",
                    "Completed",
                    0,
                    13_00,
                    balance - amount - 13_00,
                )
            )
            balance -= amount + 13_00
        elif index % 7 == 2:
            lines.append(
                Line(
                    receipt,
                    moment,
                    f"Pay Bill to 247247 - Equity\nPaybill Account Acc.\n0300{index:09d}",
                    "Completed",
                    0,
                    5_00,
                    balance - 5_00,
                )
            )
            balance -= 5_00
        else:
            amount = rng.randrange(1, 40) * 50_00
            lines.append(
                Line(
                    receipt,
                    moment,
                    f"Funds received from -\n07******{index:03d} {person}",
                    "Completed",
                    amount,
                    0,
                    balance + amount,
                )
            )
            balance += amount
    return lines


def _printed(lines: list[Line], seed: int) -> list[Line]:
    """Newest first, and the rows of each second in an order of their own (as printed)."""
    rng = random.Random(seed)
    out: list[Line] = []
    index = 0
    while index < len(lines):
        group = [line for line in lines[index:] if line.time == lines[index].time]
        rng.shuffle(group)
        out = group + out
        index += len(group)
    return out


def _amounts(line: Line) -> list[str]:
    return [
        money(line.paid_in) if line.paid_in else "",
        f"-{money(line.withdrawn)}" if line.withdrawn else "",
        money(line.balance),
    ]


def mpesa_csv(lines: list[Line], *, day_first_short: bool = False, seed: int = 1) -> bytes:
    """The CSV a customer's tool makes of an M-Pesa statement: the 2023 export (ISO times,
    titles and the verification code repeated per page, a trailing empty column, a Pay Bill
    row split by unquoted line breaks) or, with ``day_first_short``, the spreadsheet-saved one
    (09-01-24 13:51, names continued on rows of their own)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    trailing = [] if day_first_short else [""]
    writer.writerow(MPESA_TITLES + trailing)
    for number, line in enumerate(_printed(lines, seed), start=1):
        when = (
            line.time.strftime("%d-%m-%y %H:%M")
            if day_first_short
            else line.time.strftime("%Y-%m-%d %H:%M:%S")
        )
        details = line.details
        continued: list[str] = []
        if day_first_short and details.startswith("Customer Transfer to"):
            head, _, name = details.rpartition(" ")
            details, continued = head, [name]
        if not day_first_short and details.startswith("Pay Bill to"):
            first, second, third = details.split("\n")  # unquoted: three broken records
            out.write(f"{line.receipt},{when},{first}\n{second}\n{third},{line.status},")
            out.write(",".join(f'"{a}"' if "," in a else a for a in _amounts(line)) + ",\n")
            continue
        writer.writerow([line.receipt, when, details, line.status, *_amounts(line), *trailing])
        for extra in continued:
            writer.writerow(["", "", extra, "", "", "", ""])
        if not day_first_short and number % 40 == 0:
            writer.writerow(["Statement Verification Code", "To verify the validity", ""])
            writer.writerow(["", ""])
            writer.writerow(["AB1CDEFG", "", ""])
            writer.writerow(MPESA_TITLES + trailing)
    return out.getvalue().encode()


@dataclass
class BankLine:
    day: datetime
    reference: str
    debit: int
    credit: int
    balance: int
    remarks: str


def bank_lines(count: int = 40, seed: int = 5) -> tuple[int, list[BankLine]]:
    """(opening balance, oldest-first rows): GTBank's "0" reference on transfers, airtime and
    commissions, ATM withdrawals at branches named "... Branch"."""
    rng = random.Random(seed)
    balance = opening = 50_000_00
    day = datetime(2015, 1, 5)
    lines: list[BankLine] = []
    for index in range(count):
        day += timedelta(days=rng.randrange(0, 3))
        if index % 4 == 0:
            amount = rng.randrange(5, 80) * 1000_00
            balance += amount
            lines.append(
                BankLine(
                    day,
                    "0",
                    0,
                    amount,
                    balance,
                    "TRANSFER BETWEEN CUSTOMERS via Internet Banking from "
                    "ADEYEMI, BOLA to CUSTOMER",
                )
            )
        elif index % 4 == 1:
            balance -= 10_000_00
            lines.append(
                BankLine(
                    day,
                    str(3100000000 + index),
                    10_000_00,
                    0,
                    balance,
                    "CASH WITHDRAWAL FROM OUR ATM  -000001- -GTBank OAU Branch",
                )
            )
        elif index % 4 == 2:
            balance -= 500_00
            lines.append(
                BankLine(
                    day,
                    "0",
                    500_00,
                    0,
                    balance,
                    "Airtime Purchase USSD-101CT0000000000012345678_USSD",
                )
            )
        else:
            balance -= 105_00
            lines.append(BankLine(day, "0", 105_00, 0, balance, "COMMISSION"))
    return opening, lines


def gtb_html(opening: int, lines: list[BankLine]) -> bytes:
    head = (
        '\r\n\r\n<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Transitional//EN" '
        '"http://www.w3.org/TR/xhtml1/DTD/xhtml1-transitional.dtd">\r\n'
        '<html xmlns="http://www.w3.org/1999/xhtml" >\r\n<head><title>\r\n    Untitled Page\r\n'
        '</title></head>\r\n<body>\r\n<form name="form1" method="post" '
        'action="Usercontrols/AccountStmtExport.aspx" id="form1">\r\n'
        '<div><table width="100%"><tr><td colspan="3"><table width="100%"><tr>'
        '<td colspan="3">GUARANTY TRUST BANK PLC<br /><br />CUSTOMER STATEMENT<br /></td>'
        '<td><img id="Image1" src="Images/glogo.gif" border="0" /></td></tr></table>'
        '<table width="500"><tr><td colspan="2">Print Date: <span id="lblDate">'
        '31/Jul/2015</span></td></tr><tr><td colspan="2">Opening Balance: '
        f'<span id="lblOpenBal">{money(opening)}</span></td></tr></table></td></tr>\r\n'
        '<tr><td><table cellspacing="0" rules="all" border="1" id="dgtrans">\r\n<tr>'
    )
    titles = "".join(f'<td style="width:10%;">{t}</td>' for t in GTB_TITLES)
    rows = []
    for line in lines:
        cells = [
            line.day.strftime("%d-%b-%Y"),
            line.reference,
            line.day.strftime("%d-%b-%Y"),
            money(line.debit) if line.debit else "&nbsp;",
            money(line.credit) if line.credit else "&nbsp;",
            money(line.balance),
            escape(line.remarks),
        ]
        rows.append(
            '</tr><tr nowrap="nowrap" style="color:Black;">\r\n        '
            + "".join(f"<td>{c}</td>" for c in cells)
        )
    tail = "</tr>\r\n</table></td></tr></table></div></form></body></html>\r\n"
    return (head + titles + "".join(rows) + tail).encode()


def gtb_xlsx(opening: int, lines: list[BankLine]) -> bytes:
    book = Workbook()
    sheet = book.active
    assert sheet is not None
    sheet.append(["GUARANTY TRUST BANK PLC"])
    sheet.append([f"Opening Balance: {money(opening)}"])
    sheet.append(GTB_TITLES)
    for line in lines:
        sheet.append(
            [
                line.day,
                int(line.reference),
                line.day,
                line.debit / 100 if line.debit else None,
                line.credit / 100 if line.credit else None,
                line.balance / 100,
                line.remarks,
            ]
        )
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


def legacy_xls(titles: list[str], rows: list[list[object]]) -> bytes:
    """A BIFF8 workbook (what Excel 97-2003 saves), dates as date cells."""
    book = xlwt.Workbook()
    sheet = book.add_sheet("Statement")
    dated = xlwt.easyxf(num_format_str="DD/MM/YYYY HH:MM:SS")
    sheet.write(0, 0, "MTN MOBILE MONEY STATEMENT")
    for column, title in enumerate(titles):
        sheet.write(2, column, title)
    for number, row in enumerate(rows, start=3):
        for column, value in enumerate(row):
            if isinstance(value, datetime):
                sheet.write(number, column, value, dated)
            else:
                sheet.write(number, column, value)
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


def with_edit(lines: list[Line], receipt: str, paid_in: int) -> list[Line]:
    """The amount of one credit changed, as an applicant does in a spreadsheet (the balances
    left as they were)."""
    return [replace(line, paid_in=paid_in) if line.receipt == receipt else line for line in lines]
