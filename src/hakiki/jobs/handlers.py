"""Every module that defines tasks, imported so the worker knows their names."""

from __future__ import annotations

from hakiki.fraud.bulk import runner as _bulk_tasks  # noqa: F401
from hakiki.webhooks import tasks as _webhook_tasks  # noqa: F401
