"""The statement engine on real statements, one part per kind of file (rows a reader sees
against rows read, the balance proof, the statement's own totals against ours, the verdict and
the signals), then the real files' facts against the synthetic look-alikes the tests use.

    uv run --group dev python bench/real_statements.py [folder]
    PYTHONPATH=/work/main/src uv run --group dev python bench/real_statements.py   # before

The folder (default: $HAKIKI_REAL_STATEMENTS, else /work/real) holds real people's statements:
read locally, never committed; files are named by nickname and nothing personal is printed."""

from __future__ import annotations

import logging
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.real_bank_pdfs import bank_pdf_part, folder


def main() -> None:
    logging.getLogger("pypdf").setLevel(logging.ERROR)
    path = folder()
    if path is None:
        print("no folder of real statements (set HAKIKI_REAL_STATEMENTS)")
        return
    bank_pdf_part(path)  # bank statement PDFs (bench/real_bank_pdfs.py)


if __name__ == "__main__":
    main()
