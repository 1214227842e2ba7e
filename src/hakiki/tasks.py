"""The task registry: every domain module that defines durable tasks, imported once here so a
worker knows their names. The composition root imports it; domains never import it."""

from __future__ import annotations

from hakiki.background import tasks as _background_tasks  # noqa: F401
from hakiki.fraud.bulk import runner as _bulk_tasks  # noqa: F401
from hakiki.kyb import tasks as _kyb_tasks  # noqa: F401
from hakiki.kyc import tasks as _kyc_tasks  # noqa: F401
from hakiki.tax import tasks as _tax_tasks  # noqa: F401
from hakiki.vehicle import tasks as _vehicle_tasks  # noqa: F401
from hakiki.webhooks import tasks as _webhook_tasks  # noqa: F401
