"""The consent a customer gives on the hosted page (docs/privacy.md#consent): the notice they
ticked, in the language they read it, stored encrypted as a consent record of the session (its
``reference``), found by the session's ``customer_reference``; and its audit-log row."""

from __future__ import annotations

import hashlib
from datetime import datetime
from typing import Any

from sqlalchemy.ext.asyncio import AsyncConnection

from hakiki.core.ids import new_id
from hakiki.core.privacy import audit
from hakiki.core.privacy.consent import ConsentRecord
from hakiki.core.privacy.repository import insert_consents
from hakiki.core.runtime import Runtime
from hakiki.verification.strings import STRINGS

ENDPOINT = "verification.hosted_page"
# What the page's notice asks consent for (strings.py: check the ID number, the document's
# photo and the selfie, screen the name).
PURPOSES = ("identity_verification", "aml_screening")


def notice_version(language: str) -> str:
    """The notice's version: a digest of its text, so a changed text is a new version."""
    text = STRINGS[language]["consent"]
    return f"verification-page-{hashlib.sha256(text.encode()).hexdigest()[:12]}"


async def record(
    conn: AsyncConnection, runtime: Runtime, session: dict[str, Any], language: str, at: datetime
) -> str:
    """Store the customer's consent to ``session`` (in the caller's transaction); its id."""
    consent = ConsentRecord(
        new_id("cns"),
        "hosted",
        {
            "obtained_at": at.isoformat(),
            "method": "checkbox",
            "notice_version": notice_version(language),
            "notice_url": None,
            "notice_text": STRINGS[language]["consent"],
            "purposes": list(PURPOSES),
            "language": language,
            "subject_reference": session["customer_reference"],
        },
        session["customer_reference"],
    )
    await insert_consents(
        conn,
        [
            consent.row(
                runtime.vault,
                org_id=session["org_id"],
                environment=session["environment"],
                request_id=session["request_id"],
                endpoint=ENDPOINT,
                reference=session["id"],
                identifier_hash=None,
            )
        ],
    )
    writer = runtime.parts.get(audit.AuditWriter)
    if writer is not None:
        writer.add(
            audit.row(
                org_id=session["org_id"],
                environment=session["environment"],
                actor=("subject", session["id"]),
                action="create",
                resource="privacy.consents",
                resource_id=consent.id,
                endpoint=ENDPOINT,
                request_id=session["request_id"],
            )
        )
    return consent.id
