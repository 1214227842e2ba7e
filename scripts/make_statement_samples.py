"""Write the sandbox's sample statements (src/hakiki/statements/sandbox_data/), generated with
reportlab in the M-Pesa layout: genuine, tampered (a balance overlaid on a white box), locked
(password 12345678) and scanned. Deterministic: reportlab's invariant mode.

    uv run python scripts/make_statement_samples.py
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.statements import documents as d  # noqa: E402

OUT = ROOT / "src" / "hakiki" / "statements" / "sandbox_data"


def main() -> None:
    OUT.mkdir(exist_ok=True)
    rows = d.mpesa_rows(24, 2, seed=3)
    target = rows[10]
    covered = d.Doctoring(covered={target.receipt: d.money(target.balance + 25_000_00)})
    files = {
        "mpesa-genuine.pdf": d.mpesa_pdf(rows),
        "mpesa-tampered.pdf": d.mpesa_pdf(rows, doctoring=covered),
        "mpesa-locked.pdf": d.mpesa_pdf(rows, password="12345678"),
        "scanned.pdf": d.scanned_pdf(),
    }
    for name, data in files.items():
        (OUT / name).write_bytes(data)
        print(name, len(data))


if __name__ == "__main__":
    main()
