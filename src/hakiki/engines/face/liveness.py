"""Active liveness: does a short series of camera frames show one live head turning the way a
random challenge asked, in order and in time? (docs/decisions.md, "Issue 37").

Pose from dlib's 5-point landmark model (the same permissively licensed model the embeddings
align with; never the 68-point one): the outer and inner corners of both eyes and the base of
the nose. **Yaw** is the nose base's offset from the midpoint of the two eye centres, along the
eye line, over the distance between the eye centres: the nose stands in front of the eyes, so
it moves across the face when the head turns and hardly at all when the face only moves or
tilts in the image plane. It is measured against the subject's own straight-ahead pose, the
median of the frames before the first step (faces and cameras are not symmetric). Pitch is not
used: from five points it cannot be told apart from a shorter nose or a tilted phone, so the
challenge is made of left and right turns only.

The checks, each with its reason:

- every frame is in time: its ``t_ms`` (since the challenge began, the page's own clock)
  increases, the frames cover the lead and each step's window, and none is after the end;
- exactly one face in every frame, and the face moves continuously (no cut to another clip);
- each step's window shows a turn the way asked (the deviation at least ``TURN``) and none the
  other way: the turns seen, in order, must be the challenge;
- the face is one person throughout: embeddings of the first, middle and last frame within
  ``SAME_PERSON`` of each other (the caller matches them to the document's portrait);
- no frame shows a screen's pixel grid (the documents engine's moiré measure).
"""

from __future__ import annotations

import itertools
import secrets
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from PIL import Image

from hakiki.engines.documents.forensics import MOIRE_ATTENTION, moire
from hakiki.engines.face.embedding import FaceEmbedder, face_distance

TURNS = ("turn_left", "turn_right")  # the subject's own left and right
STEPS = 3
LEAD_MS = 1000  # looking straight, the baseline
STEP_MS = 2000  # each step's window: time to read the prompt, turn and come back
END_SLACK_MS = 1500  # a frame may come this late after the last window (a slow phone)
MIN_FRAMES_PER_WINDOW = 2
TURN = 0.08  # yaw deviation (eye-distances) that counts as a turn; a 28-degree turn gives
# 0.11-0.17 on the rendered faces of the tests, a still face 0.00-0.02
SAME_PERSON = 0.6  # dlib's same-person distance
MAX_JUMP = 0.6  # the face box's centre moving more than this share of its width between frames


def new_steps(count: int = STEPS) -> tuple[str, ...]:
    """A random challenge: ``count`` turns, each left or right (2**count sequences)."""
    return tuple(secrets.choice(TURNS) for _ in range(count))


@dataclass(frozen=True)
class Frame:
    t_ms: int
    pixels: np.ndarray  # RGB


@dataclass(frozen=True)
class Pose:
    t_ms: int
    faces: int
    yaw: float | None = None
    centre: tuple[float, float] | None = None
    width: float | None = None


@dataclass
class Liveness:
    passed: bool
    code: str  # passed, or the reason's stable code
    reason: str
    observed: list[str] = field(default_factory=list)  # left, right or none per step
    signals: dict[str, Any] = field(default_factory=dict)
    vectors: list[np.ndarray] = field(default_factory=list)  # the face's embeddings


def yaw_of(points: np.ndarray) -> float:
    """Points: dlib's 5 (x, y): 0-1 one eye's outer and inner corner, 2-3 the other's, 4 the
    nose base. Positive: the nose towards the image's right."""
    right, left = (points[0] + points[1]) / 2, (points[2] + points[3]) / 2
    axis = right - left
    span = float(np.dot(axis, axis))
    if span <= 1.0:
        return 0.0
    # The eye line runs from the image's left eye to its right one: orient it left to right.
    if axis[0] < 0:
        axis = -axis
    return float(np.dot(points[4] - (right + left) / 2, axis) / span)


def pose_of(embedder: FaceEmbedder, frame: Frame) -> Pose:
    found = embedder.landmarks(frame.pixels)
    if len(found) != 1:
        return Pose(frame.t_ms, len(found))
    box, points = found[0]
    centre = ((box.left + box.right) / 2, (box.top + box.bottom) / 2)
    return Pose(frame.t_ms, 1, yaw_of(points), centre, float(box.right - box.left))


def _fail(code: str, reason: str, **extra: Any) -> Liveness:
    return Liveness(False, code, reason, **extra)


