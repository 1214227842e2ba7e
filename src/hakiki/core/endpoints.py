"""The endpoint catalogue: one declaration per endpoint, read by the route mechanism
(``core/routing.py``), billing, the OpenAPI document and ``GET /v3/sandbox/test-values``.

A domain declares its endpoints in its ``endpoints.py``; declaring registers them here, so the
catalogue holds every endpoint whose router the application includes.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal, Protocol, TypeVar

from hakiki.core.scopes import ACCOUNT_SCOPES, ALL_SCOPES

if TYPE_CHECKING:  # settings read the catalogue's prices: no import cycle at run time
    from hakiki.core.settings import Settings

Method = Literal["GET", "POST", "PUT", "PATCH", "DELETE"]

JSON_BODY_BYTES = 1 << 20  # 1 MiB: the body limit of an endpoint that declares none


@dataclass(frozen=True)
class Multipart:
    """A multipart/form-data test input: form fields and files (their bytes base64-encoded)."""

    fields: Mapping[str, Any]
    files: Mapping[str, Mapping[str, str]]  # NAME: {filename, content_type, content_base64}


@dataclass(frozen=True)
class RawContent:
    """A test input sent as the whole body with its Content-Type (a CSV file), beside a query."""

    content_type: str
    text: str


@dataclass(frozen=True)
class TestValue:
    """A documented sandbox input and the outcome it gives. ``expect`` keys other than
    ``http_status`` are dotted paths into the response body."""

    description: str
    expect: Mapping[str, Any]
    body: Mapping[str, Any] | None = None
    query: Mapping[str, Any] | None = None
    multipart: Multipart | None = None
    content: RawContent | None = None  # with ``query`` for the parameters


Query = TypeVar("Query", contravariant=True)
Answer = TypeVar("Answer", covariant=True)


class SandboxHook(Protocol):
    """An endpoint's sandbox (docs/sandbox.md): its documented test values, each with the
    outcome it gives. One per endpoint, in its domain's ``sandbox.py``."""

    def test_values(self) -> Sequence[TestValue]: ...


class MockingSandbox(SandboxHook, Protocol[Query, Answer]):
    """A sandbox that answers instead of the live engines or providers: the endpoint's service
    asks ``answer`` when the key is a sandbox key (deterministic: the same query, the same
    answer on every machine and release)."""

    def answer(self, query: Query) -> Answer: ...


@dataclass(frozen=True)
class Examples:
    """The sandbox of an endpoint that runs on the sandbox environment's own data (reports,
    bulk scans, reviews): nothing to mock, only its documented test values."""

    values: Sequence[TestValue]

    def test_values(self) -> Sequence[TestValue]:
        return self.values


@dataclass(frozen=True)
class Endpoint:
    key: str  # names the endpoint in prices, the ledger and the request log
    method: Method
    path: str
    # None: any key of the organisation (the account surface: free, no test values, since it
    # works on the organisation's own wallet, lists and webhooks in either environment).
    scope: str | None
    summary: str
    price: int = 0  # default price in minor units; HAKIKI_PRICES overrides it by key
    status_code: int = 200
    errors: tuple[int, ...] = ()  # beyond 401, 403, 429 and 500, which every endpoint has
    # Prices of the units a job of this endpoint charges (bulk scan rows), by price key.
    unit_prices: Mapping[str, int] = field(default_factory=dict)
    sandbox: SandboxHook | None = None
    # The largest request body accepted (413 payload_too_large beyond it, before reading on):
    # bytes, or a function of the settings when a setting sets the limit (bulk uploads).
    max_body_bytes: int | Callable[[Settings], int] = JSON_BODY_BYTES
    # The request-log allow-list: the request fields the log keeps as sent, as dotted paths
    # (``subject.country``; a list's items share its path). Only values that say nothing about
    # a person (channels, country codes, check types, flags, limits, ids of the caller's own
    # objects); every other value is masked (core/request_log/service.redact), so an endpoint
    # that lists nothing logs nothing personal (docs/decisions.md#request-log-and-personal-data).
    logged_fields: tuple[str, ...] = ()
    # The data subject's consent (docs/privacy.md#consent): "required" where the law or the
    # category needs it, "optional" to accept it, "none" to take none; None: derived
    # (``consent_rule``).
    consent: Literal["required", "optional", "none"] | None = None
    # Whether the audit log records who called it (docs/privacy.md#audit-log); None: derived.
    personal_data: bool | None = None

    @property
    def consent_rule(self) -> Literal["required", "optional"] | None:
        """Whether the request takes ``consent``: as declared, else optional on every POST
        that processes a subject (not the account surface: settings, wallet, webhooks)."""
        if self.consent is not None:
            return None if self.consent == "none" else self.consent
        return "optional" if self.idempotent and not self.account_surface else None

    @property
    def audited(self) -> bool:
        """Whether each successful call is an audit-log row: as declared, else every endpoint
        outside the account surface (they read or change subjects' data)."""
        return self.personal_data if self.personal_data is not None else not self.account_surface

    @property
    def billable(self) -> bool:
        return self.price > 0 or bool(self.unit_prices)

    @property
    def account_surface(self) -> bool:
        """The organisation's own settings and records: any key (no scope) or an account
        scope (webhooks:*, account:admin)."""
        return self.scope is None or self.scope in ACCOUNT_SCOPES

    @property
    def idempotent(self) -> bool:
        """Every POST takes an Idempotency-Key."""
        return self.method == "POST"

    @property
    def has_path_parameter(self) -> bool:
        return "{" in self.path

    def test_values(self) -> Sequence[TestValue]:
        return self.sandbox.test_values() if self.sandbox is not None else ()

    def body_limit(self, settings: Settings) -> int:
        limit = self.max_body_bytes
        return limit if isinstance(limit, int) else limit(settings)


CATALOGUE: dict[str, Endpoint] = {}
_DEFAULT_PRICES: dict[str, int] = {}


def declare(endpoint: Endpoint) -> Endpoint:
    """Add ``endpoint`` to the catalogue (once: a key or a method and path is never reused)."""
    if endpoint.scope is not None and endpoint.scope not in ALL_SCOPES:
        raise ValueError(f"{endpoint.key}: unknown scope {endpoint.scope!r}")
    if endpoint.account_surface and (endpoint.billable or endpoint.sandbox is not None):
        raise ValueError(f"{endpoint.key}: the account surface is free and has no sandbox")
    known = CATALOGUE.get(endpoint.key)
    if known is not None and known != endpoint:
        raise ValueError(f"endpoint {endpoint.key!r} is declared twice")
    for other in CATALOGUE.values():
        if other.key != endpoint.key and (other.method, other.path) == (
            endpoint.method,
            endpoint.path,
        ):
            raise ValueError(f"{endpoint.method} {endpoint.path} is declared twice")
    CATALOGUE[endpoint.key] = endpoint
    _DEFAULT_PRICES[endpoint.key] = endpoint.price
    _DEFAULT_PRICES.update(endpoint.unit_prices)
    return endpoint


def default_prices() -> dict[str, int]:
    """Every price key the catalogue knows, with its default price."""
    return dict(_DEFAULT_PRICES)


def price_of(key: str, overrides: Mapping[str, int]) -> int:
    """The price of ``key`` (an endpoint or a unit): the setting if given, else the default."""
    return int(overrides.get(key, _DEFAULT_PRICES.get(key, 0)))
