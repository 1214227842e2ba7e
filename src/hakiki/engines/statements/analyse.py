"""One statement file from bytes to an ``Analysis``: the format sniffed, the layout read,
metrics, score and signals."""

from __future__ import annotations

from collections.abc import Callable
from contextlib import closing

from hakiki.engines.statements import metrics as metrics_of
from hakiki.engines.statements import pdf_reader, signals
from hakiki.engines.statements.html_table import is_html
from hakiki.engines.statements.layouts import TableReader, detect
from hakiki.engines.statements.legacy_xls import is_xls
from hakiki.engines.statements.model import Analysis, Declared, Refused, Statement
from hakiki.engines.statements.score import score
from hakiki.engines.statements.tabular import Limits, read_sheet

ENGINE_VERSION = "statements-1"
Progress = Callable[[int, int], None]


def sniff(data: bytes) -> str:
    head = data[:1024].lstrip()
    if head.startswith(b"%PDF-") or b"%PDF-" in data[:1024]:
        return "pdf"
    if data.startswith(b"PK\x03\x04"):
        return "xlsx"
    if is_xls(data):
        return "xls"
    if not data.strip():
        raise Refused("unreadable", "file: the file is empty.")
    if b"\x00" in data[:4096]:
        raise Refused("unsupported_format", "file: not a PDF, CSV, XLSX or XLS statement.")
    return "html" if is_html(data) else "csv"


def precheck(data: bytes, statement_type: str, password: str | None, limits: Limits) -> str:
    """What can be refused at once (before anything is stored or reserved): the format, the
    password, an image-only PDF, a sheet over the limits; returns the file format."""
    file_format = sniff(data)
    if statement_type not in ("auto", "bank", "mtn_momo", "mpesa", "airtel_money"):
        raise Refused("invalid", "statement_type: unknown.", "statement_type")
    if file_format == "pdf":
        pdf_reader.facts_of(data, password)
        with pdf_reader.PDFIUM_LOCK:
            pdf = pdf_reader.open_pdf(data, password)
            try:
                with closing(pdf_reader.pages(pdf, 0, pdf_reader.SCAN_PAGES)) as first:
                    looked = [p for p in first if p.chars]
            finally:
                pdf.close()
        if not looked:
            raise Refused(
                "scanned",
                "file: a scanned (image-only) PDF; send the statement as issued, with its "
                "text, not a scan or a photograph.",
            )
        detect(looked[0], statement_type)
    else:
        read_sheet(data, file_format, statement_type, limits)
    return file_format


def _read_tables(
    data: bytes, statement_type: str, password: str | None, progress: Progress | None
) -> TableReader:
    """Every page through the layout's table reader (the caller holds PDFIUM_LOCK; pages and
    the document are closed here, before it is released)."""
    pdf = pdf_reader.open_pdf(data, password)
    try:
        total = len(pdf)
        reader: TableReader | None = None
        chars = 0
        with closing(pdf_reader.pages(pdf)) as pages:
            for page in pages:
                chars += page.chars
                if reader is None:
                    if chars == 0 and page.number < pdf_reader.SCAN_PAGES:
                        continue
                    if chars == 0:
                        raise Refused("scanned", "file: a scanned (image-only) PDF.")
                    reader = TableReader(detect(page, statement_type))
                reader.read(page)
                if progress is not None:
                    progress(page.number, total)
    finally:
        pdf.close()
    if reader is None:
        raise Refused("scanned", "file: a scanned (image-only) PDF.")
    return reader


def read_pdf(
    data: bytes, statement_type: str, password: str | None, progress: Progress | None
) -> Statement:
    facts = pdf_reader.facts_of(data, password)
    with pdf_reader.PDFIUM_LOCK:
        reader = _read_tables(data, statement_type, password, progress)
    facts.amount_fonts = reader.amount_fonts
    facts.overlays = reader.overlays
    facts.page_labels = reader.page_labels
    transactions = reader.chronological()
    if not transactions:
        raise Refused("no_transactions", "file: no transactions found in the statement.")
    layout = reader.layout
    return Statement(
        layout=layout.layout_id,
        parser_version=layout.version,
        issuer=layout.issuer,
        file_format="pdf",
        header=reader.header,
        transactions=transactions,
        summary=reader.summary,
        pdf=facts,
    )


def statement_key(statement: Statement) -> str:
    """Names the statement, not the file: a re-saved or edited copy has the same key."""
    txs = statement.transactions
    header = statement.header
    digits = "".join(ch for ch in header.phone or "" if ch.isdigit())[-9:]
    return "|".join(
        str(part)
        for part in (
            statement.issuer,
            digits,
            header.period_start,
            header.period_end,
            txs[0].receipt,
            txs[0].time.isoformat(),
            txs[-1].receipt,
            txs[-1].time.isoformat(),
        )
    )


def analyse(
    data: bytes,
    *,
    statement_type: str = "auto",
    password: str | None = None,
    declared: Declared | None = None,
    limits: Limits | None = None,
    progress: Progress | None = None,
) -> Analysis:
    declared = declared or Declared()
    limits = limits or Limits()
    file_format = sniff(data)
    if file_format == "pdf":
        statement = read_pdf(data, statement_type, password, progress)
    else:
        statement = read_sheet(data, file_format, statement_type, limits)
    metrics = metrics_of.compute(statement.transactions, declared.monthly_obligations)
    found = signals.all_signals(statement, declared)
    return Analysis(
        statement=statement,
        metrics=metrics,
        score=score(metrics),
        signals=found,
        verdict=signals.verdict(found),
        statement_key=statement_key(statement),
    )
