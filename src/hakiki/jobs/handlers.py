"""Every module that defines tasks, imported so the worker knows their names."""

from __future__ import annotations

from hakiki.webhooks import tasks as _webhook_tasks  # noqa: F401
