"""Test helper: a real face photo turned in depth, frame by frame, as a head turning left and
right (a y4m file for Chromium's fake camera, or JPEG frames for the API).

A flat photo warped in 2-D does not turn: the nose moves with the eyes. Here each pixel of the
face is given a depth (an ellipsoid over the face with a bump at the nose) and moved sideways
by ``depth * sin(angle)``, so the nose, nearer the camera, moves more than the eyes and the
cheeks, as in a real turn. Positive angles turn the head to the subject's own left (the nose
towards the right of an unmirrored camera image).

The faces are tests/engines/face/data (ageitgey/face_recognition, MIT; US government portraits,
public domain: that folder's SOURCES.md)."""

from __future__ import annotations

import io
import math
from collections.abc import Sequence
from pathlib import Path

import numpy as np
from PIL import Image

FACES = Path(__file__).resolve().parents[1] / "engines" / "face" / "data"
WIDTH, HEIGHT = 320, 240
FPS = 10
LEAD_MS = 1000
STEP_MS = 2000
TURN_DEGREES = 28.0
# Where the photos' faces are (dlib's box, x0 y0 x1 y1), to crop them alike.
_FACE_BOXES = {
    "obama2.jpg": (164, 302, 474, 611),
    "obama3.jpg": (646, 302, 955, 611),
    "biden.jpg": (439, 233, 749, 542),
    "obama.jpg": (366, 136, 624, 394),
}


def portrait(name: str) -> np.ndarray:
    """The photo cropped around its face to the camera's 4:3 frame, WIDTH x HEIGHT, RGB."""
    image = Image.open(FACES / name).convert("RGB")
    x0, y0, x1, y1 = _FACE_BOXES[name]
    side = x1 - x0
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2 - side * 0.05
    half_w, half_h = side * 1.1, side * 1.1 * HEIGHT / WIDTH
    box = (round(cx - half_w), round(cy - half_h), round(cx + half_w), round(cy + half_h))
    return np.asarray(image.crop(box).resize((WIDTH, HEIGHT), Image.Resampling.BICUBIC))


def _depth() -> np.ndarray:
    """Depth in pixels of the cropped face (the face is about 145 px wide here)."""
    yy, xx = np.mgrid[:HEIGHT, :WIDTH].astype(np.float32)
    cx, cy = WIDTH / 2, HEIGHT / 2 + 5
    rx, ry = 85.0, 110.0
    inside = 1 - ((xx - cx) / rx) ** 2 - ((yy - cy) / ry) ** 2
    head = 60.0 * np.sqrt(np.clip(inside, 0, None))
    nose = 30.0 * np.exp(-(((xx - cx) / 14) ** 2) - ((yy - (cy + 8)) / 26) ** 2)
    return head + nose


_DEPTH = _depth()


def turned(pixels: np.ndarray, degrees: float) -> np.ndarray:
    """The face turned by ``degrees`` (positive: to the subject's left)."""
    if abs(degrees) < 0.01:
        return pixels
    shift = math.sin(math.radians(degrees))
    yy, xx = np.mgrid[:HEIGHT, :WIDTH].astype(np.float32)
    source = xx.copy()
    rows = yy.astype(np.int32)
    for _ in range(8):  # x' = x + depth(x) * sin: solved for x by fixed-point iteration
        cols = np.clip(np.rint(source), 0, WIDTH - 1).astype(np.int32)
        source = xx - _DEPTH[rows, cols] * shift
    x0 = np.clip(np.floor(source), 0, WIDTH - 2).astype(np.int32)
    frac = np.clip(source - x0, 0, 1)[..., None]
    out = pixels[rows, x0] * (1 - frac) + pixels[rows, x0 + 1] * frac
    return out.astype(np.uint8)


