"""What a PDF statement's file says about its history: who wrote it (the issuer's generator,
an unlocking tool, an editor), whether it was saved again, text hidden under later drawing,
amounts in a foreign font, pages missing from the issuer's "Page n of N". Each signal keeps
its evidence."""

from __future__ import annotations

from typing import Any

from hakiki.engines.statements.fingerprints import editor_named, fingerprint_of, unlocker_named
from hakiki.engines.statements.model import PdfFacts, Signal, Statement

MAX_EVIDENCE = 20


def _signal(code: str, severity: Any, message: str, **evidence: Any) -> Signal:
    return Signal(code, severity, message, evidence)


def file_signals(statement: Statement) -> list[Signal]:
    pdf = statement.pdf
    if pdf is None:
        return []
    found = [
        s
        for s in (
            _incremental(pdf),
            *_origin(statement, pdf),
            _foreign_font(pdf),
            _active_content(pdf),
            _overlays(pdf),
            _pages_missing(pdf),
        )
        if s is not None
    ]
    return found


def _incremental(pdf: PdfFacts) -> Signal | None:
    incremental = pdf.eof_markers - (1 if pdf.linearized else 0)
    if incremental <= 1 or not pdf.prev_offsets:
        return None
    return _signal(
        "incremental_update",
        "high",
        "The file was saved again after it was made (a second %%EOF with /Prev): an edit "
        "appended to the original.",
        eof_markers=pdf.eof_markers,
        prev_offsets=pdf.prev_offsets[:5],
    )


def _origin(statement: Statement, pdf: PdfFacts) -> list[Signal | None]:
    """The producer against the issuer's generators, and the dates against their habits."""
    matched, expected = fingerprint_of(
        statement.issuer, statement.layout, pdf.producer, pdf.creator, pdf.author
    )
    editor = editor_named(pdf.producer, pdf.creator)
    unlocker = unlocker_named(pdf.producer)
    dates = _dates(pdf)
    if editor is not None:
        return [
            _signal(
                "producer_mismatch",
                "high",
                f"The file was written by an editing tool ({editor}).",
                producer=pdf.producer,
                creator=pdf.creator,
            )
        ]
    if unlocker is not None:
        # The password removed by re-writing the file: the text is still what the issuer's
        # generator printed (the other signals read it), the file is no longer its own.
        return [
            _signal(
                "unlocked_by_tool",
                "info",
                f"The file was re-saved by a password-removal tool ({unlocker}); its text is "
                "checked like the original's.",
                producer=pdf.producer,
                creator=pdf.creator,
                **(dates or {}),
            )
        ]
    found: list[Signal | None] = []
    if expected and matched is None:
        found.append(
            _signal(
                "producer_mismatch",
                "medium",
                f"Producer or creator differs from genuine {statement.issuer} statements "
                "(re-saved or re-typed).",
                producer=pdf.producer,
                creator=pdf.creator,
                expected=[f"{f.era}: {' | '.join(f.producers)}" for f in expected],
            )
        )
    slack = matched.date_slack_seconds if matched else 120
    if dates and dates["seconds_after_creation"] > slack:
        found.append(
            _signal(
                "modified_after_creation",
                "medium",
                "The file's modification date is later than its creation date.",
                **dates,
            )
        )
    return found


def _dates(pdf: PdfFacts) -> dict[str, Any] | None:
    if not (pdf.created and pdf.modified):
        return None
    created, modified = pdf.created, pdf.modified
    if (created.tzinfo is None) != (modified.tzinfo is None):
        created, modified = created.replace(tzinfo=None), modified.replace(tzinfo=None)
    return {
        "created": created.isoformat(),
        "modified": modified.isoformat(),
        "seconds_after_creation": abs(int((modified - created).total_seconds())),
    }


def _foreign_font(pdf: PdfFacts) -> Signal | None:
    if len(pdf.amount_fonts) <= 1:
        return None
    main = max(pdf.amount_fonts, key=lambda f: len(pdf.amount_fonts[f]))
    foreign = {f: sorted(set(r))[:MAX_EVIDENCE] for f, r in pdf.amount_fonts.items() if f != main}
    return _signal(
        "foreign_font",
        "high",
        "Amounts set in a font the rest of the amount columns do not use.",
        column_font=main,
        foreign_fonts=foreign,
    )


def _active_content(pdf: PdfFacts) -> Signal | None:
    if not pdf.active_content:
        return None
    return _signal(
        "active_content",
        "medium",
        "The file carries JavaScript or an embedded file; an issued statement has neither.",
        kinds=pdf.active_content,
    )


def _overlays(pdf: PdfFacts) -> Signal | None:
    if not pdf.overlays:
        return None
    return _signal(
        "overlaid_text",
        "high",
        "Text hidden under text or shapes drawn after it (or drawn invisible, or white on "
        "nothing coloured).",
        places=pdf.overlays[:MAX_EVIDENCE],
        count=len(pdf.overlays),
    )


def _pages_missing(pdf: PdfFacts) -> Signal | None:
    """The issuer numbers its pages "Page n of N": a page taken out leaves a gap, a count
    that is not the file's, or a number printed on the wrong page."""
    labels = pdf.page_labels
    if not labels:
        return None
    declared = {total for _, total in labels.values()}
    wrong = [
        {"page": page, "printed": f"{n} of {total}"}
        for page, (n, total) in sorted(labels.items())
        if n != page or total != pdf.pages
    ]
    if not wrong:  # a page whose label was not read proves nothing
        return None
    return _signal(
        "pages_missing",
        "high",
        "The pages' own numbering (\"Page n of N\") does not match the file's pages: pages "
        "were removed, added or re-ordered.",
        pages_in_file=pdf.pages,
        pages_declared=sorted(declared),
        pages_numbered=len(labels),
        misnumbered=wrong[:MAX_EVIDENCE],
    )