def _timing(frames: Sequence[Frame], steps: Sequence[str], lead: int, step: int) -> str | None:
    times = [f.t_ms for f in frames]
    if any(b <= a for a, b in itertools.pairwise(times)):
        return "the frames' times do not increase"
    end = lead + step * len(steps)
    if times[0] < 0 or times[-1] > end + END_SLACK_MS:
        return "a frame is outside the challenge's time"
    windows = [(0, lead)] + [(lead + i * step, lead + (i + 1) * step) for i in range(len(steps))]
    for start, stop in windows:
        if sum(start <= t < stop for t in times) < MIN_FRAMES_PER_WINDOW:
            return "too few frames were captured while the challenge ran (a slow camera?)"
    return None


def observed_turns(
    poses: Sequence[Pose], steps: Sequence[str], lead: int, step: int
) -> tuple[list[str], list[float]]:
    """Per step: the turn seen in its window (left, right, none) and its largest deviation."""
    base = float(np.median([p.yaw for p in poses if p.t_ms < lead and p.yaw is not None]))
    seen, peaks = [], []
    for i in range(len(steps)):
        start, stop = lead + i * step, lead + (i + 1) * step
        devs = [p.yaw - base for p in poses if start <= p.t_ms < stop and p.yaw is not None]
        peak = max(devs, key=abs) if devs else 0.0
        peaks.append(round(peak, 3))
        if abs(peak) < TURN:
            seen.append("none")
        else:
            seen.append("turn_left" if peak > 0 else "turn_right")
    return seen, peaks


def _label(turn: str) -> str:
    return {"turn_left": "left", "turn_right": "right"}.get(turn, "")


def check(
    embedder: FaceEmbedder,
    frames: Sequence[Frame],
    steps: Sequence[str],
    *,
    lead_ms: int = LEAD_MS,
    step_ms: int = STEP_MS,
) -> Liveness:
    """Judge ``frames`` against the challenge ``steps``; the first failing check's reason."""
    if not frames:
        return _fail("no_frames", "no frames were sent")
    if problem := _timing(frames, steps, lead_ms, step_ms):
        return _fail("timing", problem)
    screen = max(moire(Image.fromarray(f.pixels).convert("L")) for f in frames)
    if screen >= MOIRE_ATTENTION:
        return _fail(
            "screen_replay",
            "the frames show a screen's pixel grid: a replay on a screen, not a live face",
            signals={"moire": screen},
        )
    poses = [pose_of(embedder, f) for f in frames]
    missing = sum(p.faces == 0 for p in poses)
    several = sum(p.faces > 1 for p in poses)
    if several:
        return _fail("multiple_faces", f"{several} frame(s) show more than one face")
    if missing > len(poses) // 5:
        return _fail("no_face", f"no face was found in {missing} of {len(poses)} frames")
    tracked = [p for p in poses if p.centre is not None and p.width]
    for a, b in itertools.pairwise(tracked):
        assert a.centre is not None and b.centre is not None and a.width
        jump = float(np.hypot(b.centre[0] - a.centre[0], b.centre[1] - a.centre[1])) / a.width
        if jump > MAX_JUMP:
            return _fail("discontinuous", "the face jumped between frames: not one continuous take")
    if not any(p.t_ms < lead_ms and p.yaw is not None for p in poses):
        return _fail("no_face", "no face was found before the first step")
    seen, peaks = observed_turns(poses, steps, lead_ms, step_ms)
    signals: dict[str, Any] = {"yaw_peaks": peaks, "frames": len(frames), "moire": screen}
    for i, (asked, got) in enumerate(zip(steps, seen, strict=True), start=1):
        if asked != got:
            return _fail(
                "challenge_not_followed",
                f"step {i} asked to turn {_label(asked)}; the head "
                + ("did not turn" if got == "none" else f"turned {_label(got)}"),
                observed=seen,
                signals=signals,
            )
    # One person throughout: the first frame, the middle and the last, embedded.
    picks = sorted({0, len(tracked) // 2, len(tracked) - 1})
    by_time = {f.t_ms: f for f in frames}
    vectors = []
    for index in picks:
        found = embedder.embed_pixels(by_time[tracked[index].t_ms].pixels)
        if found is not None:
            vectors.append(found)
    if not vectors:
        return _fail("no_face", "the face could not be measured", observed=seen, signals=signals)
    spread = max(
        (face_distance(a, b) for i, a in enumerate(vectors) for b in vectors[i + 1 :]),
        default=0.0,
    )
    signals["identity_spread"] = round(spread, 4)
    if spread >= SAME_PERSON:
        return _fail(
            "face_changed",
            "the face is not the same person in every frame",
            observed=seen,
            signals=signals,
        )
    return Liveness(
        True,
        "passed",
        "the head followed the challenge, one live person throughout",
        observed=seen,
        signals=signals,
        vectors=vectors,
    )
