"""Printed text read by PP-OCRv4: detection of text lines, then recognition of each line.

The models (PaddleOCR's PP-OCRv4, Apache-2.0) ship inside the wheel of rapidocr-onnxruntime
(Apache-2.0) and run on onnxruntime: nothing is downloaded. One engine per process, made at the
first call (about 0.6 s) and on one thread, since the images pool already runs two readings at
once. onnxruntime's sessions may be run from several threads.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import Any

import numpy as np

_lock = threading.Lock()
_engine: Any = None


@dataclass(frozen=True)
class TextLine:
    text: str
    confidence: float  # the recogniser's mean character probability, 0-1
    corners: tuple[tuple[float, float], ...]  # clockwise from top left, in the image's pixels


def _ocr() -> Any:
    global _engine
    with _lock:
        if _engine is None:
            from rapidocr_onnxruntime import RapidOCR

            _engine = RapidOCR(intra_op_num_threads=1, inter_op_num_threads=1)
        return _engine


def read_text(pixels: np.ndarray) -> list[TextLine]:
    """Every line of text found in an RGB image, top to bottom."""
    found, _ = _ocr()(np.ascontiguousarray(pixels[..., ::-1]), use_cls=False)
    return [
        TextLine(text, float(score), tuple((float(x), float(y)) for x, y in corners))
        for corners, text, score in found or ()
    ]


def recognise(lines: list[np.ndarray]) -> list[tuple[str, float]]:
    """The text of each image of one line of text (RGB or grey), with its confidence."""
    if not lines:
        return []
    bgr = [line[..., ::-1] if line.ndim == 3 else np.stack([line] * 3, axis=-1) for line in lines]
    read, _ = _ocr().text_rec([np.ascontiguousarray(image) for image in bgr])
    return [(text, float(score)) for text, score in read]
