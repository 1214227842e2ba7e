"""The organisation watchlist endpoints' documented sandbox test values. They run on the
sandbox environment's own watchlists: nothing is mocked."""

from __future__ import annotations

from hakiki.core.endpoints import Examples, RawContent, TestValue

SAMPLE_CSV = (
    "id,name,aliases,birth_date,countries\n"
    "C-1,Sandbox Watchlisted Person,Sandbox Watchlisted,1980-01-01,KE\n"
    "C-2,,,,\n"
)

UPLOAD = Examples(
    (
        TestValue(
            "a watchlist CSV (text/csv body): 202 pending, a job builds it",
            {"http_status": 202, "status": "pending", "list_type": "watchlist", "live": False},
            query={"name": "Sandbox watchlist"},
            content=RawContent("text/csv", SAMPLE_CSV),
        ),
        TestValue(
            "a PEP list (list_type=pep): 202 pending",
            {"http_status": 202, "status": "pending", "list_type": "pep"},
            query={"name": "Sandbox PEPs", "list_type": "pep"},
            content=RawContent(
                "text/csv",
                "name,countries,position,start_date,end_date\n"
                "Sandbox Exposed Official,KE,Sandbox Minister,2015-01-01,2019-12-31\n",
            ),
        ),
        TestValue(
            "a header without a name column: 400 naming it",
            {"http_status": 400, "error": "invalid_request", "details.0.field": "body"},
            query={"name": "Sandbox watchlist"},
            content=RawContent("text/csv", "full_name,country\nSandbox Person,KE\n"),
        ),
    )
)
LIST = Examples(
    (
        TestValue(
            "a new organisation's ready watchlists: none",
            {"http_status": 200, "data": [], "pagination.total_items": 0},
            query={"status": "ready"},
        ),
        TestValue(
            "an unknown status: 400",
            {"http_status": 400, "error": "invalid_request"},
            query={"status": "deleted"},
        ),
    )
)
