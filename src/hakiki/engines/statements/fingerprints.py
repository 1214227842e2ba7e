"""What genuine statements of each issuer look like as files, and the tools that edit PDFs.

The table is ours (docs/api.md#issuer-fingerprints): the producer and creator each issuer's
statement system writes, per layout we read. A file whose producer names an editor is edited;
one whose producer is merely not the issuer's is re-saved or re-typed."""

from __future__ import annotations

import re
from dataclasses import dataclass


@dataclass(frozen=True)
class Fingerprint:
    issuer: str
    producers: tuple[str, ...]  # regular expressions, any may match
    creators: tuple[str, ...]  # empty: the creator is not checked
    # Seconds the modification date may trail the creation date (the system stamps both).
    date_slack_seconds: int = 120


FINGERPRINTS: dict[str, Fingerprint] = {
    "mpesa": Fingerprint(
        issuer="mpesa",
        producers=(r"^JasperReports Library version \d",),
        creators=(r"^JasperReports",),
    ),
    # From a study of 12,405 Airtel Uganda statements: genuine files say "Qt 4.8.7".
    "airtel_money": Fingerprint(issuer="airtel_money", producers=(r"^Qt 4\.8\.7$",), creators=()),
}

# Producers and creators of tools that edit or re-print PDFs (lower case, matched anywhere).
EDITORS: tuple[str, ...] = (
    "microsoft word",
    "microsoft: print to pdf",
    "ilovepdf",
    "smallpdf",
    "sejda",
    "pdfescape",
    "pdf-xchange",
    "foxit",
    "nitro",
    "acrobat",
    "libreoffice",
    "openoffice",
    "canva",
    "pdfelement",
    "wondershare",
    "pdfcandy",
    "soda pdf",
    "quartz pdfcontext",
    "ghostscript",
    "pypdf",
    "pikepdf",
    "qpdf",
    "itext 7",  # iText 7 re-saves; the issuer's own generator is older
    "skia/pdf",
    "google docs",
    "pdffiller",
    "dochub",
)


def producer_matches(fingerprint: Fingerprint, producer: str | None) -> bool:
    return any(re.search(p, producer or "") for p in fingerprint.producers)


def creator_matches(fingerprint: Fingerprint, creator: str | None) -> bool:
    if not fingerprint.creators:
        return True
    return any(re.search(p, creator or "") for p in fingerprint.creators)


def editor_named(*texts: str | None) -> str | None:
    for text in texts:
        lowered = " ".join((text or "").lower().replace("®", " ").replace("™", " ").split())
        for editor in EDITORS:
            if editor in lowered:
                return text
    return None
