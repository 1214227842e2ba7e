"""The task registry: every domain module that defines durable tasks, imported once here so a
worker knows their names, and every category of registry check, so the completion job of
core/registry_checks finds the one a row names. The composition root imports it; domains never
import it."""

from __future__ import annotations

from hakiki.background import tasks as _background_tasks  # noqa: F401
from hakiki.core.registry_checks import tasks as _registry_check_tasks  # noqa: F401
from hakiki.credit.registry import tasks as _credit_model_tasks  # noqa: F401
from hakiki.fraud.bulk import runner as _bulk_tasks  # noqa: F401
from hakiki.kyb import completion as _kyb_checks  # noqa: F401
from hakiki.kyc import tasks as _kyc_tasks  # noqa: F401
from hakiki.lists import tasks as _list_tasks  # noqa: F401
from hakiki.privacy import tasks as _privacy_tasks  # noqa: F401
from hakiki.screening import monitoring_runs as _monitoring_tasks  # noqa: F401
from hakiki.screening.watchlists import tasks as _watchlist_tasks  # noqa: F401
from hakiki.statements import tasks as _statement_tasks  # noqa: F401
from hakiki.tax import completion as _tax_checks  # noqa: F401
from hakiki.vehicle import completion as _vehicle_checks  # noqa: F401
from hakiki.verification import tasks as _verification_tasks  # noqa: F401
from hakiki.webhooks import tasks as _webhook_tasks  # noqa: F401
