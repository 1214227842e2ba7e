"""A fake OpenAI-compatible chat completions API over real HTTP, for the generated explanation.

with run_fake_llm() as fake:     # 127.0.0.1, a free port, its own thread
    fake.reply = "..."            # what the model says; fake.delay delays it
    fake.requests                 # the bodies it received
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler
from typing import Any

from tests.support.fake_server import serve_handler_in_thread


@dataclass
class FakeLlm:
    base_url: str = ""
    reply: str = ""
    status: int = 200
    delay: float = 0.0
    requests: list[dict[str, Any]] = field(default_factory=list)
    headers: list[dict[str, str]] = field(default_factory=list)


@contextmanager
def run_fake_llm() -> Iterator[FakeLlm]:
    fake = FakeLlm()

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length", "0"))
            body = json.loads(self.rfile.read(length))
            fake.requests.append(body)
            fake.headers.append(dict(self.headers))
            time.sleep(fake.delay)
            if self.path != "/v1/chat/completions":
                self.send_response(404)
                self.end_headers()
                return
            answer = {
                "id": "chatcmpl-1",
                "object": "chat.completion",
                "model": body.get("model"),
                "choices": [
                    {
                        "index": 0,
                        "finish_reason": "stop",
                        "message": {"role": "assistant", "content": fake.reply},
                    }
                ],
            }
            data = json.dumps(answer).encode()
            self.send_response(fake.status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def log_message(self, *_: Any) -> None:
            pass

    with serve_handler_in_thread(Handler, "fake-llm") as base_url:
        fake.base_url = f"{base_url}/v1"
        yield fake
