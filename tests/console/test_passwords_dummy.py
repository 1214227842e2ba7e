"""The dummy hash an unknown e-mail is verified against costs what a real one does."""

from __future__ import annotations

import pytest

from hakiki.console import passwords
from tests.conftest import PRODUCT_PASSWORD_HASHER

HASHER = PRODUCT_PASSWORD_HASHER


@pytest.fixture(autouse=True)
def product_hasher(monkeypatch: pytest.MonkeyPatch) -> None:
    """The product's parameters (tests/conftest.py gives other tests a cheap hasher)."""
    monkeypatch.setattr(passwords, "_HASHER", PRODUCT_PASSWORD_HASHER)


def test_the_dummy_hash_has_the_hashers_parameters() -> None:
    # A dummy made with cheaper parameters would let a timing tell unknown e-mails apart.
    assert not passwords._HASHER.check_needs_rehash(passwords._DUMMY)
    assert (HASHER.time_cost, HASHER.memory_cost) == (3, 65536)


class _RecordingHasher:
    def __init__(self) -> None:
        self.verified: list[str] = []

    def verify(self, stored: str, password: str) -> bool:
        self.verified.append(stored)
        return bool(HASHER.verify(stored, password))


async def test_an_unknown_email_verifies_against_the_dummy_and_fails(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    recording = _RecordingHasher()
    monkeypatch.setattr(passwords, "_HASHER", recording)
    assert await passwords.verify(None, "correct horse battery staple") is False
    assert recording.verified == [passwords._DUMMY]


async def test_a_real_hash_still_verifies() -> None:
    stored = await passwords.hash_password("correct horse battery staple")
    assert await passwords.verify(stored, "correct horse battery staple")
    assert not await passwords.verify(stored, "wrong horse battery staple")
