"""A webhook receiver over real HTTP that checks signatures the way the Standard Webhooks spec
describes them, written from the spec rather than with the library the server signs with: the
HMAC-SHA256, keyed with the base64-decoded secret after ``whsec_``, of
``{webhook-id}.{webhook-timestamp}.{body}``, compared with every ``v1,`` signature in the
space-separated ``webhook-signature``; timestamps more than 5 minutes away are refused.

    with run_receiver() as receiver:
        receiver.secrets = [secret]       # the secrets it accepts
        receiver.fail_with = [500, 503]   # answer these to the next requests, then 200
        receiver.delay = 2.0              # answer this late

A message that arrives before the test has given the receiver a secret (a callback sent the
moment the call that returned the secret finished) waits up to ``SECRET_WAIT_SECONDS`` for
it, as a real receiver would already know its secret.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler
from typing import Any

from tests.support.fake_server import serve_handler_in_thread

TOLERANCE_SECONDS = 5 * 60
SECRET_WAIT_SECONDS = 10.0


def verify(
    secrets: list[str], headers: dict[str, str], body: bytes, now: float | None = None
) -> str | None:
    """None when the message is authentic and fresh, else the problem."""
    message_id = headers.get("webhook-id")
    timestamp = headers.get("webhook-timestamp")
    signatures = headers.get("webhook-signature")
    if not (message_id and timestamp and signatures):
        return "missing webhook headers"
    if not timestamp.isdigit():
        return "bad timestamp"
    if abs((now or time.time()) - int(timestamp)) > TOLERANCE_SECONDS:
        return "timestamp outside the tolerance"
    signed = f"{message_id}.{timestamp}.".encode() + body
    for secret in secrets:
        assert secret.startswith("whsec_")
        key = base64.b64decode(secret[len("whsec_") :])
        expected = hmac.new(key, signed, hashlib.sha256).digest()
        for candidate in signatures.split(" "):
            version, _, value = candidate.partition(",")
            if version == "v1" and hmac.compare_digest(base64.b64decode(value), expected):
                return None
    return "no matching signature"


@dataclass
class Received:
    headers: dict[str, str]
    body: bytes
    problem: str | None  # None: the signature verified
    status: int  # what the receiver answered

    @property
    def json(self) -> Any:
        return json.loads(self.body)


@dataclass
class Receiver:
    url: str = ""
    secrets: list[str] = field(default_factory=list)
    fail_with: list[int] = field(default_factory=list)
    delay: float = 0.0
    received: list[Received] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def wait_for_secrets(self) -> None:
        deadline = time.monotonic() + SECRET_WAIT_SECONDS
        while not self.secrets and time.monotonic() < deadline:
            time.sleep(0.01)

    def accepted(self) -> list[Received]:
        with self.lock:
            return [r for r in self.received if 200 <= r.status < 300]


@contextmanager
def run_receiver() -> Iterator[Receiver]:
    state = Receiver()

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            body = self.rfile.read(int(self.headers.get("content-length", 0)))
            headers = {k.lower(): v for k, v in self.headers.items()}
            state.wait_for_secrets()
            problem = verify(state.secrets, headers, body)
            with state.lock:
                status = state.fail_with.pop(0) if state.fail_with else 200
                if problem:
                    status = 400
                state.received.append(Received(headers, body, problem, status))
            if state.delay:
                time.sleep(state.delay)
            try:
                self.send_response(status)
                if 300 <= status < 400:
                    self.send_header("Location", state.url)
                self.send_header("Content-Length", "0")
                self.end_headers()
            except (BrokenPipeError, ConnectionResetError):
                pass

        def log_message(self, format: str, *args: object) -> None:
            pass

    with serve_handler_in_thread(Handler, "webhook-receiver") as base_url:
        state.url = f"{base_url}/hooks"
        yield state
