"""The optional second factor: TOTP (RFC 6238, 30 s, 6 digits) with pyotp. The secret is
stored encrypted; a code one step early or late is accepted (clock drift)."""

from __future__ import annotations

import re
from typing import Any

import pyotp
from sqlalchemy import select, update

from hakiki.console.tables import console_users
from hakiki.core.crypto import Vault
from hakiki.core.database import Database, read, transaction

CODE = re.compile(r"\d{6}")
SECRET = re.compile(r"[A-Z2-7]{32}")
ISSUER = "Hakiki"


def new_secret() -> str:
    return pyotp.random_base32()  # 160 bits


def uri(secret: str, email: str) -> str:
    return pyotp.TOTP(secret).provisioning_uri(name=email, issuer_name=ISSUER)


def code_matches(secret: str, code: str) -> bool:
    code = code.replace(" ", "")
    return bool(CODE.fullmatch(code)) and pyotp.TOTP(secret).verify(code, valid_window=1)


def second_factor_ok(vault: Vault, user: dict[str, Any], code: str) -> bool:
    """True when the user has no second factor, or ``code`` is its current code."""
    sealed = user.get("totp_encrypted")
    return sealed is None or code_matches(vault.decrypt(sealed), code)


async def store(db: Database, vault: Vault, user_id: str, secret: str | None) -> None:
    sealed = vault.encrypt(secret) if secret is not None else None
    async with transaction(db) as conn:
        await conn.execute(
            update(console_users).where(console_users.c.id == user_id).values(totp_encrypted=sealed)
        )


async def sealed_secret(db: Database, user_id: str) -> str | None:
    async with read(db) as conn:
        query = select(console_users.c.totp_encrypted).where(console_users.c.id == user_id)
        found = (await conn.execute(query)).scalar()
    return str(found) if found is not None else None
