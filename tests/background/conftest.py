"""Fixtures of the background-check tests: the running app's runtime with a short sandbox
delay, and a local SMTP sink (aiosmtpd) the app's settings point at."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass, field
from email import message_from_bytes
from email.message import Message
from typing import Any

import httpx
import pytest
import pytest_asyncio
from aiosmtpd.controller import Controller
from fastapi import FastAPI

from hakiki.core.runtime import Runtime
from tests.credit.conftest import (  # noqa: F401 (the credit check's fake bureaus)
    bureaus,
    fake_firstcentral,
    fake_metropol,
    firstcentral_server,
    metropol_server,
)
from tests.support.cli import free_port


@pytest.fixture
def runtime(runtime: Runtime, monkeypatch: pytest.MonkeyPatch) -> Runtime:
    """The app's runtime with sandbox background checks finishing in 0.1 s."""
    monkeypatch.setattr(runtime.settings, "background_sandbox_seconds", 0.1)
    return runtime


@dataclass
class Sink:
    messages: list[Message] = field(default_factory=list)
    refused: set[str] = field(default_factory=set)  # recipients it answers 550 for

    async def handle_RCPT(
        self, server: Any, session: Any, envelope: Any, address: str, options: list[str]
    ) -> str:
        if address in self.refused:
            return f"550 5.1.1 <{address}>: Recipient address rejected"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        self.messages.append(message_from_bytes(envelope.content))
        return "250 OK"

    @staticmethod
    def text(message: Message) -> str:
        payload = message.get_payload(decode=True)
        assert isinstance(payload, bytes)
        return payload.decode()

    def to(self, address: str) -> list[Message]:
        return [m for m in self.messages if m["To"] == address]


@pytest.fixture(scope="session")
def smtp_server() -> Iterator[tuple[Sink, int]]:
    sink = Sink()
    port = free_port()
    controller = Controller(sink, hostname="127.0.0.1", port=port)
    controller.start()
    try:
        yield sink, port
    finally:
        controller.stop()


@pytest.fixture
def smtp(smtp_server: tuple[Sink, int], runtime: Runtime, monkeypatch: pytest.MonkeyPatch) -> Sink:
    """The app sends through the local sink (no STARTTLS: it is on 127.0.0.1)."""
    sink, port = smtp_server
    sink.messages.clear()
    sink.refused.clear()
    monkeypatch.setattr(runtime.settings, "smtp_host", "127.0.0.1")
    monkeypatch.setattr(runtime.settings, "smtp_port", port)
    monkeypatch.setattr(runtime.settings, "smtp_starttls", False)
    monkeypatch.setattr(runtime.settings, "public_base_url", "http://hakiki.test")
    return sink


@pytest_asyncio.fixture
async def visitor(app: FastAPI) -> AsyncIterator[httpx.AsyncClient]:
    """The candidate's browser: a client of its own (its own cookies), no API key."""
    transport = httpx.ASGITransport(app=app, raise_app_exceptions=False)
    async with httpx.AsyncClient(transport=transport, base_url="http://hakiki.test") as http:
        yield http
