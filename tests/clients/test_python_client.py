"""The Python client against a real `hakiki serve` (this worker's shared server) over real
HTTP: typed calls with a sandbox key, pagination, errors, idempotent replays, a multipart
upload, the async client, and a webhook the server signs and delivers, verified by the client's
helper. Retries are checked against a local fake server that answers 429 and 5xx first."""

from __future__ import annotations

import asyncio
import json
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler
from pathlib import Path
from typing import Any

import pytest

from hakiki.webhooks.signing import new_secret, signed_headers
from hakiki_client import AsyncHakiki, Hakiki, HakikiError, RetryPolicy
from hakiki_client.webhooks import WebhookVerificationError, sign, verify
from tests.conftest import unique
from tests.support.fake_server import serve_handler_in_thread
from tests.support.served import Served

pytestmark = pytest.mark.processes

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def _client(served: Served) -> Hakiki:
    organisation = unique("client-org")
    served.organisation(organisation)
    bearer = served.key(organisation)["Authorization"].removeprefix("Bearer ")
    client_id, secret = bearer.split(":", 1)
    return Hakiki(client_id, secret, served.url)


def test_typed_calls_pagination_and_errors(served: Served) -> None:
    with _client(served) as hakiki:
        answer = hakiki.post_screening_aml_with_id({"channel": "bvn", "number": "22222222200"})
        assert answer["status"] == "VERIFIED" and answer["live"] is False
        channels = hakiki.get_screening_channels(page=2, page_size=2)
        assert len(channels["data"]) == 2 and channels["pagination"]["page"] == 2
        with pytest.raises(HakikiError) as refused:
            hakiki.post_screening_aml_with_id({"channel": "bvn"})  # type: ignore[typeddict-item]
        assert refused.value.status == 400 and refused.value.error == "invalid_request"
        assert refused.value.details == [{"field": "number", "problem": "is required"}]
        assert refused.value.request_id
        with pytest.raises(HakikiError) as missing:
            hakiki.get_fraud_reports_by_report_id("frr_nope")
        assert missing.value.status == 404


def test_an_idempotency_key_replays_the_first_answer(served: Served) -> None:
    with _client(served) as hakiki:
        body = {"phone": "0712 345677", "country_code": "KE"}
        first = hakiki.post_fraud_phone(body, idempotency_key="client-test-1")  # type: ignore[arg-type]
        again = hakiki.post_fraud_phone(body, idempotency_key="client-test-1")  # type: ignore[arg-type]
        assert first == again
        other = hakiki.post_fraud_phone(body)  # type: ignore[arg-type]  # a key of its own
        assert other["request_id"] != first["request_id"]


def test_a_multipart_upload_and_a_path_parameter(served: Served) -> None:
    with _client(served) as hakiki:
        csv = (EXAMPLES / "applicants.csv").read_bytes()
        scan = hakiki.post_fraud_bulk_scan_upload(
            {"file": ("applicants.csv", csv, "text/csv")}, data={"scan_type": "id"}
        )
        assert scan["status"] == "PENDING" and scan["async_pending"] is True
        assert scan["data"]["state"] == "pending" and scan["data"]["total_records"] >= 1
        deadline = time.monotonic() + 30
        while (read := hakiki.get_fraud_bulk_scan_by_bulk_id(scan["reference"]))["async_pending"]:
            assert time.monotonic() < deadline, read
            time.sleep(0.2)
        assert (read["status"], read["data"]["state"]) == ("COMPLETED", "completed")


def test_the_async_client(served: Served) -> None:
    organisation = unique("client-async")
    served.organisation(organisation)
    client_id, secret = (
        served.key(organisation)["Authorization"].removeprefix("Bearer ").split(":", 1)
    )

    async def run() -> dict[str, Any]:
        async with AsyncHakiki(client_id, secret, served.url) as hakiki:
            wallet = await hakiki.get_account_wallet()
            assert wallet["currency"] == "KES"
            return dict(await hakiki.post_tax_pin({"country_code": "KE", "pin": "A000000000W"}))

    assert asyncio.run(run())["status"] == "VERIFIED"


class _Receiver:
    """A webhook receiver on 127.0.0.1: every POST's headers and raw body."""

    def __init__(self) -> None:
        self.received: list[tuple[dict[str, str], bytes]] = []
        self.arrived = threading.Event()

    def handler(self) -> type[BaseHTTPRequestHandler]:
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers["Content-Length"]))
                receiver.received.append((dict(self.headers.items()), body))
                receiver.arrived.set()
                self.send_response(204)
                self.end_headers()

            def log_message(self, *_: object) -> None:
                pass

        return Handler