def angle_at(t_ms: float, steps: Sequence[str]) -> float:
    """The head's angle at ``t_ms`` for a challenge of ``steps`` (turn_left, turn_right, or
    still): straight for LEAD_MS, then each step's turn peaking in the middle of its window."""
    if t_ms < LEAD_MS:
        return 0.0
    index = int((t_ms - LEAD_MS) // STEP_MS)
    if index >= len(steps):
        return 0.0
    phase = ((t_ms - LEAD_MS) % STEP_MS) / STEP_MS
    sign = {"turn_left": 1.0, "turn_right": -1.0}.get(steps[index], 0.0)
    # Up from 15% to 35% of the window, held to 60%, back by 80%.
    if phase < 0.15 or phase > 0.8:
        amount = 0.0
    elif phase < 0.35:
        amount = (phase - 0.15) / 0.2
    elif phase < 0.6:
        amount = 1.0
    else:
        amount = (0.8 - phase) / 0.2
    return sign * TURN_DEGREES * amount


def frames(name: str, steps: Sequence[str], times_ms: Sequence[float]) -> list[np.ndarray]:
    face = portrait(name)
    done: dict[float, np.ndarray] = {}  # each angle rendered once (to a tenth of a degree)
    out = []
    for t in times_ms:
        angle = round(angle_at(t, steps), 1)
        if angle not in done:
            done[angle] = turned(face, angle)
        out.append(done[angle])
    return out


def noisy(pixels: np.ndarray, rng: np.random.Generator, amount: int = 2) -> np.ndarray:
    """A camera's sensor noise (a few grey levels)."""
    jitter = rng.integers(-amount, amount + 1, pixels.shape, dtype=np.int16)
    return np.clip(pixels.astype(np.int16) + jitter, 0, 255).astype(np.uint8)


def jpeg(pixels: np.ndarray, quality: int = 80) -> bytes:
    out = io.BytesIO()
    Image.fromarray(pixels).save(out, "JPEG", quality=quality)
    return out.getvalue()


def write_y4m(path: Path, images: Sequence[np.ndarray], fps: int = FPS) -> None:
    """A y4m (4:2:0) file of ``images`` (all of one even size) for
    --use-file-for-fake-video-capture."""
    height, width = images[0].shape[:2]
    with path.open("wb") as out:
        out.write(f"YUV4MPEG2 W{width} H{height} F{fps}:1 Ip A1:1 C420jpeg\n".encode())
        for rgb in images:
            ycbcr = np.asarray(Image.fromarray(rgb).convert("YCbCr"), dtype=np.float32)
            y = ycbcr[..., 0].astype(np.uint8)
            chroma = ycbcr[..., 1:].reshape(height // 2, 2, width // 2, 2, 2).mean(axis=(1, 3))
            out.write(b"FRAME\n")
            out.write(y.tobytes())
            out.write(np.rint(chroma[..., 0]).astype(np.uint8).tobytes())
            out.write(np.rint(chroma[..., 1]).astype(np.uint8).tobytes())


def video(path: Path, name: str, steps: Sequence[str], tail_ms: int = 1000) -> None:
    """The y4m of ``name`` following ``steps`` (then straight for ``tail_ms``)."""
    total = LEAD_MS + STEP_MS * len(steps) + tail_ms
    times = [i * 1000 / FPS for i in range(int(total * FPS / 1000))]
    rng = np.random.default_rng()  # a camera's sensor noise: no two takes alike
    write_y4m(path, [noisy(p, rng) for p in frames(name, steps, times)])


def document_video(
    path: Path, document: bytes, size: tuple[int, int] = (1920, 1080), frames: int = 6
) -> None:
    """The y4m a phone's back camera would show of ``document`` (an image) held in the page's
    guide: the card filling 84% of the width, centred, on a dark desk, with sensor noise."""
    width, height = size
    card = Image.open(io.BytesIO(document)).convert("RGB")
    wide = round(width * 0.84)
    card = card.resize((wide, round(wide * card.height / card.width)), Image.Resampling.LANCZOS)
    scene = Image.new("RGB", size, (38, 34, 30))
    scene.paste(card, ((width - card.width) // 2, (height - card.height) // 2))
    pixels = np.asarray(scene)
    rng = np.random.default_rng()
    write_y4m(path, [noisy(pixels, rng) for _ in range(frames)], fps=4)
