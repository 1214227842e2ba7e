"""parse_feed: RSS 2.0 and Atom 1.0, text cleaning, dates, ids, warnings, safety."""

from __future__ import annotations

import pytest

from hakiki.engines.adverse_media import Article, FeedFormatError, FeedParseResult, parse_feed
from hakiki.engines.adverse_media.feeds import html_to_text, parse_date


def test_rss_items_and_warnings(rss: FeedParseResult) -> None:
    assert rss.feed_format == "rss"
    assert rss.feed_title == "Hakiki test wire: East and West Africa"
    titles = [a.title for a in rss.articles]
    assert titles == [
        "EACC arrests former county finance chief over Sh200m graft",
        "EFCC arraigns businessman over N1.2bn fraud",
        "Court clears Kampala tycoon of fraud charges",
        "Kirinyaga traders open new avocado packhouse",
        "Mfanyabiashara ashtakiwa kwa utakatishaji fedha na rushwa",
        "Sacco officials charged",
    ]
    assert rss.warnings == (
        "item #6: no title and no text; skipped",
        "item #7: link 'javascript:alert(1)' is not a web address; dropped",
        "item #7: date 'sometime last week' not understood",
    )
    assert all(a.source == "test-wire" for a in rss.articles)


def test_rss_fields(rss: FeedParseResult) -> None:
    eacc, efcc, cleared, neutral, swahili, sacco = rss.articles
    assert eacc.url == (
        "https://news.example.org/kenya/eacc-arrests-county-finance-chief?utm_source=rss"
    )
    assert eacc.guid == "ke-2024-0001"
    assert eacc.published == "2024-03-05T07:15:00Z"  # EAT is UTC+3
    assert eacc.text.startswith("Detectives from the Ethics and Anti-Corruption Commission")
    assert "<" not in eacc.text and "Mr. Gideon Kirigiti Wambugu, the former" in eacc.text
    assert "\n" in eacc.text  # paragraphs kept apart
    # content:encoded preferred, description kept when not part of it; scripts dropped
    assert "trackPageview" not in efcc.text
    assert "custody.\xa0The case" in efcc.text or "custody. The case" in efcc.text
    assert efcc.published == "2024-03-06T07:00:00Z"
    assert cleared.published == "2024-02-20T06:30:00Z"
    assert cleared.text.startswith("The Anti-Corruption Division")  # escaped HTML stripped
    assert neutral.text.endswith("“We want farmers to earn more,” he said.")
    assert swahili.published == "2024-03-07T13:45:00Z"
    assert sacco.url is None and sacco.published is None and sacco.guid == "ug-2024-sacco"


def test_atom(atom: FeedParseResult) -> None:
    assert atom.feed_format == "atom" and atom.warnings == ()
    debar, weather = atom.articles
    assert debar.title == "Treasury debars supplier over forged bank guarantees"
    assert debar.url == "https://atom.example.org/kenya/treasury-debars-supplier"
    assert debar.guid == "tag:atom.example.org,2024:entry-1"
    assert debar.published == "2024-03-08T06:00:00Z"  # published wins over updated
    assert "Kilimo Bora Supplies debarred for five years." in debar.text
    assert "Ms. Achieng Nyamweya Odera, declined" in debar.text
    assert weather.published == "2024-03-07"
    assert weather.text == "The Met department expects heavy rains & floods."


def test_article_id_is_stable_and_ignores_tracking(rss: FeedParseResult) -> None:
    eacc = rss.articles[0]
    same = Article.create(
        source="other",
        title="x",
        url="HTTPS://NEWS.EXAMPLE.ORG/kenya/eacc-arrests-county-finance-chief#top",
    )
    assert same.article_id == eacc.article_id
    again = parse_feed(
        b'<rss version="2.0"><channel><item><title>t</title><guid>g-1</guid></item>'
        b"</channel></rss>",
        source="s",
    )
    assert (
        again.articles[0].article_id == Article.create(source="z", title="u", guid="g-1").article_id
    )
    assert len(eacc.article_id) == 32


