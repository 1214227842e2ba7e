"""docs/sandbox.md names every number the tax endpoints' sandbox test values use (its stem: the
number without its two outcome digits), so the page and the catalogue cannot drift apart."""

from __future__ import annotations

import re
from pathlib import Path

from hakiki import api  # noqa: F401  (declaring the routers' endpoints fills the catalogue)
from hakiki.core.endpoints import CATALOGUE

NUMBER_FIELDS = ("pin", "national_id", "certificate_number", "withholder_pin", "payee_pin")
_OUTCOME_DIGITS = re.compile(r"\d\D*\d\D*$")  # the last two digits and what follows them


def test_the_sandbox_page_names_every_tax_test_number() -> None:
    page = (Path(__file__).parents[2] / "docs" / "sandbox.md").read_text()
    missing = []
    for endpoint in CATALOGUE.values():
        if not endpoint.key.startswith("tax."):
            continue
        for value in endpoint.test_values():
            if value.expect.get("http_status") != 200:
                continue
            for field in NUMBER_FIELDS:
                number = (value.body or {}).get(field)
                if isinstance(number, str) and _OUTCOME_DIGITS.sub("", number) not in page:
                    missing.append(f"{endpoint.key} {field}: {number}")
    assert not missing, missing
    assert "A0000000" in page  # the check reads stems, not nothing
