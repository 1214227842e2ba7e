"""Settings from ``HAKIKI_*`` environment variables. None is needed to start."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Literal

from pydantic import Field, field_validator, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from hakiki.core.endpoints import price_of
from hakiki.core.rate_limit import parse_limit
from hakiki.engines.fraud.risk import WEIGHTS

#: The categories whose upstream providers a deployment orders (HAKIKI_PROVIDER_ORDER).
PROVIDER_CATEGORIES = ("identity", "tax", "kyb", "vehicle")


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="HAKIKI_", env_file=".env", extra="ignore")

    data_dir: Path = Field(
        default=Path("hakiki-data"),
        description="Folder for the embedded SQLite database and the generated secret key.",
    )
    database_url: str | None = Field(
        default=None,
        description="SQLAlchemy URL; default is SQLite (WAL) at <data_dir>/hakiki.db. "
        "For PostgreSQL: postgresql+asyncpg://user@host:5432/db",
    )
    secret_key: str | None = Field(
        default=None,
        description="Key for encrypting personal data and keyed hashes (32+ characters). "
        "Generated into <data_dir>/secret.key on first start when unset.",
    )
    host: str = "127.0.0.1"
    port: int = 8000
    workers: int = Field(
        default=1,
        ge=1,
        description="Server processes `hakiki serve` starts; one per core uses the whole machine "
        "(each holds its own copy of the screening index).",
    )
    event_loop: Literal["auto", "asyncio", "uvloop"] = Field(
        default="auto",
        description="The event loop `hakiki serve` runs on. auto: uvloop with a greedy accept "
        "with one process (a burst of new connections is accepted at once), plain uvloop with "
        "several (it accepts one connection per turn, which spreads a burst over the "
        "processes); docs/decisions.md.",
    )

    def serving_loop(self, workers: int) -> str:
        return choose_event_loop(self.event_loop, workers)

    default_currency: str = "KES"
    prices: dict[str, int] = Field(
        default_factory=dict,
        description="Prices per billable endpoint in minor units, as JSON, e.g. "
        '{"screening.aml_with_id": 5000}; endpoints not named keep the default price of '
        "their entry in the endpoint catalogue (docs/api.md#prices).",
    )
    rate_limit: str = Field(
        default="100/second",
        description="Calls allowed per API key, in the `limits` notation, e.g. 100/second or "
        "6000/minute (a fixed window per key).",
    )
    rate_limits: dict[str, str] = Field(
        default_factory=dict,
        description="Limits per organisation id that replace rate_limit for each of its keys, "
        'as JSON, e.g. {"org_01jd...": "500/second"}.',
    )
    redis_url: str | None = Field(
        default=None,
        description="Redis for the rate-limit counters, shared by every process, e.g. "
        "redis://127.0.0.1:6379/0; unset: each process counts in its own memory.",
    )
    fraud_weights: dict[str, int] = Field(
        default_factory=dict,
        description="JSON: weights of fraud-risk signals replacing the defaults, e.g. "
        '{"several_names": 35}; the signals and defaults are in docs/api.md.',
    )
    fraud_sighting_retention_days: int = Field(
        default=180,
        ge=1,
        description="Days a sighting (a name, date of birth or phone given with an identity "
        "number in a fraud scan or KYC call) is kept for other organisations' scans; a fraud "
        "report's are kept with the report (docs/decisions.md).",
    )
    idempotency_ttl_hours: int = 24
    request_log_retention_days: int = 90
    wallet_hold_seconds: int = 120  # unused since live calls hold in memory; still accepted
    key_cache_seconds: float = 5.0
    jobs_backend: Literal["embedded", "procrastinate"] = Field(
        default="embedded",
        description="embedded: the jobs table in the app's database, run by the servers (or "
        "`hakiki worker`); procrastinate: procrastinate on PostgreSQL, run by `hakiki worker` "
        "processes only.",
    )
    jobs_in_server: bool = Field(
        default=True,
        description="Run the job worker inside each server process (embedded mode); set false "
        "when separate `hakiki worker` processes run the jobs.",
    )
    job_concurrency: int = Field(default=4, ge=1, description="Jobs one worker runs at once.")
    job_lease_seconds: float = Field(
        default=30.0,
        gt=0,
        description="How long a claimed job stays with its worker without a heartbeat; a job "
        "whose process died is claimed again after this.",
    )
    webhooks_allow_private: bool = Field(
        default=False,
        description="Allow webhook endpoints on private, loopback, link-local and other "
        "non-public addresses (tests, local development, a receiver on the operator's network).",
    )
    webhook_timeout_seconds: float = Field(
        default=10.0, gt=0, description="How long one webhook delivery attempt may take."
    )
    webhook_secret_grace_hours: float = Field(
        default=24.0,
        ge=0,
        description="After a secret rotation, how long the old secret keeps signing beside the "
        "new one.",
    )
    bulk_max_rows: int = Field(
        default=100_000, ge=1, description="Rows one bulk scan file may hold."
    )
    bulk_max_bytes: int = Field(
        default=32 * 1024 * 1024, ge=1024, description="Size limit of a bulk scan file upload."
    )
    watchlist_max_bytes: int = Field(
        default=512 * 1024 * 1024,
        ge=1024,
        description="Size limit of an organisation watchlist CSV upload (413 beyond it).",
    )
    watchlist_max_rows: int = Field(
        default=1_000_000, ge=1, description="Data rows one organisation watchlist may hold."
    )
    bulk_parse_seconds: float = Field(
        default=20.0,
        gt=0,
        description="How long reading one bulk scan file (CSV or XLSX) may take, wall clock; a "
        "file that takes longer is refused with a 400 (the largest allowed sheet takes 3-4 s).",
    )
    bulk_chunk_rows: int = Field(
        default=500,
        ge=1,
        description="Rows a bulk scan commits at a time (their results, charges and progress "
        "together); face scans use at most 16.",
    )
    bulk_hold_hours: float = Field(
        default=48.0,
        gt=0,
        description="How long a live bulk scan's reservation of its whole price lasts.",
    )
    bulk_fetch_allow_private: bool = Field(
        default=False,
        description="Let face bulk scans fetch image URLs on private, loopback, link-local and "
        "other non-public addresses (an image store on the operator's own network).",
    )
    bulk_fetch_allowed_hosts: list[str] = Field(
        default_factory=list,
        description="JSON: when set, the only hosts face bulk scans fetch images from, e.g. "
        '["images.example.com", ".cdn.example.com"] (a leading dot allows subdomains).',
    )
    bulk_fetch_timeout_seconds: float = Field(
        default=10.0, gt=0, description="How long fetching one image of a face bulk scan may take."
    )
    statement_max_bytes: int = Field(
        default=20 * 1024 * 1024, ge=1024, description="Size limit of a statement upload."
    )
    statement_max_rows: int = Field(
        default=50_000, ge=10, description="Rows a CSV or XLSX statement may hold."
    )
    statement_file_retention_days: float = Field(
        default=7.0,
        gt=0,
        description="Days an uploaded statement file is kept (encrypted) after its upload; "
        "housekeeping then deletes it. The analysis itself stays.",
    )
    statement_hold_hours: float = Field(
        default=24.0, gt=0, description="How long a live analysis's reservation lasts."
    )
    statement_reader_memory_mb: int = Field(
        default=1024,
        ge=256,
        description="Address space (MB) of the child process that reads one statement file "
        "(the upload check, the analysis); a file needing more is refused `too_large`.",
    )
    statement_reader_check_seconds: float = Field(
        default=20.0,
        gt=0,
        description="How long the upload check of one statement file may take before its "
        "child process is killed and the upload refused `too_large`.",
    )
    statement_reader_analysis_seconds: float = Field(
        default=300.0,
        gt=0,
        description="How long the analysis of one statement file may take before its child "
        "process is killed and the analysis failed `too_large`, uncharged.",
    )
    statement_reader_workers: int = Field(
        default=2,
        ge=1,
        le=64,
        description="Statement files read at once per process, for upload checks and for "
        "analyses each; more wait their turn.",
    )
    list_max_age_days: int = Field(
        default=90,
        ge=1,
        description="A screening list in use older than this many days is reported stale "
        "(`hakiki lists status`, `GET /v3/account/lists`, every screening answer) and warned "
        "about at start-up.",
    )
    list_stale_fatal: bool = Field(
        default=False,
        description="Treat a stale list (older than list_max_age_days) as unusable: a "
        "screening check it serves is reported not_performed (never clear) and not charged.",
    )
    lists_check_seconds: float = Field(
        default=15.0,
        gt=0,
        description="How often every API and worker process looks for a new screening list "
        "version stored by `hakiki lists update` or the scheduled update (one small query), "
        "and reloads its engine when there is one: a new version is in use everywhere within "
        "this plus the reload's time (docs/lists.md). Keep it at 45 or less for the 60 s "
        "promise.",
    )
    lists_update_every_seconds: int = Field(
        default=0,
        ge=0,
        description="Run `hakiki lists update` from the server every this many seconds "
        "(86400: daily), once across all processes, as a durable job; 0 (the default): never, "
        "update from cron instead (docs/lists.md).",
    )
    name_match_threshold: float = Field(
        default=0.85, description="Score from which `compare` counts the names as matching."
    )
    aml_threshold: float = Field(
        default=0.80, description="Default score from which an AML candidate is reported as a hit."
    )
    monitoring_check_seconds: float = Field(
        default=60.0,
        ge=0,
        description="How often a process that runs jobs compares its screening lists with those "
        "the ongoing monitoring last screened (a change starts a delta screening), and starts the "
        "day's full pass and billing run; 0 never (docs/api.md#ongoing-monitoring).",
    )

    prembly_app_id: str | None = Field(default=None, description="Prembly (IdentityPass) app id.")
    prembly_api_key: str | None = Field(default=None, description="Prembly secret API key.")
    prembly_base_url: str = "https://api.prembly.com"
    smile_id_partner_id: str | None = Field(
        default=None, description="Smile ID partner id (without the portal's leading zeros)."
    )
    smile_id_api_key: str | None = Field(
        default=None, description="Smile ID API key of the environment the base URL points at."
    )
    smile_id_base_url: str = Field(
        default="https://api.smileidentity.com/v1",
        description="Smile ID API base: production https://api.smileidentity.com/v1, sandbox "
        "https://testapi.smileidentity.com/v1.",
    )
    smile_id_id_types: dict[str, str] = Field(
        default_factory=dict,
        description="Smile ID id_type per channel, as JSON, over the documented defaults, e.g. "
        '{"TZ:nida": "NATIONAL_ID"} for an id_type Smile ID enabled on your account; an empty '
        'value ("KE:kra_pin": "") turns a default off.',
    )
    provider_timeout_seconds: float = 15.0
    dojah_app_id: str | None = Field(
        default=None, description="Dojah app id (AppId header): a second provider for NG bvn/nin."
    )
    dojah_secret_key: str | None = Field(
        default=None, description="Dojah secret key (sent as the Authorization header)."
    )
    dojah_base_url: str = Field(
        default="https://api.dojah.io",
        description="Dojah API base: production https://api.dojah.io, sandbox "
        "https://sandbox.dojah.io.",
    )
    identity_provider_order: dict[str, list[str]] = Field(
        default_factory=dict,
        description="Identity providers tried per channel, in order, as JSON: keys COUNTRY:channel "
        'or COUNTRY, e.g. {"NG": ["dojah", "prembly"], "NG:cac": ["prembly"]}. Unset: every '
        "configured provider that covers the channel, Prembly, then Dojah, then Smile ID "
        "(docs/providers.md).",
    )
    provider_order: dict[str, list[str]] = Field(
        default_factory=dict,
        description="Providers tried per channel, in order, for every category, as JSON: keys "
        "CATEGORY or CATEGORY:COUNTRY (identity also CATEGORY:COUNTRY:channel), categories "
        'identity, tax, kyb and vehicle, e.g. {"tax:NG": ["dojah", "prembly"], "kyb:NG": '
        '["prembly", "dojah"]}. identity keys join HAKIKI_IDENTITY_PROVIDER_ORDER (which wins '
        "on the same channel). Unset: every configured provider of the channel, Prembly first "
        "(docs/providers.md).",
    )
    provider_breaker_failures: int = Field(
        default=5,
        ge=1,
        description="Provider failures in a row (outage, timeout, garbage, refused credentials) "
        "that open its circuit breaker: calls skip it until the cool-down ends.",
    )
    provider_breaker_cooldown_seconds: float = Field(
        default=30.0,
        ge=0,
        description="How long an open circuit breaker skips its provider before one trial call.",
    )
    gleif_base_url: str = Field(
        default="https://api.gleif.org/api/v1",
        description="GLEIF's LEI API (open, no key): the KYB global fallback; empty turns it off.",
    )
    opencorporates_api_token: str | None = Field(
        default=None, description="OpenCorporates API token: KYB look-ups outside KE."
    )
    opencorporates_base_url: str = "https://api.opencorporates.com/v0.4"
    kyb_sync_seconds: float = Field(
        default=5.0,
        gt=0,
        description="How long a live KYB call waits for the registry before it answers PENDING "
        "and the look-up finishes in the background (then a webhook).",
    )
    kyc_sync_seconds: float = Field(
        default=5.0,
        gt=0,
        description="How long a live KYC call waits for the registry before it answers PENDING "
        "and a job finishes the look-up.",
    )
    kyc_sandbox_pending_seconds: float = Field(
        default=3.0,
        ge=0,
        description="After how long a sandbox PENDING verification (last digit 7) completes.",
    )
    vehicle_prembly_app_id: str | None = Field(
        default=None, description="Prembly app id for vehicle checks (NTSA records)."
    )
    vehicle_prembly_api_key: str | None = Field(
        default=None, description="Prembly secret key for vehicle checks."
    )
    vehicle_prembly_base_url: str = "https://api.prembly.com"
    vehicle_prembly_path: str = Field(
        default="/verification/vehicle",
        description="Path of Prembly's vehicle verification, appended to the base URL.",
    )
    qoreid_client_id: str | None = Field(
        default=None,
        description="QoreID client id (dashboard): the second provider of Nigerian plate "
        "look-ups, asked when the owner's first and last names are sent.",
    )
    qoreid_secret: str | None = Field(default=None, description="QoreID secret (dashboard).")
    qoreid_base_url: str = Field(
        default="https://api.qoreid.com", description="QoreID API base (documented)."
    )
    qoreid_token_url: str | None = Field(
        default=None,
        description="QoreID's token exchange (clientId and secret for a Bearer accessToken); "
        "unset: {HAKIKI_QOREID_BASE_URL}/token (docs/decisions.md: not on QoreID's pages).",
    )
    vehicle_sync_seconds: float = Field(
        default=5.0,
        gt=0,
        description="How long a live vehicle check waits for the registry before it answers "
        "PENDING and finishes in the background.",
    )
    vehicle_sandbox_pending_seconds: float = Field(
        default=3.0,
        ge=0,
        description="After how long a sandbox PENDING vehicle check (last digit 7) completes.",
    )

    evaluation_climate_csv: Path | None = Field(
        default=None,
        description="The 360 engine's climate norms per area (CSV, docs/evaluation-360.md): "
        "rainfall normal and variability, NDVI norm, with their source and date.",
    )
    evaluation_prices_csv: Path | None = Field(
        default=None,
        description="WFP's food price file for a country, as published on HDX: the 360 "
        "engine's price volatility per area and commodity.",
    )
    evaluation_llm_base_url: str | None = Field(
        default=None,
        description="An OpenAI-compatible API (…/v1) that writes the 360 explanation when a "
        "request asks for `generated`. Unset: the deterministic paragraph.",
    )
    evaluation_llm_api_key: str | None = Field(default=None, description="Its bearer key.")
    evaluation_llm_model: str = Field(default="", description="The model name to ask for.")
    evaluation_llm_timeout_seconds: float = Field(
        default=10.0, gt=0, description="How long to wait for the generated explanation."
    )

    gavaconnect_base_url: str = Field(
        default="https://api.kra.go.ke",
        description="KRA's GavaConnect API (https://sbx.kra.go.ke for its sandbox).",
    )
    gavaconnect_consumer_key: str | None = Field(
        default=None, description="GavaConnect app consumer key (developer.go.ke, My Apps)."
    )
    gavaconnect_consumer_secret: str | None = Field(
        default=None, description="GavaConnect app consumer secret."
    )
    gavaconnect_apps: dict[str, tuple[str, str]] = Field(
        default_factory=dict,
        description="JSON: a consumer key and secret per GavaConnect API, for apps created per "
        'API, e.g. {"pin_by_id": ["key", "secret"]}; APIs: pin_by_pin, pin_by_id, tcc, '
        "withholding. An API not named uses the consumer key and secret above.",
    )
    gavaconnect_withholding_path: str | None = Field(
        default=None,
        description="Path of a withholding certificate checker on the GavaConnect host (KRA "
        "publishes none; set it if your agreement with KRA gives you one), e.g. "
        "/checker/v1/whtcertificate. Unset: withholding checks are not offered live.",
    )
    tax_prembly_tin_path: str = Field(
        default="/verification/tin",
        description="Path of Prembly's Nigerian TIN verification, appended to "
        "HAKIKI_PREMBLY_BASE_URL; NG TIN checks use the Prembly credentials of the identity "
        "channels.",
    )
    tax_sync_seconds: float = Field(
        default=5.0,
        gt=0,
        description="How long a live tax check waits for the registry before it answers "
        "PENDING and a job finishes the look-up.",
    )
    tax_sandbox_pending_seconds: float = Field(
        default=3.0,
        ge=0,
        description="After how long a sandbox PENDING tax check (last digit 7) completes.",
    )
    metropol_base_url: str = Field(
        default="https://api.metropol.co.ke:5555/v2_1",
        description="Metropol CRB's REST API, with its version (Kenyan bureau reports).",
    )
    metropol_public_key: str | None = Field(default=None, description="Metropol API public key.")
    metropol_private_key: str | None = Field(
        default=None, description="Metropol API private key (signs each request; never sent)."
    )
    firstcentral_base_url: str = Field(
        default="https://online.firstcentralcreditbureau.com/firstcentralrestv2",
        description="FirstCentral Credit Bureau's REST API v2 (Nigerian bureau reports).",
    )
    firstcentral_username: str | None = Field(default=None, description="FirstCentral user.")
    firstcentral_password: str | None = Field(default=None, description="FirstCentral password.")
    credit_approve_score: int = Field(
        default=620, ge=300, le=850, description="Credit decisions approve at this score or above."
    )
    credit_refer_score: int = Field(
        default=560,
        ge=300,
        le=850,
        description="Credit decisions refer at this score or above (below the approve score); "
        "below it they decline.",
    )
    credit_report_retention_days: int = Field(
        default=90,
        ge=1,
        description="Days a bureau report is kept (encrypted) for decisions by reference; "
        "older ones are deleted by housekeeping.",
    )
    credit_max_debt_to_income: float = Field(
        default=0.5,
        gt=0,
        description="A credit decision is referred when obligations and the new instalment "
        "exceed this share of income.",
    )
    public_base_url: str | None = Field(
        default=None,
        description="The address candidates reach this server at, e.g. https://verify.example "
        "(the invitation links). Unset: the API answer's link uses the address the call came "
        "in on, and the invitation is e-mailed only when that is localhost.",
    )
    background_invitation_days: float = Field(
        default=7.0,
        gt=0,
        le=90,
        description="How long a background-check invitation stays open before it expires.",
    )
    background_reminder_hours: float = Field(
        default=48.0,
        ge=0,
        description="How long before an invitation expires the candidate is reminded by "
        "e-mail (0: no reminder).",
    )
    background_sandbox_seconds: float = Field(
        default=2.0,
        ge=0,
        description="After how long a sandbox request with a +complete, +consider, +stall or "
        "+expire e-mail takes its path.",
    )
    background_hold_days: float = Field(
        default=45.0,
        gt=0,
        description="How long a live background request's reservation is kept at most.",
    )
    smtp_host: str | None = Field(
        default=None,
        description="The SMTP server invitations and reminders are sent through. Unset: no "
        "e-mail is sent (the invitation link in the API answer still works).",
    )
    smtp_port: int = Field(default=587, ge=1, le=65535)
    smtp_username: str | None = None
    smtp_password: str | None = None
    smtp_starttls: bool = Field(
        default=True, description="Upgrade the SMTP connection with STARTTLS."
    )
    smtp_timeout_seconds: float = Field(default=10.0, gt=0)
    mail_from: str = Field(
        default="Hakiki <no-reply@hakiki.invalid>",
        description="The From: address of invitations and reminders.",
    )
    console_idle_minutes: float = Field(
        default=30.0, gt=0, description="A console session ends after this long without use."
    )
    console_session_hours: float = Field(
        default=12.0, gt=0, description="A console session ends this long after sign-in."
    )
    console_login_limit_account: str = Field(
        default="5 per 15 minutes",
        description="Failed console sign-ins allowed per e-mail address (limits notation).",
    )
    console_login_limit_client: str = Field(
        default="20 per 15 minutes",
        description="Failed console sign-ins allowed per client address (limits notation).",
    )
    console_reset_limit_account: str = Field(
        default="5 per 15 minutes",
        description="Password-reset requests allowed per e-mail address (limits notation); "
        "counted apart from failed sign-ins, so asking for resets locks nobody out.",
    )
    console_reset_limit_client: str = Field(
        default="20 per 15 minutes",
        description="Password-reset requests allowed per client address (limits notation).",
    )
    console_base_url: str | None = Field(
        default=None,
        description="The console's public address, e.g. https://hakiki.example.com: the base "
        "of the links in invitation and password-reset e-mails. Unset, links are e-mailed "
        "only for requests made to localhost; elsewhere none is sent (the Host header is the "
        "sender's to forge).",
    )

    @field_validator("gavaconnect_apps")
    @classmethod
    def _apps_have_keys(cls, value: dict[str, tuple[str, str]]) -> dict[str, tuple[str, str]]:
        for api, (key, secret) in value.items():
            if not key.strip() or not secret.strip():
                raise ValueError(f"gavaconnect_apps: {api!r} needs a consumer key and secret")
        return {api: (key.strip(), secret.strip()) for api, (key, secret) in value.items()}

    @field_validator("rate_limit", "console_login_limit_account", "console_login_limit_client")
    @classmethod
    def _one_limit(cls, value: str) -> str:
        parse_limit(value)
        return value

    @field_validator("rate_limits")
    @classmethod
    def _org_limits(cls, value: dict[str, str]) -> dict[str, str]:
        for text in value.values():
            parse_limit(text)
        return value

    @field_validator("fraud_weights")
    @classmethod
    def _known_signals(cls, value: dict[str, int]) -> dict[str, int]:
        unknown = sorted(set(value) - set(WEIGHTS))
        if unknown:
            raise ValueError(f"unknown fraud signals {unknown}; known: {sorted(WEIGHTS)}")
        if any(weight < 0 or weight > 100 for weight in value.values()):
            raise ValueError("fraud signal weights are 0 to 100")
        return value

    @field_validator("identity_provider_order")
    @classmethod
    def _provider_order_shape(cls, value: dict[str, list[str]]) -> dict[str, list[str]]:
        """Only the shape here; which providers exist is the identity registry's to check."""
        shaped: dict[str, list[str]] = {}
        for key, names in value.items():
            country, colon, code = key.strip().partition(":")
            if len(country) != 2 or not country.isalpha() or (colon and not code.strip()):
                raise ValueError(f"{key!r}: keys are COUNTRY or COUNTRY:channel, e.g. NG:bvn")
            cleaned = [name.strip().lower() for name in names]
            if not cleaned or not all(cleaned) or len(set(cleaned)) != len(cleaned):
                raise ValueError(f'{key!r}: list each provider once, e.g. ["dojah", "prembly"]')
            shaped[country.upper() + (f":{code.strip().lower()}" if colon else "")] = cleaned
        return shaped

    @field_validator("provider_order")
    @classmethod
    def _general_order_shape(cls, value: dict[str, list[str]]) -> dict[str, list[str]]:
        """Only the shape here; which providers exist is each category's registry's to check."""
        shaped: dict[str, list[str]] = {}
        for key, names in value.items():
            parts = [part.strip() for part in key.split(":")]
            category = parts[0].lower()
            country = parts[1].upper() if len(parts) > 1 else ""
            if (
                category not in PROVIDER_CATEGORIES
                or len(parts) > (3 if category == "identity" else 2)
                or (len(parts) > 1 and (len(country) != 2 or not country.isalpha()))
                or (len(parts) > 2 and not parts[2])
                or (category == "identity" and len(parts) == 1)
                or (category == "vehicle" and len(parts) > 1)
            ):
                raise ValueError(
                    f"{key!r}: keys are CATEGORY or CATEGORY:COUNTRY (identity:COUNTRY[:channel]"
                    f"; vehicle alone: one list for every country), categories "
                    f"{list(PROVIDER_CATEGORIES)}, e.g. tax:NG"
                )
            cleaned = [name.strip().lower() for name in names]
            if not cleaned or not all(cleaned) or len(set(cleaned)) != len(cleaned):
                raise ValueError(f'{key!r}: list each provider once, e.g. ["dojah", "prembly"]')
            tail = ":".join([country, *[p.lower() for p in parts[2:]]]) if country else ""
            shaped[category + (f":{tail}" if tail else "")] = cleaned
        return shaped

    @field_validator("smile_id_id_types")
    @classmethod
    def _smile_id_type_shape(cls, value: dict[str, str]) -> dict[str, str]:
        """Only the shape here; which channels exist is the identity registry's to check."""
        shaped: dict[str, str] = {}
        for key, id_type in value.items():
            country, _, code = key.strip().partition(":")
            if len(country) != 2 or not country.isalpha() or not code.strip():
                raise ValueError(f"{key!r}: keys are COUNTRY:channel, e.g. TZ:nida")
            id_type = id_type.strip().upper()
            if id_type and not all(c.isalnum() or c == "_" for c in id_type):
                raise ValueError(f"{key!r}: {id_type!r} is not a Smile ID id_type")
            shaped[f"{country.upper()}:{code.strip().lower()}"] = id_type
        return shaped

    @model_validator(mode="after")
    def _procrastinate_needs_postgres(self) -> Settings:
        if self.jobs_backend == "procrastinate" and self.is_sqlite:
            raise ValueError(
                "HAKIKI_JOBS_BACKEND=procrastinate needs PostgreSQL: set HAKIKI_DATABASE_URL="
                "postgresql+asyncpg://... or keep the embedded job backend with SQLite"
            )
        return self

    def price(self, key: str) -> int:
        return price_of(key, self.prices)

    @property
    def resolved_database_url(self) -> str:
        if self.database_url:
            return self.database_url
        return f"sqlite+aiosqlite:///{(self.data_dir / 'hakiki.db').as_posix()}"

    @property
    def is_sqlite(self) -> bool:
        return self.resolved_database_url.startswith("sqlite")


GREEDY_UVLOOP = "hakiki.core.greedy_loop:new_event_loop"


def choose_event_loop(choice: str, workers: int) -> str:
    """uvicorn's ``loop`` for ``workers`` server processes (HAKIKI_EVENT_LOOP: ``choice``)."""
    if choice != "auto":
        return choice
    return GREEDY_UVLOOP if workers == 1 else "uvloop"


@lru_cache
def get_settings() -> Settings:
    return Settings()
