from __future__ import annotations

from collections.abc import Callable, Coroutine
from typing import Any

import pytest
from fastapi import FastAPI

from hakiki.account import service as accounts
from hakiki.console import users
from hakiki.core.database import Database
from hakiki.core.wallet import service as wallet
from tests.background.conftest import Sink
from tests.background.conftest import smtp_server as smtp_server  # a fixture, shared
from tests.conftest import unique
from tests.console.helpers import PASSWORD, ConsoleUser

UserFactory = Callable[..., Coroutine[Any, Any, ConsoleUser]]


@pytest.fixture
def make_user(app: FastAPI, db: Database) -> UserFactory:
    """A console user of a new organisation (or of ``org``): ``await make_user("analyst")``."""

    async def factory(
        role: str = "owner",
        *,
        org: ConsoleUser | None = None,
        approved: bool = True,
        balance: int = 0,
    ) -> ConsoleUser:
        if org is None:
            name = unique("org")
            created = await accounts.create_org(db, name, approved=approved)
            org_id, org_name = created.id, name
            if balance:
                await wallet.credit(db, org_id, balance, "test top-up")
        else:
            org_id, org_name = org.org_id, org.org_name
        email = f"{unique('user')}@example.com"
        vault = app.state.runtime.vault
        await users.create_user(db, vault, org_id=org_id, email=email, role=role, password=PASSWORD)
        return ConsoleUser(org_id, org_name, email, role)

    return factory


@pytest.fixture
def smtp(smtp_server: tuple[Sink, int], app: FastAPI, monkeypatch: pytest.MonkeyPatch) -> Sink:
    """The app sends through the local sink (no STARTTLS: it is on 127.0.0.1)."""
    sink, port = smtp_server
    sink.messages.clear()
    sink.refused.clear()
    settings = app.state.runtime.settings
    monkeypatch.setattr(settings, "smtp_host", "127.0.0.1")
    monkeypatch.setattr(settings, "smtp_port", port)
    monkeypatch.setattr(settings, "smtp_starttls", False)
    monkeypatch.setattr(settings, "console_base_url", "http://hakiki.test")
    return sink
