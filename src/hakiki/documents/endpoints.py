"""The documents category's entry in the endpoint catalogue (docs/api.md#documents)."""

from __future__ import annotations

from hakiki.core.endpoints import Endpoint, declare
from hakiki.core.envelope import InData
from hakiki.documents import sandbox

# Three images of up to 1 MB, base64 (4/3 larger), and the fields around them; a larger image
# within this limit is a 400 naming its field.
MAX_BODY_BYTES = 8 * 1024 * 1024

VERIFY = declare(
    Endpoint(
        key="documents.verify",
        method="POST",
        path="/v3/documents/verify",
        scope="documents:read",
        summary="Verify an identity document: zone, barcodes, consistency, forensics, face",
        price=1500,
        errors=(400, 402, 409),
        sandbox=InData(sandbox.VERIFY, also=frozenset({"verdict"})),
        max_body_bytes=MAX_BODY_BYTES,
        logged_fields=("document_type", "country_code"),
    )
)
