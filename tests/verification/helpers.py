"""Helpers of the verification-session tests: drive the hosted page's calls over HTTP as the
page's script does (the browser test drives the page itself)."""

from __future__ import annotations

import base64
from collections.abc import Sequence
from datetime import timedelta
from typing import Any

import httpx
import numpy as np
import pytest

from hakiki.core import clock
from tests.documents.specimens import TD1_KENYA, render_card
from tests.support.consent import CONSENT
from tests.support.envelope import envelope_problems
from tests.verification import faces

FPS = 4


def card(face: str = "obama.jpg") -> bytes:
    """A Kenyan-style ID card rendered with a real portrait (tests/documents/specimens.py)."""
    return render_card(TD1_KENYA, visual=True, portrait=(faces.FACES / face).read_bytes())


def data_url(data: bytes, kind: str = "jpeg") -> str:
    return f"data:image/{kind};base64," + base64.b64encode(data).decode()


def capture(
    face: str, shown: Sequence[str], steps: Sequence[str], offset_ms: int = 150
) -> list[dict[str, Any]]:
    """The frames the page would send: 4 a second from the challenge's start, of ``face``
    turning as ``shown`` (``offset_ms``: the camera's lag behind the page's clock)."""
    total = faces.LEAD_MS + faces.STEP_MS * len(steps) + 200
    times = [int(i * 1000 / FPS) for i in range(int(total * FPS / 1000) + 1)]
    images = faces.frames(face, shown, [t - offset_ms for t in times])
    noise = np.random.default_rng()  # a camera's own noise: no two captures are the same
    return [
        {"t": t, "image": data_url(faces.jpeg(faces.noisy(p, noise)))}
        for t, p in zip(times, images, strict=True)
    ]


def path_of(url: str) -> str:
    return "/" + url.split("/", 3)[3]


class Page:
    """The hosted page's calls for one session link."""

    def __init__(self, client: httpx.AsyncClient, url: str) -> None:
        self.client, self.path = client, path_of(url)

    async def start(self) -> httpx.Response:
        return await self.client.post(
            f"{self.path}/start", json={"consent": True, "language": "en"}
        )

    async def challenge(self) -> dict[str, Any]:
        got = await self.client.post(f"{self.path}/challenge", json={})
        assert got.status_code == 200, got.text
        body: dict[str, Any] = got.json()
        return body

    async def submit(self, body: dict[str, Any]) -> httpx.Response:
        return await self.client.post(f"{self.path}/submit", json=body)


def after_challenge(monkeypatch: pytest.MonkeyPatch, challenge: dict[str, Any]) -> None:
    """Move the clock past the challenge's length, as a real capture takes it."""
    real = clock.utcnow
    lasts = challenge["lead_ms"] + challenge["step_ms"] * len(challenge["steps"])
    monkeypatch.setattr(clock, "utcnow", lambda: real() + timedelta(milliseconds=lasts + 300))


async def create(
    client: httpx.AsyncClient, headers: dict[str, str], reference: str = "cust-1", **extra: Any
) -> dict[str, Any]:
    body = {
        "steps": ["id_number", "document", "selfie_liveness", "screening"],
        "country_code": "KE",
        "id_channel": "national_id",
        "customer_reference": reference,
        "consent": CONSENT,
        **extra,
    }
    made = await client.post("/v3/verification/sessions", json=body, headers=headers)
    assert made.status_code == 201, made.text
    return session_of(made.json())


# The envelope's status of a session's state (docs/api.md#verification-sessions).
OUTCOMES = {"completed": "COMPLETED", "failed": "FAILED", "expired": "FAILED"}
VERDICTS = {"approved": "PASS", "review": "REVIEW", "declined": "FAIL"}


def session_of(body: dict[str, Any]) -> dict[str, Any]:
    """The session in an answer, once the envelope around it is checked."""
    assert envelope_problems(body, live=body["live"]) == [], body
    session: dict[str, Any] = body["data"]
    assert body["reference"] == session["id"]
    assert body["status"] == OUTCOMES.get(session["state"], "PENDING"), body
    completed = session["state"] == "completed"
    assert body["verdict"] == (VERDICTS[session["decision"]] if completed else None), body
    return session


async def read_session(
    client: httpx.AsyncClient, headers: dict[str, str], session_id: str
) -> dict[str, Any]:
    got = await client.get(f"/v3/verification/sessions/{session_id}", headers=headers)
    assert got.status_code == 200, got.text
    return session_of(got.json())
