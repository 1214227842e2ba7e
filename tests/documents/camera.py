"""Camera photos of our own rendered documents (:mod:`tests.documents.specimens`): what a phone
does to a document held over a table. Every effect is seeded and deterministic.

- perspective: each corner moved inwards by up to ``perspective`` of the image's size;
- rotation by any angle (the frame grows to keep the whole document);
- curvature: a page bent like an open passport (rows sag by ``curvature`` of the height);
- blur (Gaussian, in pixels), glare (a bright soft spot), a thumb over a corner;
- small size (the longest side in pixels) and JPEG at phone quality.
"""

from __future__ import annotations

import io
from dataclasses import dataclass

import cv2
import numpy as np
from PIL import Image, ImageDraw, ImageFilter


@dataclass(frozen=True)
class Shot:
    name: str
    perspective: float = 0.0
    rotation: float = 0.0
    curvature: float = 0.0
    blur: float = 0.0
    glare: float = 0.0  # strength of the bright spot, 0-1
    thumb: bool = False
    longest: int = 1400
    quality: int = 82
    seed: int = 0


# Seven photos, as the seven camera photos: one effect each on top of phone JPEG.
SHOTS = (
    Shot("tilted 35 degrees", rotation=35, blur=0.8, seed=1),
    Shot("perspective", perspective=0.12, blur=0.6, seed=2),
    Shot("curved page", curvature=0.025, perspective=0.04, seed=3),
    Shot("glare", glare=0.8, perspective=0.05, seed=4),
    Shot("thumb over a corner", thumb=True, rotation=-6, seed=5),
    Shot("small and soft", longest=700, blur=1.0, quality=70, seed=6),
    Shot("upside down, tilted", rotation=172, perspective=0.05, blur=0.7, seed=7),
)


def _perspective(image: np.ndarray, amount: float, rng: np.random.Generator) -> np.ndarray:
    height, width = image.shape[:2]
    corners = np.float32([[0, 0], [width, 0], [width, height], [0, height]])
    inwards = np.float32([[1, 1], [-1, 1], [-1, -1], [1, -1]])
    moved = corners + inwards * rng.uniform(0, amount, (4, 1)) * np.float32([width, height])
    matrix = cv2.getPerspectiveTransform(corners, moved.astype(np.float32))
    return cv2.warpPerspective(
        image, matrix, (width, height), borderMode=cv2.BORDER_CONSTANT, borderValue=(90, 95, 100)
    )


def _curve(image: np.ndarray, amount: float) -> np.ndarray:
    height, width = image.shape[:2]
    xs, ys = np.meshgrid(np.arange(width, dtype=np.float32), np.arange(height, dtype=np.float32))
    sag = amount * height * np.sin(np.pi * xs / width)
    return cv2.remap(
        image, xs, ys - sag, cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT,
        borderValue=(90, 95, 100),
    )  # fmt: skip


def _glare(image: Image.Image, strength: float, rng: np.random.Generator) -> Image.Image:
    width, height = image.size
    spot = Image.new("L", image.size, 0)
    cx, cy = rng.uniform(0.3, 0.7) * width, rng.uniform(0.3, 0.6) * height
    radius = 0.22 * min(width, height)
    ImageDraw.Draw(spot).ellipse((cx - radius, cy - radius, cx + radius, cy + radius), fill=255)
    spot = spot.filter(ImageFilter.GaussianBlur(radius / 2))
    white = Image.new("RGB", image.size, (255, 255, 250))
    mask = spot.point(lambda v: int(v * strength))
    return Image.composite(white, image, mask)


def _thumb(image: Image.Image, rng: np.random.Generator) -> Image.Image:
    width, height = image.size
    drawn = image.copy()
    draw = ImageDraw.Draw(drawn)
    w, h = 0.16 * width, 0.3 * height
    x = width - w * rng.uniform(0.6, 0.9)
    y = height - h * rng.uniform(0.5, 0.8)
    draw.ellipse((x, y, x + 2 * w, y + 2 * h), fill=(214, 160, 130))
    return drawn


def photograph(document: bytes, shot: Shot) -> bytes:
    """``document`` (an image file) as the phone of ``shot`` takes it: JPEG bytes."""
    rng = np.random.default_rng(shot.seed)
    image = Image.open(io.BytesIO(document)).convert("RGB")
    pixels = np.asarray(image)
    if shot.curvature:
        pixels = _curve(pixels, shot.curvature)
    if shot.perspective:
        pixels = _perspective(pixels, shot.perspective, rng)
    photo = Image.fromarray(pixels)
    if shot.rotation:
        photo = photo.rotate(
            shot.rotation, Image.Resampling.BICUBIC, expand=True, fillcolor=(90, 95, 100)
        )
    if shot.glare:
        photo = _glare(photo, shot.glare, rng)
    if shot.thumb:
        photo = _thumb(photo, rng)
    if shot.blur:
        photo = photo.filter(ImageFilter.GaussianBlur(shot.blur))
    scale = shot.longest / max(photo.size)
    if scale < 1:
        photo = photo.resize(
            (round(photo.width * scale), round(photo.height * scale)), Image.Resampling.LANCZOS
        )
    out = io.BytesIO()
    photo.save(out, "JPEG", quality=shot.quality)
    return out.getvalue()
