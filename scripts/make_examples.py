"""Write the generated files of examples/ (the files the documentation's commands use; the
others are copied, examples/README.md says from where): a Kenyan-style identity card rendered
in the OCR-B font Hakiki ships (tests/documents/specimens.py), and the synthetic M-Pesa
statement of the sandbox (scripts/make_statement_samples.py). Deterministic: run it again and
nothing changes (tests/docs/test_example_files.py checks).

    uv run python scripts/make_examples.py
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.documents import specimens  # noqa: E402

OUT = ROOT / "examples"


def id_card() -> bytes:
    """A fictional Kenyan-style ID card (TD1 zone and its visual zone, no portrait)."""
    return specimens.render_card(specimens.TD1_KENYA, visual=True, quality=92)


def main() -> None:
    OUT.mkdir(exist_ok=True)
    (OUT / "id-card.jpg").write_bytes(id_card())
    shutil.copyfile(
        ROOT / "src/hakiki/statements/sandbox_data/mpesa-genuine.pdf", OUT / "mpesa-statement.pdf"
    )
    for name in ("id-card.jpg", "mpesa-statement.pdf"):
        print(name, (OUT / name).stat().st_size)


if __name__ == "__main__":
    main()
