"""Faces: guarded image loading, dlib 128-d embeddings and an in-memory nearest-face index.

A pure library (no HTTP, no database) for ``/v3/fraud/face-scan``. Every refusal of an upload
is a :class:`FaceImageError` subclass with a clear message and a stable ``code``.
"""

from hakiki.engines.face.embedding import (
    EMBEDDING_SIZE,
    FaceBox,
    FaceEmbedder,
    FaceEmbedding,
    MultipleFacesError,
    NoFaceError,
    face_distance,
)
from hakiki.engines.face.images import (
    CorruptImageError,
    FaceImageError,
    ImageDimensionsError,
    ImageTooLargeError,
    LoadedImage,
    UnsupportedImageFormatError,
    load_image,
)
from hakiki.engines.face.index import DEFAULT_MAX_DISTANCE, FaceIndex, FaceMatch

__all__ = [
    "DEFAULT_MAX_DISTANCE",
    "EMBEDDING_SIZE",
    "CorruptImageError",
    "FaceBox",
    "FaceEmbedder",
    "FaceEmbedding",
    "FaceImageError",
    "FaceIndex",
    "FaceMatch",
    "ImageDimensionsError",
    "ImageTooLargeError",
    "LoadedImage",
    "MultipleFacesError",
    "NoFaceError",
    "UnsupportedImageFormatError",
    "face_distance",
    "load_image",
]
