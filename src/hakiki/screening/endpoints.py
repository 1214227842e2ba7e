"""The screening category's entries in the endpoint catalogue (docs/api.md)."""

from __future__ import annotations

from hakiki.core.endpoints import Endpoint, declare
from hakiki.screening import sandbox

AML_WITH_ID = declare(
    Endpoint(
        key="screening.aml_with_id",
        method="POST",
        path="/v3/screening/aml-with-id",
        scope="identity:read",
        summary="Verify an ID, then screen the identity for sanctions and PEP",
        price=5000,
        errors=(400, 402, 409, 503),
        sandbox=sandbox.AML_WITH_ID,
        logged_fields=(
            "channel",
            "country_code",
            "checks",
            "adverse_media",
            "compare",
            "threshold",
        ),
    )
)
CHANNELS = declare(
    Endpoint(
        key="screening.channels",
        method="GET",
        path="/v3/screening/channels",
        scope="identity:read",
        summary="The ID channels usable in the combined screening, with sandbox test values",
        errors=(400,),
        sandbox=sandbox.CHANNELS_EXAMPLES,
    )
)


def _name_screening(key: str, path: str, summary: str) -> Endpoint:
    return declare(
        Endpoint(
            key=f"screening.{key}",
            method="POST",
            path=f"/v3/screening/{path}",
            scope="screening:read",
            summary=summary,
            price=1000,
            errors=(400, 402, 409, 503),
            sandbox=sandbox.NameScreeningSandbox(key),
            logged_fields=("subject_type", "checks", "threshold", "limit", "adverse_media"),
        )
    )


AML = _name_screening("aml", "aml", "Screen any subject for the checks you choose")
INDIVIDUAL = _name_screening(
    "individual", "individual", "PEP and sanctions screening of a natural person"
)
BUSINESS = _name_screening(
    "business", "business", "Sanctions and watchlist screening of a business"
)
PEP = _name_screening("pep", "pep", "Screen a person against PEP lists")
SANCTION = _name_screening(
    "sanction", "sanction", "Screen a person or entity against sanctions lists"
)
PEP_AND_SANCTION = _name_screening(
    "pep_and_sanction", "pep-and-sanction", "Combined PEP and sanctions screening of a person"
)

REVIEW = declare(
    Endpoint(
        key="screening.review",
        consent="none",  # no subject's consent to record here
        method="POST",
        path="/v3/account/screening-reviews",
        scope="screening:write",
        summary="Mark a screening hit as a false positive or a true match",
        status_code=201,
        errors=(400, 409),
        sandbox=sandbox.REVIEW,
        # the reason (free text) is masked; the reviewer is the caller, never in the body
        logged_fields=("subject_key", "list_code", "entity_id", "entity_fingerprint", "decision"),
    )
)
REVIEWS = declare(
    Endpoint(
        key="screening.reviews",
        method="GET",
        path="/v3/account/screening-reviews",
        scope="screening:read",
        summary="The audit trail of reviews, newest first",
        errors=(400,),
        sandbox=sandbox.REVIEWS,
    )
)

# The analysts' alert queue (issue 34): reading needs screening:read, acting screening:write
# (the console's developer and viewer roles lack it).
ALERTS = declare(
    Endpoint(
        key="screening.alerts",
        method="GET",
        path="/v3/screening/alerts",
        scope="screening:read",
        summary="The alert queue: hits to work, newest first",
        errors=(400,),
        sandbox=sandbox.ALERTS,
    )
)
ALERT = declare(
    Endpoint(
        key="screening.alert",
        method="GET",
        path="/v3/screening/alerts/{alert_id}",
        scope="screening:read",
        summary="One alert with its full history",
        errors=(404,),
    )
)


def _alert_action(action: str, summary: str, logged: tuple[str, ...] = ()) -> Endpoint:
    return declare(
        Endpoint(
            key=f"screening.alert_{action}",
            consent="none",  # an analyst's action: no subject's consent to record here
            method="POST",
            path=f"/v3/screening/alerts/{{alert_id}}/{action}",
            scope="screening:write",
            summary=summary,
            errors=(400, 404, 409),
            logged_fields=logged,  # assignees, comments and reasons are masked
        )
    )


ALERT_ASSIGN = _alert_action("assign", "Assign an alert to a console user or an API key")
ALERT_COMMENT = _alert_action("comments", "Comment on an alert")
ALERT_RESOLVE = _alert_action(
    "resolve", "Resolve an alert as a true match or a false positive", ("decision",)
)
