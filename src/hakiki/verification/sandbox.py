"""The sessions' sandbox (docs/sandbox.md#verification-sessions): the customer reference's
suffix drives the document and selfie steps and the expiry; the ID number typed on the page
drives the ID and screening steps as every KYC channel's sandbox does."""

from __future__ import annotations

from typing import Any

from hakiki.core.endpoints import Examples, TestValue

# customer_reference suffix -> what the sandbox does
SUFFIXES: dict[str, str] = {
    "+liveness_fail": "the selfie step fails: the head did not follow the challenge",
    "+face_mismatch": "the selfie step fails: the face is not the document's holder",
    "+document_fail": "the document step fails: the photo is not a genuine document",
    "+expire": "the link expires within seconds, unused",
}
EXPIRE_SECONDS = 2.0


def path_of(reference: str) -> str | None:
    lowered = reference.lower()
    return next((s for s in SUFFIXES if lowered.endswith(s)), None)


def _create(description: str, reference: str, **extra: Any) -> TestValue:
    return TestValue(
        description=description,
        body={
            "steps": ["id_number", "document", "selfie_liveness", "screening"],
            "country_code": "KE",
            "id_channel": "national_id",
            "customer_reference": reference,
            **extra,
        },
        expect={
            "http_status": 201,
            "status": "PENDING",
            "async_pending": True,
            "data.state": "created",
            "live": False,
        },
    )


SESSIONS = Examples(
    [
        _create(
            "any reference: every step decided by what the customer gives (the ID number's "
            "last digit as for KYC: 0-4 found, 5 not found, 6 name mismatch, 8 source "
            "unavailable; its second-to-last digit 1 a PEP hit, 2 a sanctions hit)",
            "cust-0001",
            customer={"first_name": "Wanjiru", "last_name": "Kamau"},
        ),
        *(
            _create(f"{suffix}: {effect}", f"cust-0002{suffix}")
            for suffix, effect in SUFFIXES.items()
        ),
        TestValue(
            description="selfie_liveness without document (nothing to match the face to): 400",
            body={"steps": ["selfie_liveness"], "customer_reference": "cust-0003"},
            expect={"http_status": 400, "error": "invalid_request"},
        ),
        TestValue(
            description="id_number without id_channel: 400 naming id_channel",
            body={"steps": ["id_number"], "customer_reference": "cust-0004"},
            expect={"http_status": 400, "details.0.field": "id_channel"},
        ),
    ]
)

SESSION_LIST = Examples(
    [
        TestValue(
            description="the organisation's sessions, newest first",
            query={"page_size": 5},
            expect={"http_status": 200},
        ),
        TestValue(
            description="an unknown status: 400",
            query={"status": "done"},
            expect={"http_status": 400, "error": "invalid_request"},
        ),
    ]
)
