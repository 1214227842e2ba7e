"""Document specimens rendered here (no third-party images): a card with a zone printed in the
OCR-B font Hakiki ships, a portrait-shaped block and a visual zone (labelled fields printed as
the zone has them, or otherwise for a doctored one); then photographed badly on purpose
(rotated, blurred, JPEG-compressed, at a slant), cropped to the zone alone, framed, or scanned
beside its other side. Visas (MRV-A, MRV-B) are rendered the same way."""

from __future__ import annotations

import io

import numpy as np
from PIL import Image, ImageDraw, ImageFilter, ImageFont

from hakiki.engines.documents.ocrb import _font_path
from hakiki.engines.mrz.zones import MrzError, parse_text

MONTHS = ["JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC"]
# The visual zone's fields: label, then where (column, row) right of the portrait.
FIELDS = {
    "surname": ("Surname/Nom", 0, 0),
    "sex": ("Sex/Sexe", 1, 0),
    "given_names": ("Given names/Prenoms", 0, 1),
    "document_number": ("Document No.", 1, 1),
    "birth_date": ("Date of birth", 0, 2),
    "expiry_date": ("Date of expiry", 1, 2),
}
COLUMNS = ((0.36, 0.34), (0.74, 0.22))  # left edge and width, in card widths

# ICAO 9303 part 5's TD1 example, and a Kenyan-style card of the same layout.
TD1_UTOPIA = (
    "I<UTOD231458907<<<<<<<<<<<<<<<",
    "7408122F1204159UTO<<<<<<<<<<<6",
    "ERIKSSON<<ANNA<MARIA<<<<<<<<<<",
)
TD1_KENYA = (
    "IDKEN1234567897<<<<<<<<<<<<<<<",
    "9001011M3012316KEN<<<<<<<<<<<4",
    "WANJIRU<<AKINYI<KAMAU<<<<<<<<<",
)


def printed_date(yymmdd: str, birth: bool) -> str:
    """A zone's date as a document prints it: 12 AUG 1974."""
    year = int(yymmdd[:2])
    century = 1900 if birth and year > 30 else 2000
    return f"{yymmdd[4:6]} {MONTHS[int(yymmdd[2:4]) - 1]} {century + year}"


def visual_fields(lines: tuple[str, ...]) -> dict[str, str]:
    """The fields a document prints from its zone (none when ``lines`` are not a zone)."""
    try:
        zone = parse_text(lines)
    except MrzError:
        return {}
    return {
        "surname": zone.surname,
        "given_names": zone.given_names,
        "document_number": zone.document_number,
        "sex": zone.sex,
        "birth_date": printed_date(zone.birth_date, True),
        "expiry_date": printed_date(zone.expiry_date, False),
    }


def _fitted(text: str, size: int, width: float) -> ImageFont.FreeTypeFont:
    font = ImageFont.truetype(_font_path(), size)
    return ImageFont.truetype(_font_path(), min(size, int(size * width / font.getlength(text))))


def _print_fields(
    draw: ImageDraw.ImageDraw, fields: dict[str, str], width: int, top: float, bottom: float
) -> None:
    """Each field's label in small type, its value under it, in two columns right of the
    portrait, in three rows between ``top`` and ``bottom``."""
    row_height = (bottom - top) / 3
    for field, text in fields.items():
        name, column, row = FIELDS[field]
        left, span = COLUMNS[column]
        x, y = width * left, top + row * row_height
        label = _fitted(name, round(row_height * 0.24), width * span)
        draw.text((x, y), name, font=label, fill=(60, 60, 110))
        value = _fitted(text, round(row_height * 0.4), width * span)
        draw.text((x, y + row_height * 0.34), text, font=value, fill=(15, 15, 15))


