"""Password hashing (argon2id, argon2-cffi's RFC 9106 low-memory profile) and generated
passwords."""

from __future__ import annotations

import secrets

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

_HASHER = PasswordHasher()  # argon2id, t=3, m=64 MiB, p=4
MIN_LENGTH = 12
MAX_LENGTH = 256  # argon2 takes any length; a bound keeps a sign-in cheap to refuse
# Verified against when the e-mail is unknown, so both failures take the same time. A fixed
# hash (of a random password, discarded) with _HASHER's parameters: hashing one at import cost a
# third of a second of CPU in every process; tests/console/test_passwords_dummy.py checks that
# its parameters still match _HASHER's, so the verification costs the same.
_DUMMY = (
    "$argon2id$v=19$m=65536,t=3,p=4$gYxE9cg7YKnyq2s3uOHggw"
    "$dnjXP0o1TF9S9GJq8sni5J2ysh4IxnCTmR7/7gPsZa4"
)


def hash_password(password: str) -> str:
    return _HASHER.hash(password)


def verify(stored: str | None, password: str) -> bool:
    try:
        return _HASHER.verify(stored or _DUMMY, password) and stored is not None
    except (VerificationError, InvalidHashError):
        return False


def generate() -> str:
    return secrets.token_urlsafe(18)  # 24 characters, 144 bits


def problem(password: str) -> str | None:
    """Why ``password`` cannot be chosen, or None."""
    if len(password) < MIN_LENGTH:
        return f"must be at least {MIN_LENGTH} characters"
    if len(password) > MAX_LENGTH:
        return f"must be at most {MAX_LENGTH} characters"
    return None
