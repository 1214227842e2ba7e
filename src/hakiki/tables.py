"""The table registry: every domain's tables, registered on the one ``metadata`` that the
migrations compare against. Only the composition root and the migrations import it."""

from __future__ import annotations

from hakiki.background import tables as _background_tables  # noqa: F401
from hakiki.console import tables as _console_tables  # noqa: F401
from hakiki.core.jobs import tables as _jobs_tables  # noqa: F401
from hakiki.core.privacy import tables as _consent_tables  # noqa: F401
from hakiki.core.registry_checks import tables as _registry_checks_tables  # noqa: F401
from hakiki.core.tables import metadata
from hakiki.credit import tables as _credit_tables  # noqa: F401
from hakiki.documents import tables as _documents_tables  # noqa: F401
from hakiki.fraud import tables as _fraud_tables  # noqa: F401
from hakiki.fraud.bulk import tables as _bulk_tables  # noqa: F401
from hakiki.kyc import tables as _kyc_tables  # noqa: F401
from hakiki.lists import tables as _lists_tables  # noqa: F401
from hakiki.media import tables as _media_tables  # noqa: F401
from hakiki.privacy import tables as _privacy_tables  # noqa: F401
from hakiki.screening import monitoring_tables as _monitoring_tables  # noqa: F401
from hakiki.screening import tables as _screening_tables  # noqa: F401
from hakiki.screening.watchlists import tables as _watchlist_tables  # noqa: F401
from hakiki.statements import tables as _statements_tables  # noqa: F401
from hakiki.verification import tables as _verification_tables  # noqa: F401
from hakiki.webhooks import tables as _webhooks_tables  # noqa: F401

__all__ = ["metadata"]
