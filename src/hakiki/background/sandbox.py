"""The background checks' sandbox (docs/sandbox.md#background-checks): the candidate's e-mail
drives the request's path, and each endpoint's test values."""

from __future__ import annotations

from typing import Any

from hakiki.core.endpoints import Examples, TestValue

# The local part's suffix -> the path the sandbox takes, within seconds.
SUFFIXES: dict[str, str] = {
    "+complete": "complete",  # submitted, every check clear, completed
    "+consider": "consider",  # submitted, completed with at least one check consider
    "+stall": "stall",  # submitted, then stalled (a check past its SLA)
    "+expire": "expire",  # expired: the candidate never used the link
}


def sandbox_path(email: str) -> str | None:
    """The path a sandbox request takes from its candidate's e-mail; None: it stays pending
    until the candidate uses the link, like a live one."""
    local = email.rsplit("@", 1)[0].lower()
    for suffix, path in SUFFIXES.items():
        if local.endswith(suffix):
            return path
    return None


def _candidate(email: str) -> dict[str, Any]:
    return {"first_name": "Wanjiru", "last_name": "Kamau", "email": email}


def _create(description: str, email: str, status: str) -> TestValue:
    return TestValue(
        description=description,
        body={"package_id": "spk_ke_basic_identity", "candidates": [_candidate(email)]},
        expect={
            "http_status": 201,
            "status": "PENDING",
            "async_pending": True,
            "data.requests.0.state": status,
            "data.requests.0.live": False,
        },
    )


CANDIDATES = Examples(
    [
        _create(
            "+complete: completes within seconds, every check clear",
            "wanjiru+complete@example.com",
            "pending",
        ),
        _create(
            "+consider: completes within seconds, at least one check consider",
            "wanjiru+consider@example.com",
            "pending",
        ),
        _create("+stall: becomes stalled within seconds", "wanjiru+stall@example.com", "pending"),
        _create("+expire: becomes expired within seconds", "wanjiru+expire@example.com", "pending"),
        _create(
            "any other address: pending until the candidate uses the invitation link",
            "wanjiru@example.com",
            "pending",
        ),
        TestValue(
            description="an unknown package: 404",
            body={"package_id": "spk_xx_nothing", "candidates": [_candidate("a@example.com")]},
            expect={"http_status": 404, "error": "not_found"},
        ),
        TestValue(
            description="an e-mail that is not one: 400 naming candidates.0.email",
            body={
                "package_id": "spk_ke_basic_identity",
                "candidates": [_candidate("not-an-email")],
            },
            expect={"http_status": 400, "error": "invalid_request"},
        ),
        TestValue(
            description="a callback_url that is not http(s): 400 naming callback_url",
            body={
                "package_id": "spk_ke_basic_identity",
                "candidates": [_candidate("a@example.com")],
                "callback_url": "ftp://lender.example/hooks",
            },
            expect={"http_status": 400, "details.0.field": "callback_url"},
        ),
    ]
)

CANDIDATE_LIST = Examples(
    [
        TestValue(
            description="a new organisation's requests: none",
            query={"status": "pending"},
            expect={"http_status": 200, "pagination.total_items": 0},
        ),
        TestValue(
            description="an unknown status: 400",
            query={"status": "done"},
            expect={"http_status": 400, "error": "invalid_request"},
        ),
    ]
)

CHECK_TYPES = Examples(
    [
        TestValue(
            description="every check type",
            query={},
            expect={"http_status": 200, "data.0.code": "identity"},
        ),
        TestValue(
            description="Kenya's check types",
            query={"country_code": "KE"},
            expect={"http_status": 200, "country_code": "KE", "data.0.code": "identity"},
        ),
        TestValue(
            description="an unknown country: 400",
            query={"country_code": "ZZ"},
            expect={"http_status": 400, "error": "invalid_request"},
        ),
    ]
)

COUNTRIES = Examples(
    [
        TestValue(
            description="the four countries",
            query={},
            expect={"http_status": 200, "data.0.country_code": "KE"},
        )
    ]
)

SYSTEM_PACKAGES = Examples(
    [
        TestValue(
            description="Kenya's system packages",
            query={"country_code": "KE"},
            expect={"http_status": 200, "data.0.id": "spk_ke_basic_identity"},
        ),
        TestValue(
            description="an unknown country: 400",
            query={"country_code": "XX"},
            expect={"http_status": 400, "error": "invalid_request"},
        ),
    ]
)

PACKAGES = Examples(
    [
        TestValue(
            description="a new organisation's packages: none",
            query={},
            expect={"http_status": 200, "pagination.total_items": 0},
        ),
        TestValue(
            description="page_size over 100: 400",
            query={"page_size": 101},
            expect={"http_status": 400, "error": "invalid_request"},
        ),
    ]
)

PACKAGE_CREATE = Examples(
    [
        TestValue(
            description="a Kenyan package of three checks",
            body={
                "name": "Loan officers",
                "country_code": "KE",
                "check_types": ["identity", "sanctions_pep", "criminal_record"],
            },
            expect={"http_status": 201, "check_types.2": "criminal_record", "system": False},
        ),
        TestValue(
            description="a check type that does not exist: 400 naming check_types.1",
            body={"name": "Bad", "country_code": "KE", "check_types": ["identity", "horoscope"]},
            expect={"http_status": 400, "details.0.field": "check_types.1"},
        ),
        TestValue(
            description="a check type not offered in the country: 400",
            body={"name": "Bad", "country_code": "NG", "check_types": ["tax_compliance"]},
            expect={"http_status": 400, "details.0.field": "check_types.0"},
        ),
    ]
)
