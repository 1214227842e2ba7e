"""Accessibility checks shared by the page tests and the browser tests: every form control has
a label, and every colour pair of the stylesheet meets WCAG AA contrast (4.5:1)."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

import hakiki.console

STYLESHEET = Path(hakiki.console.__file__).parent / "static" / "console.css"
PAGE_BACKGROUND = "#ffffff"
AA_NORMAL_TEXT = 4.5


class _Controls(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.controls: list[dict[str, str | None]] = []
        self.label_for: set[str] = set()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        attributes = dict(attrs)
        if tag == "label" and attributes.get("for"):
            self.label_for.add(str(attributes["for"]))
        if tag in ("input", "select", "textarea") and attributes.get("type") != "hidden":
            self.controls.append({"tag": tag, **attributes})


def unlabelled(html: str) -> list[str]:
    """The form controls of ``html`` with neither a <label for> nor an aria-label."""
    parser = _Controls()
    parser.feed(html)
    return [
        str(c)
        for c in parser.controls
        if not c.get("aria-label") and (c.get("id") or "") not in parser.label_for
    ]


def _luminance(colour: str) -> float:
    value = colour.lstrip("#")
    if len(value) == 3:
        value = "".join(ch * 2 for ch in value)
    channels = [int(value[i : i + 2], 16) / 255 for i in (0, 2, 4)]
    linear = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast(foreground: str, background: str) -> float:
    lighter, darker = sorted((_luminance(foreground), _luminance(background)), reverse=True)
    return (lighter + 0.05) / (darker + 0.05)


def colour_pairs(css: str) -> list[tuple[str, str, str]]:
    """(selector, color, background) of every rule that sets a text colour: its own background,
    else the page's."""
    pairs = []
    for selector, body in re.findall(r"([^{}]+)\{([^}]*)\}", css):
        color = re.search(r"(?<![-\w])color:\s*(#[0-9a-fA-F]{3,6})", body)
        if color is None:
            continue
        background = re.search(r"background(?:-color)?:\s*(#[0-9a-fA-F]{3,6})", body)
        pairs.append(
            (
                selector.strip().splitlines()[-1].strip(),
                color.group(1),
                background.group(1) if background else PAGE_BACKGROUND,
            )
        )
    return pairs


def low_contrast(css: str | None = None) -> list[str]:
    css = STYLESHEET.read_text() if css is None else css
    return [
        f"{selector}: {fg} on {bg} is {contrast(fg, bg):.2f}:1"
        for selector, fg, bg in colour_pairs(css)
        if contrast(fg, bg) < AA_NORMAL_TEXT
    ]
