from __future__ import annotations

from pathlib import Path

import pytest

from hakiki.engines.adverse_media import FeedParseResult, LocalFeedProvider, parse_feed

DATA = Path(__file__).parent / "data"


@pytest.fixture(scope="session")
def rss() -> FeedParseResult:
    return parse_feed((DATA / "east_africa_rss.xml").read_bytes(), source="test-wire")


@pytest.fixture(scope="session")
def atom() -> FeedParseResult:
    return parse_feed((DATA / "atom_feed.xml").read_bytes(), source="test-atom")


@pytest.fixture()
def provider(rss: FeedParseResult, atom: FeedParseResult) -> LocalFeedProvider:
    return LocalFeedProvider([*rss.articles, *atom.articles])
