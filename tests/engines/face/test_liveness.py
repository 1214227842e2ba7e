"""The active liveness check on frames of a real face photo turned in depth
(tests/verification/faces.py): a turn to the subject's left moves the nose base to the image's
right; the sequence asked passes, a still face, the wrong order, a cut to another person and
frames out of time fail, each with its reason."""

from __future__ import annotations

import numpy as np
import pytest

from hakiki.engines.face import FaceEmbedder, liveness
from hakiki.engines.face.liveness import Frame
from tests.verification import faces

ASKED = ("turn_left", "turn_right", "turn_left")


@pytest.fixture(scope="module")
def embedder() -> FaceEmbedder:
    return FaceEmbedder()


def take(face: str, shown: tuple[str, ...] | list[str], fps: int = 4) -> list[Frame]:
    total = liveness.LEAD_MS + liveness.STEP_MS * len(ASKED)
    times = [int(i * 1000 / fps) for i in range(int(total * fps / 1000))]
    return [
        Frame(t, p)
        for t, p in zip(times, faces.frames(face, shown, [t - 150 for t in times]), strict=True)
    ]


def test_yaw_follows_the_turn(embedder: FaceEmbedder) -> None:
    face = faces.portrait("obama3.jpg")
    yaws = [
        liveness.pose_of(embedder, Frame(0, faces.turned(face, angle))).yaw
        for angle in (-28, 0, 28)
    ]
    assert yaws[0] is not None and yaws[1] is not None and yaws[2] is not None
    assert yaws[0] < yaws[1] - liveness.TURN < yaws[2] - 2 * liveness.TURN


def test_the_sequence_asked_passes(embedder: FaceEmbedder) -> None:
    result = liveness.check(embedder, take("obama2.jpg", ASKED), ASKED)
    assert result.passed, result.reason
    assert result.observed == list(ASKED) and result.vectors


@pytest.mark.parametrize(
    ("shown", "code", "reason"),
    [
        (
            ("still", "still", "still"),
            "challenge_not_followed",
            "step 1 asked to turn left; the head did not turn",
        ),
        (
            ("turn_right", "turn_left", "turn_right"),
            "challenge_not_followed",
            "the head turned right",
        ),
        (
            ("turn_left", "turn_right", "still"),
            "challenge_not_followed",
            "step 3 asked to turn left",
        ),
    ],
)
def test_what_is_not_the_challenge_fails(
    embedder: FaceEmbedder, shown: tuple[str, ...], code: str, reason: str
) -> None:
    result = liveness.check(embedder, take("obama2.jpg", shown), ASKED)
    assert not result.passed and result.code == code and reason in result.reason


def test_a_cut_to_another_person_fails(embedder: FaceEmbedder) -> None:
    frames = take("obama2.jpg", ASKED)
    other = take("biden.jpg", ASKED)
    half = len(frames) // 2
    result = liveness.check(embedder, frames[:half] + other[half:], ASKED)
    # Another face has another straight-ahead pose: the turns no longer fit, or the identity.
    assert not result.passed
    assert result.code in ("face_changed", "discontinuous", "challenge_not_followed")


def test_frames_out_of_time_or_a_screen_fail(embedder: FaceEmbedder) -> None:
    frames = take("obama2.jpg", ASKED)
    reversed_times = [Frame(f.t_ms, f.pixels) for f in frames[::-1]]
    assert liveness.check(embedder, reversed_times, ASKED).code == "timing"
    assert liveness.check(embedder, frames[:4], ASKED).code == "timing"
    # A screen's pixel grid: every other column dark, as a filmed display shows it.
    grid = [
        Frame(f.t_ms, (f.pixels * np.tile([1.0, 0.55], 160)[None, :, None]).astype(np.uint8))
        for f in frames
    ]
    assert liveness.check(embedder, grid, ASKED).code == "screen_replay"
