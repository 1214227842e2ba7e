"""RSS 2.0 (and 0.9x/1.0) and Atom 1.0 feeds to :class:`~.model.Article` items.

Safety: the XML is parsed with expat directly and any document type declaration is refused
before it is read (so no entity expansion, "billion laughs" or external entities), and feeds
over :data:`MAX_FEED_BYTES` are refused.

Encodings: a byte-order mark wins, then the XML declaration; ISO-8859-1 and ASCII are read
as Windows-1252 (as browsers do: feeds that declare Latin-1 routinely hold cp1252 quotes);
a feed that declares or implies UTF-8 but is not valid UTF-8 is read as Windows-1252 with a
warning. HTML named entities ("&nbsp;", "&rsquo;") that XML does not define are accepted.

Per item: title, link, published date (RFC 822 ``pubDate``, ``dc:date``, Atom
``published``/``updated``) as ISO 8601 in UTC (``2024-03-05T07:00:00Z``; a bare date stays a
date), text (``content:encoded``/Atom ``content``, else ``description``/``summary``) with
HTML tags stripped and entities unescaped, and guid/id. An item without title and text, or
with nothing to identify it, is skipped with a warning; an undated or oddly dated item is
kept with a warning. A document that is not XML, or not a feed, raises
:class:`FeedFormatError`.
"""

from __future__ import annotations

import codecs
import html
import re
import xml.etree.ElementTree as ET
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, date, datetime
from email.utils import parsedate_to_datetime
from html.entities import name2codepoint
from html.parser import HTMLParser
from urllib.parse import urljoin, urlsplit
from xml.parsers import expat

from hakiki.engines.adverse_media.model import Article

MAX_FEED_BYTES = 20 * 1024 * 1024

ATOM_NS = "http://www.w3.org/2005/Atom"
RSS1_NS = "http://purl.org/rss/1.0/"
RDF_NS = "http://www.w3.org/1999/02/22-rdf-syntax-ns#"
CONTENT_NS = "http://purl.org/rss/1.0/modules/content/"
DC_NS = "http://purl.org/dc/elements/1.1/"

_XML_ENTITIES = frozenset({"amp", "lt", "gt", "quot", "apos"})
_NAMED_ENTITY = re.compile(r"&([A-Za-z][A-Za-z0-9]{1,31});")
_DECLARATION = re.compile(rb"^\s*<\?xml[^>]*?encoding\s*=\s*[\"']([A-Za-z0-9._:-]+)[\"']")
_LATIN1 = frozenset({"iso8859-1", "latin-1", "ascii", "cp1252"})
# Time zones East and West African feeds write as letters, which RFC 822 parsing ignores.
_AFRICAN_ZONES = {"EAT": "+0300", "CAT": "+0200", "SAST": "+0200", "WAT": "+0100"}
_ZONE = re.compile(r"\b(EAT|CAT|SAST|WAT)\s*$")


class FeedFormatError(ValueError):
    """The document is not a feed this parser reads (or is refused)."""


@dataclass(frozen=True, slots=True)
class FeedParseResult:
    articles: tuple[Article, ...]
    warnings: tuple[str, ...]
    feed_title: str | None = None
    feed_format: str = ""  # "rss", "rdf" or "atom"


# --- decoding and safe XML ------------------------------------------------------------------


def _decode(data: bytes, warnings: list[str]) -> str:
    for bom, codec in ((codecs.BOM_UTF8, "utf-8"), (codecs.BOM_UTF16_LE, "utf-16-le")):
        if data.startswith(bom):
            return data[len(bom) :].decode(codec, errors="replace")
    if data.startswith(codecs.BOM_UTF16_BE):
        return data[2:].decode("utf-16-be", errors="replace")
    match = _DECLARATION.match(data)
    declared = match.group(1).decode("ascii").lower() if match else "utf-8"
    try:
        codec = codecs.lookup(declared).name
    except LookupError:
        warnings.append(f"unknown encoding {declared!r}; read as UTF-8")
        codec = "utf-8"
    if codec in _LATIN1:
        codec = "cp1252"
    try:
        return data.decode(codec)
    except UnicodeDecodeError:
        if codec == "utf-8":
            warnings.append("feed is not valid UTF-8; read as Windows-1252")
            return data.decode("cp1252", errors="replace")
        warnings.append(f"feed is not valid {codec}; undecodable bytes replaced")
        return data.decode(codec, errors="replace")


