"""Document specimens rendered here (no third-party images): a card with a zone printed in the
OCR-B font Hakiki ships, a portrait-shaped block and some visual-zone text; then photographed
badly on purpose (rotated, blurred, JPEG-compressed)."""

from __future__ import annotations

import io

from PIL import Image, ImageDraw, ImageFilter, ImageFont

from hakiki.engines.documents.ocrb import _font_path

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


def render_card(
    lines: tuple[str, ...],
    *,
    width: int = 1100,
    angle: float = 0.0,
    blur: float = 0.0,
    quality: int = 90,
    fmt: str = "JPEG",
    portrait: bytes | None = None,
) -> bytes:
    """An ID-1 card (85.6 x 54 mm) whose bottom holds ``lines``, on a grey table."""
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
    draw.text((width * 0.36, height * 0.1), "REPUBLIC OF UTOPIA", font=label, fill=(30, 30, 90))
    draw.text((width * 0.36, height * 0.22), "IDENTITY CARD", font=label, fill=(30, 30, 90))
    top = height - len(lines) * size * 1.35 - height * 0.04
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
