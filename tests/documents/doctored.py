"""Doctored copies of a genuine document image, for the forensic checks (issue 32): each edit
one a forger makes, saved the way a forger would save it (no editor named in the metadata,
except for the copy an editor saved)."""

from __future__ import annotations

import io
from collections.abc import Callable

import numpy as np
from PIL import Image, ImageDraw, ImageFont

from hakiki.engines.documents.ocrb import _font_path

Doctored = tuple[bytes, str]  # the file, its format


def _jpeg(image: Image.Image, quality: int = 90, **options: object) -> bytes:
    out = io.BytesIO()
    image.convert("RGB").save(out, "JPEG", quality=quality, **options)
    return out.getvalue()


def _png(image: Image.Image) -> bytes:
    out = io.BytesIO()
    image.convert("RGB").save(out, "PNG")
    return out.getvalue()


def _textured_box(image: Image.Image, size: tuple[int, int]) -> tuple[int, int, int, int]:
    """The most detailed box of ``size`` on a coarse grid (the portrait, printed fields)."""
    grey = np.asarray(image.convert("L"), dtype=np.float32)
    w, h = size
    best, found = -1.0, (0, 0, w, h)
    for y in range(0, max(1, image.height - h), max(1, h // 2)):
        for x in range(0, max(1, image.width - w), max(1, w // 2)):
            spread = float(grey[y : y + h, x : x + w].std())
            if spread > best:
                best, found = spread, (x, y, x + w, y + h)
    return found


def pasted_photo(image: Image.Image, face: Image.Image) -> Doctored:
    """Another picture pasted over the document's most detailed region (its portrait, on most
    documents), at a quarter of the width, then saved as JPEG."""
    w = image.width // 4
    h = round(w * 1.3)
    box = _textured_box(image, (w, h))
    doctored = image.convert("RGB")
    doctored.paste(face.convert("RGB").resize((w, h)), box[:2])
    return _jpeg(doctored), "JPEG"


def copied_region(image: Image.Image) -> Doctored:
    """A printed region copied over another part of the same document (a date changed with
    the document's own digits), then saved as JPEG."""
    w, h = image.width // 6, image.height // 10
    x0, y0, _x1, _y1 = _textured_box(image, (w, h))
    doctored = image.convert("RGB")
    # Pasted a third of the width away (right, or left when there is no room).
    x = x0 + image.width // 3 if x0 + image.width // 3 + w <= image.width else x0 - image.width // 3
    y = min(max(0, y0 + h * 2), image.height - h)
    doctored.paste(doctored.crop((x0, y0, x0 + w, y0 + h)), (max(0, x), y))
    return _jpeg(doctored), "JPEG"


def redrawn_date(image: Image.Image) -> Doctored:
    """A field redrawn: a patch of the paper's colour over printed text, a new date typed in
    with another font, then the whole saved as JPEG at a phone's quality."""
    doctored = image.convert("RGB")
    w, h = image.width // 5, max(8, image.height // 18)
    x0, y0, x1, y1 = _textured_box(image, (w, h))
    paper = tuple(int(v) for v in np.percentile(np.asarray(doctored), 90, axis=(0, 1)))
    draw = ImageDraw.Draw(doctored)
    draw.rectangle((x0, y0, x1, y1), fill=paper)
    font = ImageFont.truetype(_font_path(), max(6, int(h * 0.8)))
    draw.text((x0 + 2, y0), "01.01.2031", font=font, fill=(25, 25, 35))
    return _jpeg(doctored, quality=95), "JPEG"


def screenshot(image: Image.Image) -> Doctored:
    """The document shown on a phone (1080 x 2340) and captured: a status bar, an app's bars,
    the document fitted in between; PNG, no camera metadata."""
    screen = Image.new("RGB", (1080, 2340), (245, 245, 247))
    draw = ImageDraw.Draw(screen)
    draw.rectangle((0, 0, 1080, 90), fill=(20, 20, 20))  # status bar
    draw.text((40, 30), "12:41", fill=(255, 255, 255))
    draw.rectangle((0, 90, 1080, 250), fill=(33, 90, 170))  # the app's title bar
    draw.rectangle((0, 2180, 1080, 2340), fill=(250, 250, 250))  # navigation bar
    shown = image.convert("RGB")
    shown.thumbnail((1040, 1800))
    screen.paste(shown, ((1080 - shown.width) // 2, 300))
    return _png(screen), "PNG"


def photo_of_screen(image: Image.Image) -> Doctored:
    """The document shown on a screen and photographed: each pixel drawn as three sub-pixel
    stripes (red, green, blue) with dark gaps, the screen's grid resampled by the camera at a
    slight angle and an odd scale (the moiré), then saved as a phone's JPEG."""
    shown = image.convert("RGB")
    shown.thumbnail((600, 600))
    pixels = np.asarray(shown, dtype=np.float32)
    cell = 4  # screen pixel = 4 x 4 device dots: 3 stripes and a gap
    big = np.repeat(np.repeat(pixels, cell, axis=0), cell, axis=1)
    mask = np.zeros((cell, cell, 3), dtype=np.float32)
    for channel in range(3):
        mask[: cell - 1, channel, channel] = 1.0
    grid = np.tile(mask, (pixels.shape[0], pixels.shape[1], 1))
    lit = Image.fromarray((big * grid * 1.6).clip(0, 255).astype(np.uint8))
    camera = lit.rotate(3.0, Image.Resampling.BILINEAR, expand=True, fillcolor=(10, 10, 10))
    camera = camera.resize(
        (round(camera.width / 1.87), round(camera.height / 1.87)), Image.Resampling.BILINEAR
    )
    return _jpeg(camera, quality=88), "JPEG"


def editor_saved(image: Image.Image) -> Doctored:
    """The unchanged document saved by an editor: EXIF ``Software`` names it."""
    exif = Image.Exif()
    exif[305] = "Adobe Photoshop 25.0 (Windows)"
    return _jpeg(image, exif=exif), "JPEG"


def glare(image: Image.Image) -> Doctored:
    """Not an edit: a lamp's reflection over the middle of the document (a burnt-out core
    fading out over 15% of the width), photographed as a phone's JPEG."""
    pixels = np.asarray(image.convert("RGB"), dtype=np.float32)
    yy, xx = np.mgrid[: image.height, : image.width]
    sigma = 0.075 * image.width
    away = (xx - 0.55 * image.width) ** 2 + (yy - 0.45 * image.height) ** 2
    spot = np.clip(np.exp(-away / (2 * sigma**2)) * 1.6, 0, 1)[..., None]
    lit = pixels + (255 - pixels) * spot
    return _jpeg(Image.fromarray(lit.clip(0, 255).astype(np.uint8)), quality=92), "JPEG"


EDITS: dict[str, Callable[..., Doctored]] = {
    "pasted_photo": pasted_photo,
    "copied_region": copied_region,
    "redrawn_date": redrawn_date,
    "screenshot": screenshot,
    "photo_of_screen": photo_of_screen,
    "editor_saved": editor_saved,
    "glare": glare,
}
# The check that exists to catch each edit.
CAUGHT_BY = {
    "pasted_photo": ("error_level", "copy_move", "recompression"),
    "copied_region": ("copy_move", "error_level", "recompression"),
    "redrawn_date": ("error_level", "copy_move", "recompression"),
    "screenshot": ("screen",),
    "photo_of_screen": ("screen",),
    "editor_saved": ("editing_software",),
    "glare": ("quality",),
}
