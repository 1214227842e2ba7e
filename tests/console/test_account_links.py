"""The console's e-mailed links under attack: a forged Host, racing submissions of one
invitation, reset requests that would lock a user out."""

from __future__ import annotations

import asyncio
import re

import httpx
import pytest
from fastapi import FastAPI

from tests.background.conftest import Sink
from tests.console.conftest import UserFactory
from tests.console.helpers import browser, csrf_of, sign_in, signed_in

pytestmark = pytest.mark.asyncio(loop_scope="session")

NEW = "a brand new console password"
PATH = re.compile(r"https?://[^/\s]+(/console/reset/[A-Za-z0-9_-]{43})")


def _path(sink: Sink, address: str) -> str:
    [message] = sink.to(address)
    found = PATH.search(Sink.text(message))
    assert found, Sink.text(message)
    return found.group(1)


async def _invite(app: FastAPI, owner, address: str) -> None:  # type: ignore[no-untyped-def]
    async with browser(app) as http:
        csrf = await signed_in(http, owner)
        added = await http.post(
            "/console/users", data={"csrf": csrf, "email": address, "role": "analyst"}
        )
        assert added.status_code == 200, added.text


async def test_racing_submissions_of_one_invitation_make_one_password(
    app: FastAPI, make_user: UserFactory, smtp: Sink
) -> None:
    owner = await make_user("owner")
    address = f"racer-{id(owner)}@lender.example"
    await _invite(app, owner, address)
    path = _path(smtp, address)
    clients = [browser(app) for _ in range(4)]
    forms = [await http.get(path) for http in clients]
    passwords = [f"racing password number {n}" for n in range(4)]

    async def submit(http: httpx.AsyncClient, form: httpx.Response, password: str):  # type: ignore[no-untyped-def]
        data = {"csrf": csrf_of(form.text), "password": password, "repeat": password}
        return await http.post(path, data=data)

    answers = await asyncio.gather(
        *(submit(h, f, p) for h, f, p in zip(clients, forms, passwords, strict=True))
    )
    for http in clients:
        await http.aclose()
    statuses = sorted(a.status_code for a in answers)
    assert statuses == [303, 404, 404, 404], [a.text[:300] for a in answers]
    [winner] = [p for p, a in zip(passwords, answers, strict=True) if a.status_code == 303]
    async with browser(app) as http:
        assert (await sign_in(http, address, winner)).status_code == 303
