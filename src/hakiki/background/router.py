"""HTTP handlers of the background checks (/v3/background/...)."""

from __future__ import annotations

from fastapi import Depends, Path, Query
from fastapi.responses import Response

from hakiki.background import candidates, packages
from hakiki.background.endpoints import (
    CANDIDATE_READ,
    CANDIDATE_REINITIATE,
    CANDIDATES_CREATE,
    CANDIDATES_LIST,
    CHECK_RESULT,
    CHECK_TYPES,
    COUNTRIES,
    PACKAGE_CREATE,
    PACKAGE_DELETE,
    PACKAGE_READ,
    PACKAGE_UPDATE,
    PACKAGES,
    SYSTEM_PACKAGE,
    SYSTEM_PACKAGES,
)
from hakiki.background.schemas import (
    CandidateRequestList,
    CandidateResult,
    CandidatesRequest,
    CandidatesResult,
    CheckResultRequest,
    CheckTypeList,
    CountryList,
    PackageList,
    PackageOut,
    PackageRequest,
    ReinitiatedResult,
)
from hakiki.core.calls import Call
from hakiki.core.pagination import PageRequest, page_params, parse_day
from hakiki.core.routing import EndpointRouter
from hakiki.engines.background.states import RequestState

router = EndpointRouter(tags=["Background"])

Reference = Path(max_length=40, description="The request's reference (bgc_...).")
PackageId = Path(max_length=40)


@router.endpoint(CHECK_TYPES, response_model=CheckTypeList)
async def check_types(
    call: Call,
    country_code: str | None = Query(None, max_length=10, description="KE, UG, TZ or NG."),
    page: PageRequest = Depends(page_params),
) -> CheckTypeList:
    """Every check type (without `country_code`) or one country's: what it needs from the
    candidate, its turnaround, its price, whether it is `automated` (Hakiki's engines run it)
    or `manual` (your analyst works it), and whether it is `available`. An unknown country is
    400. Free. Sandbox: the same data as live (check types are configuration, not results),
    except that `credit_bureau` is available to sandbox keys in KE and NG (the sandbox bureau)
    and to live keys only where the server has the bureau's credentials."""
    return packages.check_types(call.runtime, call.principal.live, country_code, page)


@router.endpoint(COUNTRIES, response_model=CountryList)
async def countries(call: Call, page: PageRequest = Depends(page_params)) -> CountryList:
    """The countries background checks serve (KE, UG, TZ, NG), with how many check types
    each offers, automated and manual; paginated like every list. Free. Sandbox: the same
    list as live."""
    return packages.countries(page)


@router.endpoint(SYSTEM_PACKAGES, response_model=PackageList)
async def system_packages(
    call: Call,
    page: PageRequest = Depends(page_params),
    country_code: str | None = Query(None, max_length=10, description="KE, UG, TZ or NG."),
) -> PackageList:
    """The platform's packages (at least three per country), each with its check types and
    price per candidate; `country_code` keeps one country's (an unknown one is 400). Free.
    Sandbox: the same packages as live."""
    return packages.system_packages(call.runtime, country_code, page)


@router.endpoint(SYSTEM_PACKAGE, response_model=PackageOut)
async def system_package(call: Call, package_id: str = PackageId) -> PackageOut:
    """One system package (`spk_...`, e.g. `spk_ke_driver`) with its check types, price per
    candidate and longest turnaround; 404 for any other id. Free. Sandbox: as live."""
    return packages.system_package(call.runtime, package_id)


@router.endpoint(PACKAGES, response_model=PackageList)
async def list_packages(call: Call, page: PageRequest = Depends(page_params)) -> PackageList:
    """Your organisation's packages of this environment, newest first, paginated, each with
    its check types and price per candidate. Free. Sandbox: the packages made with sandbox
    keys."""
    return await packages.list_packages(call.runtime, call.principal.owner, page)


@router.endpoint(PACKAGE_CREATE, response_model=PackageOut)
async def create_package(body: PackageRequest, call: Call) -> bytes:
    """A package of check types for one country. The name is unique in your organisation
    (409 `conflict`); each check type must exist, be offered in the country and be available,
    once (400 naming `check_types.N`). Free. Sandbox: the same rules; sandbox and live
    packages are kept apart."""
    return await packages.create_package(call, body)


@router.endpoint(PACKAGE_READ, response_model=PackageOut)
async def get_package(call: Call, package_id: str = PackageId) -> PackageOut:
    """One of your packages with its check types and price per candidate; another
    organisation's, or one of the other environment, is 404. Free. Sandbox: the packages made
    with sandbox keys."""
    row = await packages.get_package(call.runtime, call.principal.owner, package_id)
    return packages.custom_package_out(call.runtime, row)


