"""A child process's merged output, read on a thread: a chatty process never blocks on a full
pipe, and a silent one never holds a test past its deadline."""

from __future__ import annotations

import subprocess
import threading
import time
from typing import IO


class Output:
    def __init__(self, process: subprocess.Popen[str]) -> None:
        assert process.stdout is not None, "start the process with stdout=subprocess.PIPE"
        self.process = process
        self._text = ""
        self._closed = False
        self._changed = threading.Condition()
        self._thread = threading.Thread(target=self._read, args=(process.stdout,), daemon=True)
        self._thread.start()

    def _read(self, stream: IO[str]) -> None:
        for line in stream:
            with self._changed:
                self._text += line
                self._changed.notify_all()
        with self._changed:
            self._closed = True
            self._changed.notify_all()

    @property
    def text(self) -> str:
        with self._changed:
            return self._text

    def wait_for(self, text: str, timeout: float = 120, count: int = 1) -> str:
        """All output so far, once ``text`` has appeared ``count`` times."""
        deadline = time.monotonic() + timeout
        with self._changed:
            while self._text.count(text) < count:
                remaining = deadline - time.monotonic()
                assert remaining > 0, f"{text!r} not seen within {timeout} s:\n{self._text}"
                assert not self._closed, f"the process ended before {text!r}:\n{self._text}"
                self._changed.wait(min(remaining, 1.0))
            return self._text

    def rest(self, timeout: float = 30) -> str:
        """Everything, once the process has closed its output."""
        self._thread.join(timeout)
        return self.text
