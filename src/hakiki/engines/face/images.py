"""Loading untrusted uploaded images: size, format and decompression-bomb guards.

Every refusal raises a subclass of :class:`FaceImageError` whose message says what was wrong;
the HTTP layer turns them into 400 responses. The guards run in this order, cheapest first:

1. the byte size (before any parsing);
2. the format, sniffed from the magic bytes (JPEG, PNG, WebP); Pillow is then told to use that
   one decoder only, so no other of its parsers ever sees the bytes;
3. the declared dimensions, read from the header before any pixel is decoded: more than
   ``max_pixels`` is refused (Pillow's own ``DecompressionBombError`` is caught too, and its
   mere warning is never relied on);
4. decoding (a truncated or corrupt file is refused), EXIF orientation applied, RGB conversion.
"""

from __future__ import annotations

import io
from dataclasses import dataclass

import numpy as np
from PIL import Image, ImageOps, UnidentifiedImageError

# 10 MiB: a phone selfie is 1-5 MB as JPEG.
DEFAULT_MAX_BYTES = 10 * 1024 * 1024
# 40 megapixels: above the largest common phone cameras (e.g. 8000 x 5000), far below a bomb.
DEFAULT_MAX_PIXELS = 40_000_000
ALLOWED_FORMATS = ("JPEG", "PNG", "WEBP")


class FaceImageError(ValueError):
    """An uploaded image was refused; ``code`` is a stable machine-readable reason."""

    code = "invalid_image"


class ImageTooLargeError(FaceImageError):
    code = "image_too_large"


class ImageDimensionsError(FaceImageError):
    code = "image_dimensions_too_large"


class UnsupportedImageFormatError(FaceImageError):
    code = "unsupported_image_format"


class CorruptImageError(FaceImageError):
    code = "corrupt_image"


@dataclass(frozen=True, slots=True)
class LoadedImage:
    pixels: np.ndarray  # height x width x 3, uint8, RGB, EXIF orientation applied
    format: str  # JPEG, PNG or WEBP
    original_size: tuple[int, int]  # width, height as declared by the file

    @property
    def size(self) -> tuple[int, int]:
        return self.pixels.shape[1], self.pixels.shape[0]


def sniff_format(data: bytes) -> str | None:
    """The image format from its magic bytes, or None when it is not an allowed one."""
    if data[:3] == b"\xff\xd8\xff":
        return "JPEG"
    if data[:8] == b"\x89PNG\r\n\x1a\n":
        return "PNG"
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return "WEBP"
    return None


def load_image(
    data: bytes,
    *,
    max_bytes: int = DEFAULT_MAX_BYTES,
    max_pixels: int = DEFAULT_MAX_PIXELS,
    max_side: int | None = None,
) -> LoadedImage:
    """Decode an uploaded image into an RGB array, refusing anything unsafe or unexpected.

    ``max_side`` shrinks the decoded image (keeping its aspect ratio) so that its longest side
    is at most that many pixels; JPEGs are then decoded at reduced scale directly (draft mode),
    which is much faster than decoding at full size and resizing.
    """
    if len(data) == 0:
        raise CorruptImageError("the image is empty")
    if len(data) > max_bytes:
        raise ImageTooLargeError(
            f"the image is {len(data):,} bytes; the limit is {max_bytes:,} bytes"
        )
    fmt = sniff_format(data)
    if fmt is None:
        raise UnsupportedImageFormatError(
            "the image format is not supported; send a JPEG, PNG or WebP image"
        )
    try:
        image = Image.open(io.BytesIO(data), formats=[fmt])
    except Image.DecompressionBombError as exc:
        raise ImageDimensionsError(
            f"the image declares too many pixels; the limit is {max_pixels:,} pixels"
        ) from exc
    except (UnidentifiedImageError, OSError, SyntaxError, ValueError) as exc:
        raise CorruptImageError(f"the {fmt} image could not be read: {exc}") from exc
    with image:
        width, height = image.size
        if width <= 0 or height <= 0:
            raise CorruptImageError("the image has no pixels")
        if width * height > max_pixels:
            raise ImageDimensionsError(
                f"the image is {width} x {height} = {width * height:,} pixels; "
                f"the limit is {max_pixels:,} pixels"
            )
        try:
            if max_side is not None and fmt == "JPEG":
                image.draft("RGB", (max_side, max_side))
            image.load()
            oriented = ImageOps.exif_transpose(image)
            rgb = oriented.convert("RGB")
            if max_side is not None and max(rgb.size) > max_side:
                rgb.thumbnail((max_side, max_side), Image.Resampling.BILINEAR)
        except Image.DecompressionBombError as exc:
            raise ImageDimensionsError(
                f"the image declares too many pixels; the limit is {max_pixels:,} pixels"
            ) from exc
        except (OSError, SyntaxError, ValueError) as exc:
            raise CorruptImageError(f"the {fmt} image could not be decoded: {exc}") from exc
        pixels = np.ascontiguousarray(np.asarray(rgb, dtype=np.uint8))
    return LoadedImage(pixels=pixels, format=fmt, original_size=(width, height))
