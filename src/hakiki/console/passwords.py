"""Password hashing (argon2id, argon2-cffi's RFC 9106 low-memory profile) and generated
passwords.

A hash or a verification costs about a tenth of a second of CPU (up to 0.4 s on a loaded
machine): run on the event loop, every unauthenticated sign-in would stall every other request
of the process that long. They run in a pool of their own, of HASH_THREADS threads, so a flood
of sign-ins queues there and takes neither the loop nor the threads other work uses
(asyncio's default pool, the SQLite write gate's)."""

from __future__ import annotations

import asyncio
import secrets
from concurrent.futures import ThreadPoolExecutor

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


HASH_THREADS = 2
_POOL = ThreadPoolExecutor(max_workers=HASH_THREADS, thread_name_prefix="argon2")


def _hash(password: str) -> str:
    return _HASHER.hash(password)


def _verify(stored: str | None, password: str) -> bool:
    try:
        return _HASHER.verify(stored or _DUMMY, password) and stored is not None
    except (VerificationError, InvalidHashError):
        return False


async def hash_password(password: str) -> str:
    return await asyncio.get_running_loop().run_in_executor(_POOL, _hash, password)


async def verify(stored: str | None, password: str) -> bool:
    """Whether ``password`` is the one ``stored`` hashes; with no ``stored`` (an unknown
    user) the same work against a dummy hash, and False."""
    return await asyncio.get_running_loop().run_in_executor(_POOL, _verify, stored, password)


def generate() -> str:
    return secrets.token_urlsafe(18)  # 24 characters, 144 bits


def problem(password: str) -> str | None:
    """Why ``password`` cannot be chosen, or None."""
    if len(password) < MIN_LENGTH:
        return f"must be at least {MIN_LENGTH} characters"
    if len(password) > MAX_LENGTH:
        return f"must be at most {MAX_LENGTH} characters"
    return None
