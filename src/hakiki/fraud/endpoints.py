"""The fraud category's entries in the endpoint catalogue (docs/api.md)."""

from __future__ import annotations

from hakiki.core.endpoints import Endpoint, declare
from hakiki.core.settings import Settings
from hakiki.engines.face.images import DEFAULT_MAX_BYTES as IMAGE_MAX_BYTES
from hakiki.fraud import sandbox

# What a multipart body may carry besides its file (part headers, form fields).
FORM_FRAMING_BYTES = 1 << 20
# A report's subject.face_image_base64 may hold 14,000,000 characters (a 10 MB photo).
REPORT_MAX_BODY_BYTES = 15 * 1024 * 1024


def bulk_upload_max_body_bytes(settings: Settings) -> int:
    """HAKIKI_BULK_MAX_BYTES for the file, and the form around it."""
    return settings.bulk_max_bytes + FORM_FRAMING_BYTES


REPORT = declare(
    Endpoint(
        key="fraud.report",
        method="POST",
        path="/v3/fraud/reports",
        scope="fraud:write",
        summary="Submit a fraud report to the shared fraud database",
        status_code=201,
        errors=(400, 409),
        sandbox=sandbox.REPORT,
        max_body_bytes=REPORT_MAX_BODY_BYTES,
        logged_fields=(
            "subject.country",
            "subject.identifiers.type",
            "incident.category",
            "incident.currency",
        ),
    )
)
REPORTS = declare(
    Endpoint(
        key="fraud.reports",
        method="GET",
        path="/v3/fraud/reports",
        scope="fraud:read",
        summary="Your organisation's fraud reports, newest first",
        errors=(400,),
        sandbox=sandbox.REPORT_LIST,
    )
)
REPORT_READ = declare(
    Endpoint(
        key="fraud.report_read",
        method="GET",
        path="/v3/fraud/reports/{report_id}",
        scope="fraud:read",
        summary="One of your organisation's fraud reports",
        errors=(404,),
    )
)
ID_SCAN = declare(
    Endpoint(
        key="fraud.id_scan",
        method="POST",
        path="/v3/fraud/id-scan",
        scope="fraud:read",
        summary="Scan an identity number for fraud signals",
        price=500,
        errors=(400, 402, 409),
        sandbox=sandbox.ID_SCAN,
        logged_fields=("channel", "country_code"),
    )
)
PHONE = declare(
    Endpoint(
        key="fraud.phone",
        method="POST",
        path="/v3/fraud/phone",
        scope="fraud:read",
        summary="Verify and enrich a phone number (carrier, line type, risk)",
        price=200,
        errors=(400, 402, 409),
        sandbox=sandbox.PHONE,
        logged_fields=("country_code",),
    )
)
FACE_SCAN = declare(
    Endpoint(
        key="fraud.face_scan",
        method="POST",
        path="/v3/fraud/face-scan",
        scope="fraud:read",
        summary="Scan a face against the fraud bank and faces seen with other identity numbers",
        price=1000,
        errors=(400, 402, 409),
        sandbox=sandbox.FACE_SCAN,
        max_body_bytes=IMAGE_MAX_BYTES + FORM_FRAMING_BYTES,
    )
)
ADDRESS = declare(
    Endpoint(
        key="fraud.address",
        method="POST",
        path="/v3/fraud/address",
        scope="fraud:read",
        summary="Verify a physical address; returns a match/risk signal",
        price=300,
        errors=(400, 402, 409),
        sandbox=sandbox.ADDRESS,
        logged_fields=("country_code",),
    )
)
IDENTITY_RISK = declare(
    Endpoint(
        key="fraud.identity_risk",
        method="POST",
        path="/v3/fraud/identity-risk",
        scope="fraud:read",
        summary="Composite identity-risk scan from a flexible payload",
        price=800,
        errors=(400, 402, 409),
        sandbox=sandbox.IDENTITY_RISK,
        logged_fields=("country_code", "identifiers.channel", "identifiers.country_code"),
    )
)
BULK_UPLOAD = declare(
    Endpoint(
        key="fraud.bulk_scan.upload",
        method="POST",
        path="/v3/fraud/bulk-scan/upload",
        scope="fraud:read",
        summary="Start a bulk fraud scan of a CSV or XLSX file",
        status_code=202,
        errors=(400, 402, 409),
        # Per scanned row; rows that end in an error are not charged.
        unit_prices={
            "fraud.bulk_scan.id": 500,
            "fraud.bulk_scan.phone": 200,
            "fraud.bulk_scan.face": 1000,
        },
        sandbox=sandbox.BULK_UPLOAD,
        max_body_bytes=bulk_upload_max_body_bytes,
        # The file's SHA-256 names a file of many rows, which no one can guess from one person.
        logged_fields=("scan_type", "channel", "country_code", "file_sha256"),
    )
)
BULK_LIST = declare(
    Endpoint(
        key="fraud.bulk_scans",
        method="GET",
        path="/v3/fraud/bulk-scan",
        scope="fraud:read",
        summary="Your bulk scans, newest first",
        errors=(400,),
        sandbox=sandbox.BULK_LIST,
    )
)
BULK_READ = declare(
    Endpoint(
        key="fraud.bulk_scan",
        method="GET",
        path="/v3/fraud/bulk-scan/{bulk_id}",
        scope="fraud:read",
        summary="Status, progress and results of a bulk scan",
        errors=(400, 404),
    )
)
