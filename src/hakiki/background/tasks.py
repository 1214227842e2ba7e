"""The background checks' durable tasks (imported by the task registry)."""

from __future__ import annotations

from hakiki.background import sandbox_paths as _sandbox_paths  # noqa: F401
from hakiki.background import timers as _timers  # noqa: F401