def render_card(
    lines: tuple[str, ...],
    *,
    width: int = 1100,
    angle: float = 0.0,
    blur: float = 0.0,
    quality: int = 90,
    fmt: str = "JPEG",
    portrait: bytes | None = None,
    visual: bool = False,
    printed: dict[str, str] | None = None,
) -> bytes:
    """An ID-1 card (85.6 x 54 mm) whose bottom holds ``lines``, on a grey table; with
    ``visual``, a visual zone printing the zone's fields, ``printed`` replacing some."""
    height = round(width * 54 / 85.6)
    card = Image.new("RGB", (width, height), (236, 238, 230))
    draw = ImageDraw.Draw(card)
    probe = ImageFont.truetype(_font_path(), 100)
    size = int(100 * width * 0.9 / probe.getlength(lines[0]))
    font = ImageFont.truetype(_font_path(), size)
    label = ImageFont.truetype(_font_path(), size // 2)
    box = (int(width * 0.05), int(height * 0.08), int(width * 0.3), int(height * 0.55))
    draw.rectangle(box, fill=(150, 120, 100))
    if portrait is not None:
        face = Image.open(io.BytesIO(portrait)).convert("RGB")
        face.thumbnail((box[2] - box[0], box[3] - box[1]))
        card.paste(face, (box[0], box[1]))
    top = height - len(lines) * size * 1.35 - height * 0.04
    fields = {**visual_fields(lines), **(printed or {})} if visual or printed else {}
    if fields:
        title = "REPUBLIC OF UTOPIA  IDENTITY CARD"
        header = _fitted(title, round(height * 0.05), width * 0.6)
        draw.text((width * 0.36, height * 0.05), title, font=header, fill=(30, 30, 90))
        _print_fields(draw, fields, width, height * 0.15, top - height * 0.03)
    else:
        draw.text((width * 0.36, height * 0.1), "REPUBLIC OF UTOPIA", font=label,
                  fill=(30, 30, 90))  # fmt: skip
        draw.text((width * 0.36, height * 0.22), "IDENTITY CARD", font=label, fill=(30, 30, 90))
    for i, line in enumerate(lines):
        draw.text((width * 0.05, top + i * size * 1.35), line, font=font, fill=(20, 20, 20))
    table = Image.new("RGB", (int(width * 1.25), int(height * 1.35)), (95, 100, 105))
    table.paste(card, (int(width * 0.125), int(height * 0.175)))
    photo = table.rotate(angle, Image.Resampling.BICUBIC, expand=True, fillcolor=(95, 100, 105))
    if blur:
        photo = photo.filter(ImageFilter.GaussianBlur(blur))
    out = io.BytesIO()
    photo.save(out, fmt, **({"quality": quality} if fmt == "JPEG" else {}))
    return out.getvalue()


# ICAO 9303 part 7's visa examples (MRV-A and MRV-B), check digits recomputed.
MRV_A = (
    "V<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<",
    "L8988901C4XXX4009078F96121096ZE184226B<<<<<<",
)
MRV_B = (
    "V<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<",
    "L8988901C4XXX4009078F9612109<<<<<<<<",
)
_TABLE = (95, 100, 105)


def _image(data: bytes) -> Image.Image:
    return Image.open(io.BytesIO(data)).convert("RGB")


def _png(image: Image.Image) -> bytes:
    out = io.BytesIO()
    image.save(out, "PNG")
    return out.getvalue()


def card_only(lines: tuple[str, ...], width: int = 900) -> Image.Image:
    """The card of :func:`render_card` without the table around it."""
    height = round(width * 54 / 85.6)
    table = _image(render_card(lines, width=width, fmt="PNG"))
    left, top = int(width * 0.125), int(height * 0.175)
    return table.crop((left, top, left + width, top + height))


def zone_box(card: Image.Image) -> tuple[int, int, int, int]:
    """The zone's ink on a card of :func:`card_only`: left, top, right, bottom."""
    dark = np.asarray(card.convert("L")) < 60
    lower = dark[int(card.height * 0.6) :]
    rows = np.flatnonzero(lower.any(axis=1)) + int(card.height * 0.6)
    columns = np.flatnonzero(dark[rows[0] : rows[-1] + 1].any(axis=0))
    return int(columns[0]), int(rows[0]), int(columns[-1]) + 1, int(rows[-1]) + 1


def tight_strip(lines: tuple[str, ...], margin: int = 3) -> bytes:
    """Only the zone, ``margin`` pixels of card around its ink."""
    card = card_only(lines)
    left, top, right, bottom = zone_box(card)
    return _png(card.crop((left - margin, top - margin, right + margin, bottom + margin)))


def framed(lines: tuple[str, ...]) -> bytes:
    """A card whose zone is boxed by a printed frame half a character from the glyphs."""
    card = card_only(lines)
    left, top, right, bottom = zone_box(card)
    gap = (right - left) // (2 * len(lines[0]))
    ImageDraw.Draw(card).rectangle(
        (left - gap, top - gap, right + gap, bottom + gap), outline=(20, 20, 20), width=3
    )
    return _png(card)


def two_sides(lines: tuple[str, ...]) -> bytes:
    """Front (no zone) and back (the zone) scanned side by side on white."""
    back = card_only(lines)
    front = back.copy()
    left, top, right, bottom = zone_box(back)
    ImageDraw.Draw(front).rectangle((left, top, right, bottom), fill=(236, 238, 230))
    # The scanner's glass around and between them: the zone is about 40% of the width.
    space = 50
    both = Image.new("RGB", (back.width * 2 + 3 * space, back.height + 2 * space), "white")
    both.paste(front, (space, space))
    both.paste(back, (back.width + 2 * space, space))
    return _png(both)


def slanted(lines: tuple[str, ...], corners: tuple[tuple[float, float], ...]) -> bytes:
    """The card on its table photographed at a slant: its corners (top-left, top-right,
    bottom-right, bottom-left, as fractions of the photo) moved to ``corners``."""
    photo = _image(render_card(lines, width=900, fmt="PNG"))
    width, height = photo.size
    # PIL's perspective transform maps each output pixel to an input one: solve for it.
    target = [(x * width, y * height) for x, y in corners]
    source = [(0, 0), (width, 0), (width, height), (0, height)]
    rows = []
    for (x, y), (u, v) in zip(target, source, strict=True):
        rows.append([x, y, 1, 0, 0, 0, -u * x, -u * y])
        rows.append([0, 0, 0, x, y, 1, -v * x, -v * y])
    coefficients = np.linalg.solve(np.array(rows), np.array(source).ravel())
    warped = photo.transform(
        photo.size, Image.Transform.PERSPECTIVE, tuple(coefficients), Image.Resampling.BICUBIC,
        fillcolor=_TABLE,
    )  # fmt: skip
    return _png(warped)
