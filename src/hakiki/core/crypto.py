"""Encryption of personal data at rest and keyed hashes for looking it up.

AES-256-GCM with a key derived from ``HAKIKI_SECRET_KEY`` (or a generated key file for the
embedded default). Look-ups never decrypt: they compare HMAC-SHA256 digests under a second
derived key, so the database alone reveals neither the numbers nor a way to test guesses.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import os
import secrets
from pathlib import Path
from typing import Any

from cryptography.hazmat.primitives.ciphers.aead import AESGCM

from hakiki.core.data_dir import private_dir
from hakiki.core.settings import Settings


def _derive(master: bytes, purpose: bytes) -> bytes:
    return hmac.new(master, purpose, hashlib.sha256).digest()


def _sha256(data: bytes = b"") -> Any:
    """SHA-256 as a plain function: HMAC then keeps its inner and outer states as copies."""
    return hashlib.sha256(data)


class Vault:
    def __init__(self, master_key: str) -> None:
        if len(master_key) < 32:
            raise ValueError("HAKIKI_SECRET_KEY must be at least 32 characters")
        master = master_key.encode()
        self._aead = AESGCM(_derive(master, b"hakiki/encryption/v1"))
        # Keyed once; each look-up hash digests a copy. hmac.digest keys OpenSSL's HMAC anew on
        # every call (about three times the cost), and the hash runs on most calls, twice on
        # some.
        self._lookup = hmac.new(_derive(master, b"hakiki/lookup-hash/v1"), digestmod=_sha256)

    def encrypt(self, plaintext: str) -> str:
        nonce = os.urandom(12)
        sealed = self._aead.encrypt(nonce, plaintext.encode(), None)
        return "v1." + base64.urlsafe_b64encode(nonce + sealed).decode()

    def decrypt(self, token: str) -> str:
        version, _, payload = token.partition(".")
        if version != "v1":
            raise ValueError("unknown ciphertext version")
        raw = base64.urlsafe_b64decode(payload)
        return self._aead.decrypt(raw[:12], raw[12:], None).decode()

    def seal(self, data: bytes) -> bytes:
        """``encrypt`` for bytes (large inputs: no base64)."""
        nonce = os.urandom(12)
        return b"v1" + nonce + self._aead.encrypt(nonce, data, None)

    def unseal(self, sealed: bytes) -> bytes:
        if sealed[:2] != b"v1":
            raise ValueError("unknown ciphertext version")
        return self._aead.decrypt(sealed[2:14], sealed[14:], None)

    def lookup_hash(self, *parts: str) -> str:
        """Keyed digest of normalised parts, e.g. ("NG", "bvn", "22222222222")."""
        message = "\x1f".join(parts).encode()
        keyed = self._lookup.copy()
        keyed.update(message)
        return keyed.hexdigest()


def load_master_key(settings: Settings) -> str:
    """The configured key, else the one in ``<data_dir>/secret.key``, created on first use."""
    if settings.secret_key:
        return settings.secret_key
    path = Path(settings.data_dir) / "secret.key"
    if path.exists():
        return path.read_text().strip()
    private_dir(path.parent)
    key = secrets.token_urlsafe(48)
    # O_EXCL: two processes starting at once must not write two different keys.
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        return path.read_text().strip()
    with os.fdopen(fd, "w") as handle:
        handle.write(key)
    return key


def hash_secret(secret: str) -> str:
    """API secrets are 256-bit random strings, so one SHA-256 is enough (no password stretching
    needed) and keeps authentication fast."""
    return hashlib.sha256(secret.encode()).hexdigest()


def secret_matches(secret: str, stored_hash: str) -> bool:
    return hmac.compare_digest(hash_secret(secret), stored_hash)
