"""Every console page labels its form controls, and the stylesheet's colours are readable."""

from __future__ import annotations

import pytest
from fastapi import FastAPI

from tests.console.accessibility import colour_pairs, contrast, low_contrast, unlabelled
from tests.console.conftest import UserFactory
from tests.console.helpers import browser, signed_in

PAGES = (
    "/console/",
    "/console/keys",
    "/console/wallet",
    "/console/requests",
    "/console/users",
    "/console/playground",
    "/console/screening",
    "/console/bulk-scans",
    "/console/fraud-reports",
    "/console/audit-log",
    "/console/background",
    "/console/statements",
    "/console/credit-products",
    "/console/webhooks",
    "/console/lists",
    "/console/providers",
    "/console/security",
)


def test_the_checks_catch_what_they_look_for() -> None:
    assert unlabelled('<input id="a" name="a">') == ["{'tag': 'input', 'id': 'a', 'name': 'a'}"]
    assert unlabelled('<label for="a">A</label><input id="a"><input type="hidden">') == []
    assert unlabelled('<select aria-label="x"></select>') == []
    assert low_contrast("p { color: #777777; }")  # 4.48:1 on white
    assert not low_contrast("p { color: #ffffff; background: #0b3d2e; }")
    assert round(contrast("#000000", "#ffffff"), 1) == 21.0


def test_every_colour_of_the_stylesheet_meets_wcag_aa() -> None:
    assert len(colour_pairs(open_css())) >= 10
    assert low_contrast() == []


def open_css() -> str:
    from tests.console.accessibility import STYLESHEET

    return STYLESHEET.read_text()


@pytest.mark.asyncio(loop_scope="session")
async def test_every_page_labels_every_control(app: FastAPI, make_user: UserFactory) -> None:
    owner = await make_user("owner")
    async with browser(app) as http:
        for path in ("/console/login", "/console/reset"):
            assert unlabelled((await http.get(path)).text) == []
        csrf = await signed_in(http, owner)
        created = await http.post("/console/keys", data={"csrf": csrf, "environment": "sandbox"})
        pages = [created, *[await http.get(path) for path in PAGES]]
    for page in pages:
        assert page.status_code == 200
        assert '<html lang="en">' in page.text and "<title>" in page.text
        assert unlabelled(page.text) == [], page.url
