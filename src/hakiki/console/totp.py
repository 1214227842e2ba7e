"""The optional second factor: TOTP (RFC 6238, 30 s, 6 digits) with pyotp. The secret is
stored encrypted; a code one step early or late is accepted (clock drift), and a sign-in
records the step it used, so a code (or an earlier one) never signs in twice."""

from __future__ import annotations

import hmac
import re
from datetime import timedelta
from typing import Any

import pyotp
from sqlalchemy import or_, select, update

from hakiki.console.tables import console_users
from hakiki.core.clock import utcnow
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


def matching_step(secret: str, code: str) -> int | None:
    """The 30 s step (previous, current or next) whose code ``code`` is; None if none."""
    code = code.replace(" ", "")
    if not CODE.fullmatch(code):
        return None
    generator = pyotp.TOTP(secret)
    now = utcnow()
    for offset in (-1, 0, 1):
        when = now + timedelta(seconds=generator.interval * offset)
        if hmac.compare_digest(generator.at(when), code):
            return generator.timecode(when)
    return None


async def second_factor_ok(db: Database, vault: Vault, user: dict[str, Any], code: str) -> bool:
    """True when the user has no second factor, or ``code`` is a current code of a step later
    than the last one that signed in (recorded here, conditionally: of two sign-ins racing
    with one code, one wins)."""
    sealed = user.get("totp_encrypted")
    if sealed is None:
        return True
    step = matching_step(vault.decrypt(sealed), code)
    if step is None:
        return False
    last = console_users.c.totp_last_step
    async with transaction(db) as conn:
        result = await conn.execute(
            update(console_users)
            .where(console_users.c.id == user["id"], or_(last.is_(None), last < step))
            .values(totp_last_step=step)
        )
    return bool(result.rowcount)


async def enable(db: Database, vault: Vault, user_id: str, secret: str) -> bool:
    """Turn the second factor on with ``secret``; False if one is on already (replacing it
    takes turning it off with a current code first)."""
    async with transaction(db) as conn:
        result = await conn.execute(
            update(console_users)
            .where(console_users.c.id == user_id, console_users.c.totp_encrypted.is_(None))
            .values(totp_encrypted=vault.encrypt(secret), totp_last_step=None)
        )
    return bool(result.rowcount)


async def disable(db: Database, user_id: str) -> None:
    async with transaction(db) as conn:
        await conn.execute(
            update(console_users)
            .where(console_users.c.id == user_id)
            .values(totp_encrypted=None, totp_last_step=None)
        )


async def sealed_secret(db: Database, user_id: str) -> str | None:
    async with read(db) as conn:
        query = select(console_users.c.totp_encrypted).where(console_users.c.id == user_id)
        found = (await conn.execute(query)).scalar()
    return str(found) if found is not None else None
