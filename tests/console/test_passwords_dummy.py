"""The dummy hash an unknown e-mail is verified against costs what a real one does."""

from __future__ import annotations

import pytest

from hakiki.console import passwords

HASHER = passwords._HASHER


def test_the_dummy_hash_has_the_hashers_parameters() -> None:
    # A dummy made with cheaper parameters would let a timing tell unknown e-mails apart.
    assert not passwords._HASHER.check_needs_rehash(passwords._DUMMY)


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
