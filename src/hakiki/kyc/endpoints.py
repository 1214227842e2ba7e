"""The KYC category's entries in the endpoint catalogue (docs/api.md)."""

from __future__ import annotations

from hakiki.core.endpoints import Endpoint, declare
from hakiki.kyc import sandbox


def _document(document: str, path: str, summary: str) -> Endpoint:
    return declare(
        Endpoint(
            key=f"kyc.{document}",
            method="POST",
            path=f"/v3/kyc/{path}",
            scope="identity:read",
            summary=summary,
            price=2000,
            errors=(400, 402, 409, 503),
            sandbox=sandbox.DOCUMENTS[document],
            logged_fields=("country_code", "compare"),
        )
    )


NATIONAL_ID = _document(
    "national_id",
    "national-id",
    "Verify a national identity number (NG NIN, KE ID, UG NIN, TZ NIDA)",
)
DRIVERS_LICENSE = _document(
    "drivers_license", "drivers-license", "Verify a driver's licence number"
)
PASSPORT = _document(
    "passport",
    "passport",
    "Verify a passport number, and its MRZ check digits when the MRZ is sent",
)
STATUS = declare(
    Endpoint(
        key="kyc.status",
        method="GET",
        path="/v3/kyc/status/{reference}",
        scope="identity:read",
        summary="The current state of a verification (poll a PENDING one until it is final)",
        errors=(404,),
    )
)