def test_a_delivered_webhook_verifies_with_the_client_helper(served: Served) -> None:
    receiver = _Receiver()
    with (
        serve_handler_in_thread(receiver.handler(), "webhook-receiver") as url,
        _client(served) as hakiki,
    ):
        endpoint = hakiki.post_account_webhooks(
            {"url": f"{url}/hooks", "events": ["verification.completed"]}
        )
        pending = hakiki.post_vehicle_verify({"registration_number": "KCA 107A"})
        assert pending["status"] == "PENDING"
        assert receiver.arrived.wait(30), "no delivery"
    headers, body = receiver.received[0]
    event = verify(body, headers, endpoint["secret"])
    assert event["type"] == "verification.completed"
    assert event["resource_id"] == pending["reference"]
    with pytest.raises(WebhookVerificationError):
        verify(body.replace(b"completed", b"failed__"), headers, endpoint["secret"])
    with pytest.raises(WebhookVerificationError):
        verify(body, headers, new_secret())


def test_the_helper_checks_what_the_server_signs() -> None:
    secret, previous = new_secret(), new_secret()
    sent = '{"id": "evt_1", "type": "screening.list_updated"}'
    now = time.time()
    from datetime import UTC, datetime

    headers = signed_headers("evt_1", datetime.fromtimestamp(now, UTC), sent, [secret, previous])
    assert verify(sent, headers, secret, now=now)["id"] == "evt_1"
    assert verify(sent.encode(), headers, previous, now=now)["id"] == "evt_1"  # rotation
    assert sign(secret, "evt_1", int(now), sent) in headers["webhook-signature"].split()
    with pytest.raises(WebhookVerificationError, match="tolerance"):
        verify(sent, headers, secret, now=now + 301)
    with pytest.raises(WebhookVerificationError, match="missing"):
        verify(sent, {}, secret)


# Retries: a local fake server -----------------------------------------------------------


class _Flaky:
    """Answers the statuses of ``script`` in turn, then 200; records each request's headers."""

    def __init__(self, script: list[tuple[int, dict[str, Any], dict[str, str]]]) -> None:
        self.script = list(script)
        self.seen: list[dict[str, str]] = []

    def handler(self) -> type[BaseHTTPRequestHandler]:
        flaky = self

        class Handler(BaseHTTPRequestHandler):
            def _answer(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                self.rfile.read(length)
                flaky.seen.append(dict(self.headers.items()))
                status, body, headers = (
                    flaky.script.pop(0) if flaky.script else (200, {"ok": True}, {})
                )
                data = json.dumps(body).encode()
                self.send_response(status)
                for name, value in {"Content-Type": "application/json", **headers}.items():
                    self.send_header(name, value)
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            do_GET = do_POST = _answer

            def log_message(self, *_: object) -> None:
                pass

        return Handler


@pytest.fixture
def sleeps() -> Iterator[list[float]]:
    yield []


def test_429_and_5xx_are_retried_with_one_idempotency_key(sleeps: list[float]) -> None:
    limited = (429, {"error": "rate_limited", "message": "slow down"}, {"Retry-After": "2"})
    down = (503, {"error": "service_unavailable", "message": "db"}, {})
    broken = (500, {"error": "internal_error", "message": "oops"}, {})
    flaky = _Flaky([limited, down, broken])
    with serve_handler_in_thread(flaky.handler(), "flaky") as url:
        hakiki = Hakiki("hk_test_x", "hks_y", url, retry=RetryPolicy(attempts=4, base=0.01))
        hakiki.transport._sleep = sleeps.append
        assert hakiki.post_fraud_phone({"phone": "0712 345677"}) == {"ok": True}  # type: ignore[comparison-overlap]
    assert len(flaky.seen) == 4
    keys = {seen["Idempotency-Key"] for seen in flaky.seen}
    assert len(keys) == 1 and keys.pop().startswith("hkc-")
    assert sleeps[0] == 2.0 and all(0 <= s <= 0.04 for s in sleeps[1:])
    assert flaky.seen[0]["Authorization"] == "Bearer hk_test_x:hks_y"


def test_what_waiting_does_not_cure_is_not_retried(sleeps: list[float]) -> None:
    unavailable = (503, {"error": "channel_unavailable", "message": "no provider"}, {})
    flaky = _Flaky([unavailable])
    with serve_handler_in_thread(flaky.handler(), "flaky") as url:
        hakiki = Hakiki("hk_test_x", "hks_y", url)
        hakiki.transport._sleep = sleeps.append
        with pytest.raises(HakikiError) as refused:
            hakiki.get_account_wallet()
    assert refused.value.error == "channel_unavailable" and len(flaky.seen) == 1 and not sleeps
    flaky = _Flaky([(500, {"error": "internal_error", "message": "x"}, {})] * 5)
    with serve_handler_in_thread(flaky.handler(), "flaky") as url:
        hakiki = Hakiki("hk_test_x", "hks_y", url, retry=RetryPolicy(attempts=3, base=0.01))
        hakiki.transport._sleep = sleeps.append
        with pytest.raises(HakikiError) as failed:
            hakiki.get_account_wallet()
    assert failed.value.status == 500 and len(flaky.seen) == 3