def _html_entity(match: re.Match[str]) -> str:
    name = match.group(1)
    if name in _XML_ENTITIES or name not in name2codepoint:
        return match.group(0)
    return f"&#{name2codepoint[name]};"


def _refuse(*_: object) -> int:
    raise FeedFormatError("document type declarations and entities are not accepted")


def parse_xml(data: bytes, warnings: list[str]) -> ET.Element:
    """Parse XML safely: no DTD, no entity declarations, no external entities."""
    if len(data) > MAX_FEED_BYTES:
        raise FeedFormatError(f"feed larger than {MAX_FEED_BYTES} bytes")
    text = _NAMED_ENTITY.sub(_html_entity, _decode(data, warnings).lstrip())
    builder = ET.TreeBuilder()
    parser = expat.ParserCreate(encoding="utf-8", namespace_separator="}")
    parser.buffer_text = True

    def start(name: str, attributes: dict[str, str]) -> None:
        builder.start(_tag(name), {_tag(k): v for k, v in attributes.items()})

    def end(name: str) -> None:
        builder.end(_tag(name))

    parser.StartElementHandler = start
    parser.EndElementHandler = end
    parser.CharacterDataHandler = builder.data
    parser.StartDoctypeDeclHandler = _refuse
    parser.EntityDeclHandler = _refuse
    parser.UnparsedEntityDeclHandler = _refuse
    parser.ExternalEntityRefHandler = _refuse
    try:
        parser.Parse(text.encode("utf-8"), True)
        root = builder.close()
    except expat.ExpatError as exc:
        raise FeedFormatError(f"not well-formed XML: {exc}") from exc
    except AssertionError as exc:  # TreeBuilder with no element at all
        raise FeedFormatError("no XML element found") from exc
    return root


def _tag(name: str) -> str:
    return "{" + name if "}" in name else name


def _local(tag: str) -> str:
    return tag.rsplit("}", 1)[-1]


def _ns(tag: str) -> str:
    return tag[1:].split("}", 1)[0] if tag.startswith("{") else ""


# --- text ---------------------------------------------------------------------------------

_BLOCK_TAGS = frozenset(
    {"p", "br", "div", "li", "ul", "ol", "h1", "h2", "h3", "h4", "h5", "h6", "tr", "table"}
    | {"blockquote", "section", "article", "header", "footer", "figure", "figcaption", "pre"}
    | {"hr", "dt", "dd"}
)
_SKIP_TAGS = frozenset({"script", "style", "noscript", "iframe", "object"})


