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


def detect_lines(pixels: np.ndarray, longest: int = 960) -> list[np.ndarray]:
    """The quadrilaterals (4 x 2, clockwise from top left, in the image's pixels) of the lines
    of text of an RGB image, detected on a copy whose longest side is at most ``longest``
    (the engine's own setting scales the *shortest* side up to 736: a thin strip would cost
    seconds)."""
    from rapidocr_onnxruntime.ch_ppocr_det.utils import DetPreProcess

    detector = _ocr().text_det
    bgr = np.ascontiguousarray(pixels[..., ::-1])
    prepared = DetPreProcess(longest, "max", detector.mean, detector.std)(bgr)
    if prepared is None:
        return []
    predicted = detector.infer(prepared)[0]
    boxes, _scores = detector.postprocess_op(predicted, bgr.shape[:2])
    if boxes is None or len(boxes) == 0:
        return []
    kept = detector.filter_tag_det_res(boxes, bgr.shape[:2])
    return [np.asarray(box, dtype=np.float32) for box in kept]


def crop_line(pixels: np.ndarray, corners: np.ndarray) -> np.ndarray:
    """The quadrilateral ``corners`` of ``pixels`` warped to an upright rectangle (a line
    photographed in perspective comes out straight; a tall one is turned to lie flat)."""
    [crop] = _ocr().get_crop_img_list(np.ascontiguousarray(pixels), [corners.astype(np.float32)])
    return np.asarray(crop)


def character_probabilities(lines: list[np.ndarray], alphabet: str) -> list[np.ndarray]:
    """Per image of one line (RGB or grey), the recogniser's output frame by frame over
    ``alphabet``: an array (frames x 1 + len(alphabet)), column 0 the CTC blank. Other
    characters of the model's dictionary (Chinese, punctuation) are left out, so a decoder
    choosing among these columns reads only what ``alphabet`` allows."""
    if not lines:
        return []
    recogniser = _ocr().text_rec
    dictionary = recogniser.postprocess_op.character
    columns = [0] + [dictionary.index(ch) for ch in alphabet]
    out = []
    for line in lines:
        bgr = line[..., ::-1] if line.ndim == 3 else np.stack([line] * 3, axis=-1)
        height, width = bgr.shape[:2]
        ratio = width / max(height, 1)
        widest = max(ratio, 320 / 48)  # the model's narrowest input
        prepared = recogniser.resize_norm_img(np.ascontiguousarray(bgr), widest)
        predicted = recogniser.session(prepared[np.newaxis].astype(np.float32))[0][0]
        # Frames beyond the image (padding to the model's minimum width) are dropped.
        frames = max(1, min(len(predicted), int(np.ceil(len(predicted) * ratio / widest))))
        out.append(np.asarray(predicted[:frames, columns], dtype=np.float32))
    return out


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
