"""Signing in to the console as a browser would: the login form's CSRF token, the cookie."""

from __future__ import annotations

import itertools
import os
import re
from dataclasses import dataclass

import httpx
from fastapi import FastAPI

PASSWORD = "correct horse battery staple"
CSRF_FIELD = re.compile(r'name="csrf" value="([^"]+)"')


@dataclass
class ConsoleUser:
    org_id: str
    org_name: str
    email: str
    role: str
    password: str = PASSWORD


_clients = itertools.count(1)


def browser(app: FastAPI, base_url: str = "http://hakiki.test") -> httpx.AsyncClient:
    """A client with its own cookie jar (the shared ``client`` fixture's must stay empty) and
    its own client address (sign-in failures are throttled per address)."""
    n = next(_clients)
    address = f"10.{os.getpid() % 250}.{n // 250 % 250}.{n % 250 + 1}"
    transport = httpx.ASGITransport(app=app, raise_app_exceptions=False, client=(address, 40000))
    return httpx.AsyncClient(transport=transport, base_url=base_url)


def csrf_of(html: str) -> str:
    found = CSRF_FIELD.search(html)
    assert found, html
    return found.group(1)


async def sign_in(http: httpx.AsyncClient, email: str, password: str) -> httpx.Response:
    form = await http.get("/console/login")
    assert form.status_code == 200
    return await http.post(
        "/console/login",
        data={"csrf": csrf_of(form.text), "email": email, "password": password},
    )


async def signed_in(http: httpx.AsyncClient, user: ConsoleUser) -> str:
    """Sign ``user`` in; the session's CSRF token (from the overview page)."""
    answer = await sign_in(http, user.email, user.password)
    assert answer.status_code == 303, answer.text
    assert answer.headers["location"] == "/console/"
    page = await http.get("/console/")
    assert page.status_code == 200, page.text
    return csrf_of(page.text)