class _TextExtractor(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.skipping = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in _SKIP_TAGS:
            self.skipping += 1
        elif tag in _BLOCK_TAGS:
            self.parts.append("\n")

    def handle_endtag(self, tag: str) -> None:
        if tag in _SKIP_TAGS:
            self.skipping = max(0, self.skipping - 1)
        elif tag in _BLOCK_TAGS:
            self.parts.append("\n")

    def handle_data(self, data: str) -> None:
        if not self.skipping:
            self.parts.append(_spaces(data))


_WHITESPACE = re.compile(r"[ \t\n\r\f\v]+")
_PARAGRAPH = re.compile(r"\n[ \t\r\f\v]*\n")


def _spaces(text: str) -> str:
    return _WHITESPACE.sub(" ", text)


def plain_text(text: str) -> str:
    """Plain text with its line wrapping undone: blank lines separate paragraphs."""
    return clean_text("\n".join(_spaces(p) for p in _PARAGRAPH.split(text)))


def clean_text(text: str) -> str:
    """Whitespace collapsed inside lines; blank lines dropped."""
    lines = (" ".join(line.split()) for line in text.splitlines())
    return "\n".join(line for line in lines if line)


def html_to_text(markup: str) -> str:
    """Plain text of an HTML fragment: tags dropped (block tags become line breaks, scripts
    and styles vanish), entities unescaped, whitespace collapsed."""
    if "<" not in markup:
        return clean_text(_spaces(html.unescape(markup)))
    extractor = _TextExtractor()
    extractor.feed(markup)
    extractor.close()
    return clean_text("".join(extractor.parts))


def _element_text(element: ET.Element | None, *, atom: bool = False) -> str:
    """Text of an RSS element (HTML) or an Atom text construct (text, html or xhtml)."""
    if element is None:
        return ""
    if atom:
        kind = (element.get("type") or "text").lower()
        if kind == "xhtml" or kind.endswith("xml"):
            parts: list[str] = []
            for node in element.iter():
                if _local(node.tag) in _BLOCK_TAGS:
                    parts.append("\n")
                parts.append(_spaces(node.text or ""))
                if node is not element:
                    parts.append(_spaces(node.tail or ""))
            return clean_text("".join(parts))
        if kind == "text" or kind.startswith("text/plain"):
            return plain_text(element.text or "")
    return html_to_text("".join(element.itertext()))


# --- dates --------------------------------------------------------------------------------


def parse_date(value: str) -> str | None:
    """ISO 8601 of an RFC 822 or ISO date; UTC when a time is given; None if unreadable."""
    value = " ".join(value.split())
    if not value:
        return None
    zone = _ZONE.search(value)
    if zone:
        value = value[: zone.start()] + _AFRICAN_ZONES[zone.group(1)]
    parsed: datetime | None = None
    try:
        parsed = parsedate_to_datetime(value)
    except (TypeError, ValueError, IndexError):
        parsed = None
    if parsed is None:
        try:
            parsed = datetime.fromisoformat(value)
        except ValueError:
            try:
                return date.fromisoformat(value[:10]).isoformat() if len(value) == 10 else None
            except ValueError:
                return None
        if len(value) == 10:
            return parsed.date().isoformat()
    if parsed.tzinfo is None:
        parsed = parsed.replace(tzinfo=UTC)
    return parsed.astimezone(UTC).isoformat(timespec="seconds").replace("+00:00", "Z")


# --- feeds --------------------------------------------------------------------------------


def _child(element: ET.Element, local: str, namespaces: Iterable[str] = ("",)) -> ET.Element | None:
    wanted = tuple(namespaces)
    for child in element:
        if _local(child.tag) == local and _ns(child.tag) in wanted:
            return child
    return None


def _child_text(element: ET.Element, local: str, namespaces: Iterable[str] = ("",)) -> str:
    found = _child(element, local, namespaces)
    return " ".join("".join(found.itertext()).split()) if found is not None else ""


def _web_link(value: str, base: str | None) -> str | None:
    value = value.strip()
    if not value:
        return None
    if base and not urlsplit(value).scheme:
        value = urljoin(base, value)
    if urlsplit(value).scheme.lower() not in ("http", "https"):
        return None
    return value


def parse_feed(data: bytes, *, source: str) -> FeedParseResult:
    """Parse an RSS or Atom feed into articles attributed to ``source`` (the operator's name
    for the feed, e.g. ``"nation.africa"``). Raises :class:`FeedFormatError` when the
    document is not a feed, not well-formed, or declares a DTD."""
    warnings: list[str] = []
    root = parse_xml(data, warnings)
    name, namespace = _local(root.tag), _ns(root.tag)
    if name == "feed" and namespace == ATOM_NS:
        feed_format, feed_title, articles = "atom", *_parse_atom(root, source, warnings)
    elif name == "rss" and namespace == "":
        channel = _child(root, "channel")
        if channel is None:
            raise FeedFormatError("RSS: no <channel> element")
        feed_format, feed_title, articles = "rss", *_parse_rss(channel, source, warnings)
    elif name == "RDF" and namespace == RDF_NS:
        channel = _child(root, "channel", (RSS1_NS,))
        feed_format = "rdf"
        feed_title = _child_text(channel, "title", (RSS1_NS,)) if channel is not None else ""
        items = [c for c in root if _local(c.tag) == "item" and _ns(c.tag) == RSS1_NS]
        articles = _rss_items(items, (RSS1_NS,), None, source, warnings)
    else:
        raise FeedFormatError(f"not an RSS or Atom feed (root element <{name}>)")
    return FeedParseResult(tuple(articles), tuple(warnings), feed_title or None, feed_format)


def _parse_rss(channel: ET.Element, source: str, warnings: list[str]) -> tuple[str, list[Article]]:
    title = _child_text(channel, "title")
    base = _child_text(channel, "link") or None
    items = [c for c in channel if c.tag == "item"]
    return title, _rss_items(items, ("",), base, source, warnings)


def _rss_items(
    items: list[ET.Element],
    namespaces: tuple[str, ...],
    base: str | None,
    source: str,
    warnings: list[str],
) -> list[Article]:
    articles: list[Article] = []
    for position, item in enumerate(items, 1):
        title = html_to_text(_child_text(item, "title", namespaces))
        raw_link = _child_text(item, "link", namespaces)
        if not raw_link:
            atom_link = _child(item, "link", (ATOM_NS,))
            raw_link = atom_link.get("href", "") if atom_link is not None else ""
        guid_element = _child(item, "guid", namespaces)
        guid = " ".join((guid_element.text or "").split()) if guid_element is not None else ""
        permalink = guid_element is not None and (
            (guid_element.get("isPermaLink") or "true").lower() == "true"
        )
        if not raw_link and permalink and guid.startswith(("http://", "https://")):
            raw_link = guid
        content = _element_text(_child(item, "encoded", (CONTENT_NS,)))
        summary = _element_text(_child(item, "description", namespaces))
        date_text = (
            _child_text(item, "pubDate", namespaces)
            or _child_text(item, "date", (DC_NS,))
            or _child_text(item, "updated", (ATOM_NS,))
        )
        article = _make_article(
            f"item #{position}",
            source=source,
            title=title,
            raw_link=raw_link,
            base=base,
            guid=guid or None,
            date_text=date_text,
            content=content,
            summary=summary,
            warnings=warnings,
        )
        if article is not None:
            articles.append(article)
    return articles


def _atom_link(element: ET.Element, base: str | None) -> str | None:
    links = [c for c in element if _local(c.tag) == "link" and _ns(c.tag) == ATOM_NS]
    for link in links:
        if (link.get("rel") or "alternate") == "alternate" and link.get("href"):
            return _web_link(link.get("href", ""), base)
    return None


def _parse_atom(root: ET.Element, source: str, warnings: list[str]) -> tuple[str, list[Article]]:
    atom = (ATOM_NS,)
    feed_title = _element_text(_child(root, "title", atom), atom=True)
    base = _atom_link(root, None)
    articles: list[Article] = []
    entries = [c for c in root if _local(c.tag) == "entry" and _ns(c.tag) == ATOM_NS]
    for position, entry in enumerate(entries, 1):
        link = _atom_link(entry, base)
        article = _make_article(
            f"entry #{position}",
            source=source,
            title=_element_text(_child(entry, "title", atom), atom=True),
            raw_link=link or "",
            base=base,
            guid=_child_text(entry, "id", atom) or None,
            date_text=_child_text(entry, "published", atom) or _child_text(entry, "updated", atom),
            content=_element_text(_child(entry, "content", atom), atom=True),
            summary=_element_text(_child(entry, "summary", atom), atom=True),
            warnings=warnings,
        )
        if article is not None:
            articles.append(article)
    return feed_title, articles


def _make_article(
    label: str,
    *,
    source: str,
    title: str,
    raw_link: str,
    base: str | None,
    guid: str | None,
    date_text: str,
    content: str,
    summary: str,
    warnings: list[str],
) -> Article | None:
    link = _web_link(raw_link, base) if raw_link else None
    if raw_link and link is None:
        warnings.append(f"{label}: link {raw_link[:80]!r} is not a web address; dropped")
    if content and summary and summary not in content:
        text = f"{summary}\n{content}"
    else:
        text = content or summary
    if not title and not text:
        warnings.append(f"{label}: no title and no text; skipped")
        return None
    if link is None and guid is None:
        warnings.append(f"{label}: no link and no guid; skipped")
        return None
    published = parse_date(date_text) if date_text else None
    if date_text and published is None:
        warnings.append(f"{label}: date {date_text[:40]!r} not understood")
    return Article.create(
        source=source,
        title=title or text.split("\n", 1)[0][:200],
        url=link,
        published=published,
        text=text,
        guid=guid,
    )
