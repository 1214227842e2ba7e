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


# Detection on a copy whose longer side is at most this many pixels: on the 45 real images
# it finds the printed fields as well as PP-OCR's own sizing (short side to 736, longer side
# to 2000), at a quarter of the cost (docs/benchmarks.md, "Visual zone").
DETECT_SIDE = 800
MIN_CONFIDENCE = 0.5  # RapidOCR's own floor for a line's text


def read_printed(
    pixels: np.ndarray,
    *,
    detect_side: int = DETECT_SIDE,
    leave_out: tuple[int, int] | None = None,
) -> list[TextLine]:
    """Every line of text of an RGB (or grey) image, top to bottom, found on a copy at most
    ``detect_side`` pixels long and recognised at full resolution; a line whose middle falls
    between the rows ``leave_out`` (the zone, read already) is not recognised."""
    from rapidocr_onnxruntime.ch_ppocr_det.utils import DetPreProcess

    engine = _ocr()
    image = pixels if pixels.ndim == 3 else np.stack([pixels] * 3, axis=-1)
    bgr = np.ascontiguousarray(image[..., ::-1])
    height, width = bgr.shape[:2]
    detector = engine.text_det
    prepared = DetPreProcess(detect_side, "max", detector.mean, detector.std)(bgr)
    if prepared is None:
        return []
    boxes, _ = detector.postprocess_op(detector.infer(prepared)[0], (height, width))
    boxes = detector.filter_tag_det_res(boxes, (height, width))
    if len(boxes) == 0:
        return []
    kept = [
        box
        for box in engine.sorted_boxes(boxes)
        if leave_out is None or not leave_out[0] <= float(box[:, 1].mean()) <= leave_out[1]
    ]
    if not kept:
        return []
    # One line at a time: a batch pads every line to its widest and to 320 pixels, and
    # batches of six took 1.2-2.9 times as long on real pages.
    read = [engine.text_rec([crop])[0][0] for crop in engine.get_crop_img_list(bgr, kept)]
    return [
        TextLine(text, float(score), tuple((float(x), float(y)) for x, y in box))
        for box, (text, score) in zip(kept, read, strict=True)
        if float(score) >= MIN_CONFIDENCE
    ]
