"""The Background category's entries in the endpoint catalogue (docs/api.md#background-checks):
the spec's 13 paths plus the analyst's call that records a manual check's result."""

from __future__ import annotations

from hakiki.background import sandbox
from hakiki.background.check_types import UNIT_PRICES
from hakiki.core.endpoints import Endpoint, declare
from hakiki.core.privacy.consent import Consented

# What a console user attests when inviting a candidate from the console (a required checkbox;
# stored with the call as its consent record, source console: docs/privacy.md#consent).
CANDIDATES_ATTESTATION = (
    "I confirm that the candidate was given our privacy notice and consented to this "
    "background check, and that we can show their consent if asked."
)
CANDIDATES_PURPOSES = ("background_check",)
CANDIDATES_CREATE = declare(
    Endpoint(
        key="background.candidates.create",
        method="POST",
        path="/v3/background/candidates",
        scope="background:write",
        summary="Invite one or more candidates to a background check with a package",
        status_code=201,
        errors=(400, 402, 404, 409),
        unit_prices=UNIT_PRICES,  # per check run, by background.check.<code>
        sandbox=Consented(sandbox.CANDIDATES, CANDIDATES_PURPOSES),
        logged_fields=("package_id",),
        consent="required",  # for every candidate the request names (docs/privacy.md)
    )
)
CANDIDATES_LIST = declare(
    Endpoint(
        key="background.candidates.list",
        method="GET",
        path="/v3/background/candidates",
        scope="background:read",
        summary="List candidate requests (filters: status, package, dates)",
        errors=(400,),
        sandbox=sandbox.CANDIDATE_LIST,
    )
)
CANDIDATE_READ = declare(
    Endpoint(
        key="background.candidates.read",
        method="GET",
        path="/v3/background/candidates/{reference}",
        scope="background:read",
        summary="One candidate request: its checks, their results and evidence, its timeline",
        errors=(400, 404),  # 400: an id longer than any we issue
    )
)
CANDIDATE_REINITIATE = declare(
    Endpoint(
        key="background.candidates.reinitiate",
        consent="none",  # no subject's consent to record here
        method="POST",
        path="/v3/background/candidates/{reference}/reinitiate",
        scope="background:write",
        summary="Send a stalled or expired request a fresh invitation (the old link dies)",
        errors=(404, 409),
    )
)
CHECK_RESULT = declare(
    Endpoint(
        key="background.checks.record",
        consent="none",  # no subject's consent to record here
        method="POST",
        path="/v3/background/candidates/{reference}/checks/{code}/result",
        scope="background:review",
        summary="Record a manual check's result with its evidence (your analyst)",
        errors=(400, 402, 404, 409),
    )
)
SYSTEM_PACKAGES = declare(
    Endpoint(
        key="background.system_packages.list",
        method="GET",
        path="/v3/background/system-packages",
        scope="background:read",
        summary="List platform-provided packages (optionally of one country)",
        errors=(400,),
        sandbox=sandbox.SYSTEM_PACKAGES,
    )
)
SYSTEM_PACKAGE = declare(
    Endpoint(
        key="background.system_packages.read",
        method="GET",
        path="/v3/background/system-packages/{package_id}",
        scope="background:read",
        summary="Get one system package",
        errors=(400, 404),  # 400: an id longer than any we issue
    )
)
PACKAGES = declare(
    Endpoint(
        key="background.packages.list",
        method="GET",
        path="/v3/background/packages",
        scope="background:read",
        summary="List the organisation's custom packages",
        errors=(400,),
        sandbox=sandbox.PACKAGES,
    )
)
PACKAGE_CREATE = declare(
    Endpoint(
        key="background.packages.create",
        consent="none",  # no subject's consent to record here
        method="POST",
        path="/v3/background/packages",
        scope="background:write",
        summary="Create a custom package",
        status_code=201,
        errors=(400, 409),
        sandbox=sandbox.PACKAGE_CREATE,
        # a package's name and description are free text: masked like any field not listed
        logged_fields=("country_code", "check_types"),
    )
)
PACKAGE_READ = declare(
    Endpoint(
        key="background.packages.read",
        method="GET",
        path="/v3/background/packages/{package_id}",
        scope="background:read",
        summary="Get one custom package",
        errors=(400, 404),  # 400: an id longer than any we issue
    )
)
PACKAGE_UPDATE = declare(
    Endpoint(
        key="background.packages.update",
        method="PUT",
        path="/v3/background/packages/{package_id}",
        scope="background:write",
        summary="Replace a custom package (running requests keep the version they started with)",
        errors=(400, 404, 409),
    )
)
PACKAGE_DELETE = declare(
    Endpoint(
        key="background.packages.delete",
        method="DELETE",
        path="/v3/background/packages/{package_id}",
        scope="background:write",
        summary="Delete a custom package (running requests made with it run on)",
        status_code=204,
        errors=(400, 404),  # 400: an id longer than any we issue
    )
)
COUNTRIES = declare(
    Endpoint(
        key="background.countries",
        method="GET",
        path="/v3/background/countries",
        scope="background:read",
        summary="List countries supported for background checks",
        errors=(400,),
        sandbox=sandbox.COUNTRIES,
    )
)
CHECK_TYPES = declare(
    Endpoint(
        key="background.check_types",
        method="GET",
        path="/v3/background/check-types",
        scope="background:read",
        summary="List check types, all or one country's (country_code)",
        errors=(400,),
        sandbox=sandbox.CHECK_TYPES,
    )
)