def test_cp1252_and_latin1_declared() -> None:
    body = "<title>Kenya’s graft war – update</title><link>https://e.org/a</link>"
    for declaration in ("windows-1252", "ISO-8859-1"):
        data = (
            f'<?xml version="1.0" encoding="{declaration}"?>'
            f'<rss version="2.0"><channel><item>{body}</item></channel></rss>'
        ).encode("cp1252")
        result = parse_feed(data, source="s")
        assert result.articles[0].title == "Kenya’s graft war – update"
        assert result.warnings == ()


def test_utf8_declared_but_cp1252_bytes() -> None:
    data = (
        '<?xml version="1.0" encoding="utf-8"?><rss version="2.0"><channel><item>'
        "<title>Mwananchi’s story</title><link>https://e.org/b</link></item></channel></rss>"
    ).encode("cp1252")
    result = parse_feed(data, source="s")
    assert result.articles[0].title == "Mwananchi’s story"
    assert result.warnings == ("feed is not valid UTF-8; read as Windows-1252",)


def test_rss_1_0_rdf() -> None:
    data = b"""<?xml version="1.0"?>
<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns="http://purl.org/rss/1.0/"
  xmlns:dc="http://purl.org/dc/elements/1.1/">
  <channel rdf:about="https://e.org/"><title>RDF wire</title></channel>
  <item rdf:about="https://e.org/1"><title>One</title><link>https://e.org/1</link>
    <dc:date>2024-01-02T03:04:05Z</dc:date><description>Text</description></item>
</rdf:RDF>"""
    result = parse_feed(data, source="s")
    assert result.feed_format == "rdf" and result.feed_title == "RDF wire"
    assert result.articles[0].published == "2024-01-02T03:04:05Z"


BILLION_LAUGHS = b"""<?xml version="1.0"?>
<!DOCTYPE rss [
  <!ENTITY lol "lol">
  <!ENTITY lol1 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
  <!ENTITY lol2 "&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;">
  <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
]>
<rss version="2.0"><channel><item><title>&lol3;</title></item></channel></rss>"""


@pytest.mark.parametrize(
    "data",
    [
        BILLION_LAUGHS,
        # A DTD hidden behind a long comment, past any "look at the first bytes" check.
        b"<?xml version='1.0'?><!--"
        + b"x" * 10000
        + b'--><!DOCTYPE rss SYSTEM "file:///etc/passwd">'
        b'<rss version="2.0"><channel/></rss>',
        b'<!DOCTYPE rss [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>'
        b'<rss version="2.0"><channel><item><title>&xxe;</title></item></channel></rss>',
    ],
)
def test_dtd_and_entities_are_refused(data: bytes) -> None:
    with pytest.raises(FeedFormatError, match="not accepted"):
        parse_feed(data, source="s")


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"<html><body>Not a feed</body></html>", "not an RSS or Atom feed"),
        (b"this is not xml at all", "not well-formed"),
        (b"", "not well-formed"),
        (b'<rss version="2.0"><channel><item></rss>', "not well-formed"),
        (b'<rss version="2.0"></rss>', "no <channel>"),
    ],
)
def test_not_a_feed(data: bytes, message: str) -> None:
    with pytest.raises(FeedFormatError, match=message):
        parse_feed(data, source="s")


def test_html_to_text() -> None:
    assert html_to_text("<p>A &amp; B</p><p>C&nbsp;D</p><style>p{}</style>") == "A & B\nC D"
    assert html_to_text("Plain &quot;text&quot;") == 'Plain "text"'


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("Tue, 05 Mar 2024 10:15:00 +0300", "2024-03-05T07:15:00Z"),
        ("Tue, 05 Mar 2024 10:15:00 WAT", "2024-03-05T09:15:00Z"),
        ("Tue, 05 Mar 2024 10:15:00 GMT", "2024-03-05T10:15:00Z"),
        ("2024-03-05T10:15:00Z", "2024-03-05T10:15:00Z"),
        ("2024-03-05T10:15:00", "2024-03-05T10:15:00Z"),
        ("2024-03-05", "2024-03-05"),
        ("yesterday", None),
    ],
)
def test_parse_date(value: str, expected: str | None) -> None:
    assert parse_date(value) == expected
