"""Catalogue entries of the privacy records (/v3/privacy): account:admin (an owner's or
admin's key or console session), free, both environments; each read is itself audited."""

from __future__ import annotations

from hakiki.core.endpoints import Endpoint, declare

CONSENT = declare(
    Endpoint(
        key="privacy.consent",
        method="GET",
        path="/v3/privacy/consents/{consent_id}",
        scope="account:admin",
        summary="One consent record, decrypted",
        errors=(404,),
        personal_data=True,
    )
)
AUDIT_LOG = declare(
    Endpoint(
        key="privacy.audit_log",
        method="GET",
        path="/v3/privacy/audit-log",
        scope="account:admin",
        summary="Who read or changed personal data, newest first",
        errors=(400,),
        personal_data=True,
    )
)