@router.endpoint(PACKAGE_UPDATE, response_model=PackageOut)
async def update_package(
    body: PackageRequest, call: Call, package_id: str = PackageId
) -> PackageOut:
    """Replace a package (same rules as create). Requests already made keep the package as it
    was when they were made. Free. Sandbox: the same rules."""
    return await packages.update_package(call.runtime, call.principal.owner, package_id, body)


@router.endpoint(PACKAGE_DELETE)
async def delete_package(call: Call, package_id: str = PackageId) -> Response:
    """204 No Content. Requests already made with the package keep their copy of it and run
    on to the end; the name becomes free again. Another organisation's package is 404. Free.
    Sandbox: the same."""
    await packages.delete_package(call.runtime, call.principal.owner, package_id)
    return Response(status_code=204)


@router.endpoint(CANDIDATES_CREATE, response_model=CandidatesResult)
async def create_candidates(body: CandidatesRequest, call: Call) -> bytes:
    """In the envelope, PENDING, `reference` the first request's (the only one's, for one
    candidate): in `data.requests`, one request per candidate, each `pending` with its
    reference and `invitation_url` (a hosted page:
    consent, the fields the package's checks need, document upload) and `expires_at`; the
    invitation is e-mailed when an SMTP server is configured. Live: the package's price per
    candidate is reserved first (402 before anything is created or sent); each check is then
    charged when it runs; an expired request releases what it did not spend. Sandbox: the
    candidate's e-mail drives the path (`+complete`, `+consider`, `+stall`, `+expire`)."""
    return await candidates.create(call, body)


@router.endpoint(CANDIDATES_LIST, response_model=CandidateRequestList)
async def list_candidates(
    call: Call,
    page: PageRequest = Depends(page_params),
    status: RequestState | None = Query(None),
    package_id: str | None = Query(None, max_length=40),
    created_from: str | None = Query(None, max_length=40, description="ISO 8601, inclusive."),
    created_to: str | None = Query(None, max_length=40, description="ISO 8601, exclusive."),
) -> CandidateRequestList:
    """Your requests of this environment, newest first; filters `status`, `package_id`,
    `created_from`, `created_to` (ISO 8601). The invitation link is shown only in the answers
    to create and reinitiate. Free. Sandbox: the requests made with sandbox keys."""
    filters = {
        "status": status,
        "package_id": package_id,
        "created_from": parse_day(created_from, "created_from"),
        "created_to": parse_day(created_to, "created_to"),
    }
    return await candidates.listing(call.runtime, call.principal.owner, page, filters)


@router.endpoint(CANDIDATE_READ, response_model=CandidateResult)
async def get_candidate(call: Call, reference: str = Reference) -> CandidateResult:
    """The request in the envelope: PENDING until completed, then COMPLETED with `verdict`
    from its `result` (clear PASS; consider and unverifiable REVIEW), or FAILED when expired.
    In `data`, its `state`, each check's `status`, `result` (`clear`, `consider`,
    `unverifiable`) and evidence, and its append-only `timeline`. Another organisation's is
    404. Free. Sandbox: the sandbox's paths leave the same timeline a live request does."""
    return await candidates.get(call, reference)


@router.endpoint(CANDIDATE_REINITIATE, response_model=ReinitiatedResult)
async def reinitiate(call: Call, reference: str = Reference) -> bytes:
    """`stalled` or `expired` -> `pending` (the envelope PENDING again): a fresh invitation with a
    new link and `expires_at` (the old link stops working); checks without a result start again.
    From any other state 409 `conflict` naming the current state. Live: a request whose
    reservation was released is reserved again for its unfinished checks (402). Sandbox: a
    `+...` e-mail takes its path again."""
    return await candidates.reinitiate(call, reference)


@router.endpoint(CHECK_RESULT, response_model=CandidateResult)
async def record_check_result(
    body: CheckResultRequest,
    call: Call,
    reference: str = Reference,
    code: str = Path(max_length=40),
) -> bytes:
    """Your analyst's result (`clear`, `consider`, `unverifiable`) for a manual check
    awaiting one, with its evidence and who recorded it; the check is charged then (live).
    409 `conflict` for an automated check, a check already recorded, or a request the
    candidate has not submitted. Answers the request as it is now, in the envelope as the GET
    does. Sandbox: the same; the
    `+complete` and `+consider` paths record manual checks as the "sandbox analyst"."""
    return await candidates.record_result(call, reference, code, body)
