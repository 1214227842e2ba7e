"""The access log keeps query values out: `?identifier=<an identity number>` is logged masked."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from hakiki.core.access_log import ACCESS_LOGGER, QueryValueFilter, mask_query, mask_target
from hakiki.core.settings import Settings


@pytest.mark.parametrize(
    ("target", "logged"),
    [
        ("/v3/fraud/reports", "/v3/fraud/reports"),
        ("/v3/fraud/reports?identifier=22212345678", "/v3/fraud/reports?identifier=*"),
        ("/v3/fraud/reports?identifier=2221&page=2&", "/v3/fraud/reports?identifier=*&page=*"),
        ("/v3/fraud/reports?0712345678", "/v3/fraud/reports?*"),
        ("/v3/fraud/reports?identifier", "/v3/fraud/reports?identifier=*"),
        ("/v3/x?a=1=2&b", "/v3/x?a=*&b=*"),
        ("/v3/x?", "/v3/x?"),
    ],
)
def test_query_values_are_masked(target: str, logged: str) -> None:
    assert mask_query(target) == logged


@pytest.mark.parametrize(
    ("target", "logged"),
    [
        ("/console/reset/" + "Ab-_9" * 8 + "xyz", "/console/reset/*"),
        ("/invitations/" + "Q" * 43 + "?lang=sw", "/invitations/*?lang=*"),
        ("/hakiki/console/reset/" + "t" * 43, "/hakiki/console/reset/*"),
        ("/console/reset", "/console/reset"),
        ("/v3/background/candidates/bgc_01", "/v3/background/candidates/bgc_01"),
    ],
)
def test_link_tokens_in_paths_are_masked(target: str, logged: str) -> None:
    assert mask_target(target) == logged


def test_uvicorns_access_records_are_masked_once_the_app_exists(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    from hakiki.app import create_app

    create_app(Settings(data_dir=tmp_path, secret_key="k" * 40))  # installs the filter
    create_app(Settings(data_dir=tmp_path, secret_key="k" * 40))  # once, not twice
    logger = logging.getLogger(ACCESS_LOGGER)
    assert sum(isinstance(f, QueryValueFilter) for f in logger.filters) == 1
    logger.addHandler(caplog.handler)  # uvicorn's own logging config stops propagation
    try:
        caplog.set_level(logging.INFO, logger=ACCESS_LOGGER)
        # What uvicorn's h11 and httptools protocols log for every response.
        logger.info(
            '%s - "%s %s HTTP/%s" %d',
            "127.0.0.1:5555",
            "GET",
            "/v3/fraud/reports?identifier=22212345678&page=1",
            "1.1",
            200,
        )
    finally:
        logger.removeHandler(caplog.handler)
    # (seen once through the logger's handler, and again through the root's when it propagates)
    [record] = {id(r): r for r in caplog.records if r.name == ACCESS_LOGGER}.values()
    assert record.getMessage() == (
        '127.0.0.1:5555 - "GET /v3/fraud/reports?identifier=*&page=* HTTP/1.1" 200'
    )
    assert "22212345678" not in record.getMessage()
