"""Where a data subject's personal data lives: one declaration per table, read by the subject
requests (find, export, erase) and the retention purge. The engine reads each table's columns
from the table registry (``hakiki.core.tables.metadata``); a declaration only says which
columns hold personal data, how a row is tied to its organisation and its subject, and what
erasure does with it. A new table plugs in with one ``SubjectTable`` here (its category, its
columns); ``tests/privacy/test_catalogue.py`` fails while a table with encrypted, sealed or
hashed columns is neither declared here nor listed in ``NOT_SUBJECT_DATA`` with its reason."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

Action = Literal["delete", "anonymise", "keep"]


@dataclass(frozen=True)
class Link:
    """Rows found through another table's found rows: ``column`` holds a value of
    ``source``'s ``source_column`` (a child's parent id, a review's subject key)."""

    column: str
    source: str
    source_column: str


@dataclass(frozen=True)
class SubjectTable:
    table: str
    category: str
    # Personal data: ``encrypted`` (core.crypto.Vault.encrypt text), ``sealed`` (Vault.seal
    # bytes), ``clear`` (text or JSON in clear: the organisation's reference, a URL, an event).
    encrypted: tuple[str, ...] = ()
    sealed: tuple[str, ...] = ()
    clear: tuple[str, ...] = ()
    # Keyed hashes of the subject's values (erased with the row; ``anonymise`` nulls them).
    hashes: tuple[str, ...] = ()
    # Found by the subject's keyed hashes: column -> kind of key (``identifier`` and
    # ``value``: the fraud domain's look-up keys; ``subject``: a call's subject_hash).
    keyed: dict[str, str] = field(default_factory=dict)
    # Found by the organisation's subject reference, compared exactly.
    reference: tuple[str, ...] = ()
    # Rows found through other tables' found rows (the row itself need not hold the values).
    links: tuple[Link, ...] = ()
    # A table without the organisation's and environment's columns belongs to the rows of
    # ``scope``'s table that do (its parent).
    scope: Link | None = None
    created_column: str | None = "created_at"
    action: Action = "delete"
    # Why the rows are kept or only anonymised (the receipt and docs/privacy.md show it).
    reason: str = ""
    # Rows that erasure never touches (kept by law), as a column that must be false/null.
    keep_when: str | None = None
    # Columns ``anonymise`` sets to NULL (default: every personal and hash column).
    scrub: tuple[str, ...] = ()

    @property
    def personal(self) -> tuple[str, ...]:
        return self.encrypted + self.sealed + self.clear

    @property
    def scrubbed(self) -> tuple[str, ...]:
        return self.scrub or (self.personal + self.hashes)


_REGISTRY = "Identity and KYB look-ups (KYB persons, tax, vehicle)"
FRAUD_REASON = (
    "A fraud report is kept for the prevention and detection of crime (the exemptions of the "
    "Kenya DPA s.51 and the NDPA s.3; docs/privacy.md): only the reporting organisation may "
    "withdraw it."
)
LEDGER_REASON = (
    "Billing records must be kept (tax and company law: Kenya's Tax Procedures Act, "
    "Nigeria's CAMA 2020): the call's row stays, without the subject's number, hash or body."
)

TABLES: tuple[SubjectTable, ...] = (
    SubjectTable(
        "verifications",
        "identity",
        encrypted=("request_encrypted", "data_encrypted"),
        hashes=("subject_hash",),
        keyed={"subject_hash": "subject"},
    ),
    SubjectTable(
        "registry_checks",
        "registry_checks",
        encrypted=("request_encrypted", "data_encrypted"),
        hashes=("subject_hash",),
        keyed={"subject_hash": "subject"},
    ),
    SubjectTable(
        "monitored_subjects",
        "screening",
        encrypted=("reference_encrypted", "subject_encrypted"),
        hashes=("subject_key", "reference_hash"),
    ),
    SubjectTable(
        "screening_alerts",
        "screening",
        encrypted=("reference_encrypted", "name_encrypted", "hit_encrypted", "assignee_encrypted"),
        hashes=("subject_key", "reference_hash"),
        links=(Link("monitored_subject_id", "monitored_subjects", "id"),),
    ),
    SubjectTable(
        "screening_alert_events",
        "screening",
        encrypted=("actor_encrypted", "detail_encrypted"),
        links=(Link("alert_id", "screening_alerts", "id"),),
        scope=Link("alert_id", "screening_alerts", "id"),
    ),
    SubjectTable(
        "screening_reviews",
        "screening",
        encrypted=("reason_encrypted", "reviewer_encrypted"),
        hashes=("subject_key",),
        links=(
            Link("subject_key", "monitored_subjects", "subject_key"),
            Link("subject_key", "screening_alerts", "subject_key"),
        ),
    ),
    SubjectTable(
        "credit_reports",
        "credit",
        encrypted=("report_encrypted",),
        hashes=("subject_hash",),
        keyed={"subject_hash": "subject"},
    ),
    SubjectTable(
        "credit_decisions",
        "credit",
        encrypted=("inputs_encrypted",),
    ),
    SubjectTable(
        "statement_analyses",
        "statements",
        encrypted=("request_encrypted",),
        sealed=("file_sealed", "result_sealed"),
        clear=("callback_url",),
        hashes=("file_hash", "statement_hash"),
    ),
    SubjectTable(
        "background_requests",
        "background",
        encrypted=("candidate_encrypted", "submission_encrypted"),
        clear=("callback_url",),
        reference=("reference",),
    ),
    SubjectTable(
        "background_checks",
        "background",
        encrypted=("evidence_encrypted", "recorded_by_encrypted"),
        links=(Link("request_id", "background_requests", "id"),),
        scope=Link("request_id", "background_requests", "id"),
        created_column=None,
    ),
    SubjectTable(
        "background_documents",
        "background",
        sealed=("sealed",),
        links=(Link("request_id", "background_requests", "id"),),
        scope=Link("request_id", "background_requests", "id"),
    ),
    SubjectTable(
        "background_timeline",
        "background",
        clear=("detail",),
        links=(Link("request_id", "background_requests", "id"),),
        scope=Link("request_id", "background_requests", "id"),
        created_column=None,
    ),
    SubjectTable(
        "verification_sessions",
        "verification_sessions",
        encrypted=("customer_encrypted", "challenge_encrypted", "results_encrypted"),
        clear=("customer_reference", "redirect_url"),
        reference=("customer_reference",),
    ),
    SubjectTable(
        "verification_images",
        "verification_sessions",
        sealed=("image_sealed",),
        links=(Link("session_id", "verification_sessions", "id"),),
        scope=Link("session_id", "verification_sessions", "id"),
    ),
    SubjectTable(
        "document_verifications",
        "documents",
        sealed=("result_sealed",),
    ),
    SubjectTable(
        "verification_frames",
        "verification_sessions",
        hashes=("digest",),
        links=(Link("session_id", "verification_sessions", "id"),),
        scope=Link("session_id", "verification_sessions", "id"),
    ),
    SubjectTable(
        "bulk_scan_results",
        "fraud",
        encrypted=("body_encrypted",),
        scope=Link("bulk_id", "bulk_scans", "id"),
        created_column=None,
    ),
    SubjectTable(
        "identity_observations",
        "fraud",
        keyed={"identifier_key": "identifier", "value_key": "value"},
        created_column="first_seen",
        keep_when="from_report",
        reason=FRAUD_REASON,
    ),
    SubjectTable(
        "face_prints",
        "fraud",
        keyed={"identifier_key": "identifier"},
        keep_when="report_id",
        reason=FRAUD_REASON,
    ),
    SubjectTable(
        "fraud_reports",
        "fraud_reports",
        encrypted=("body_encrypted",),
        action="keep",
        reason=FRAUD_REASON,
    ),
    SubjectTable(
        "fraud_report_keys",
        "fraud_reports",
        hashes=("key_hash",),
        links=(Link("report_id", "fraud_reports", "id"),),
        scope=Link("report_id", "fraud_reports", "id"),
        created_column=None,
        action="keep",
        reason=FRAUD_REASON,
    ),
    SubjectTable(
        "consent_records",
        "consent",
        encrypted=("consent_encrypted",),
        hashes=("subject_hash", "identifier_hash"),
        keyed={"identifier_hash": "subject"},
        links=tuple(
            Link("reference", source, column)
            for source, column in (
                ("verifications", "reference"),
                ("registry_checks", "reference"),
                ("statement_analyses", "id"),
                ("background_requests", "reference"),
                ("background_requests", "id"),
                ("verification_sessions", "id"),
            )
        ),
    ),
    SubjectTable(
        "idempotency_keys",
        "request_log",
        encrypted=("response_body",),
    ),
    SubjectTable(
        "request_logs",
        "request_log",
        encrypted=("subject_encrypted",),
        clear=("request_body", "error_message"),
        hashes=("subject_hash",),
        keyed={"subject_hash": "subject"},
        action="anonymise",
        reason=LEDGER_REASON,
        scrub=("subject_hash", "subject_encrypted", "request_body", "error_message", "channel"),
    ),
    SubjectTable(
        "privacy_subject_requests",
        "subject_requests",
        encrypted=("subject_encrypted",),
        sealed=("export_sealed",),
        action="anonymise",
        reason="A subject request's receipt (counts, no personal data) stays as the record "
        "that the right was exercised (KE DPA s.26, NDPA s.34): its export and identifiers go.",
        scrub=("subject_encrypted", "export_sealed"),
    ),
    SubjectTable(
        "webhook_events",
        "webhooks",
        clear=("data",),
        links=tuple(
            Link("resource_id", source, column)
            for source, column in (
                ("verifications", "reference"),
                ("registry_checks", "reference"),
                ("monitored_subjects", "id"),
                ("screening_alerts", "id"),
                ("statement_analyses", "id"),
                ("background_requests", "reference"),
                ("background_requests", "id"),
                ("verification_sessions", "id"),
                ("fraud_reports", "id"),
            )
        ),
        created_column="occurred_at",
    ),
    SubjectTable(
        "webhook_deliveries",
        "webhooks",
        links=(Link("event_id", "webhook_events", "id"),),
    ),
    SubjectTable(
        "webhook_attempts",
        "webhooks",
        clear=("error",),
        links=(Link("delivery_id", "webhook_deliveries", "id"),),
        scope=Link("delivery_id", "webhook_deliveries", "id"),
        created_column="attempted_at",
    ),
)

# Tables with encrypted or hashed columns that hold no data subject's personal data, and why.
NOT_SUBJECT_DATA: dict[str, str] = {
    "api_keys": "the organisation's credentials",
    "console_users": "the organisation's own staff (removed by the console's user admin)",
    "console_sessions": "sign-in sessions of staff",
    "console_links": "staff sign-in and recovery links",
    "webhook_endpoints": "the organisation's receivers and their secrets",
    "bulk_scans": "the uploaded file of many subjects: a subject's rows inside it are found, "
    "exported and replaced by placeholders by hakiki.privacy.files (docs/privacy.md)",
    "screening_watchlists": "the organisation's own lists of entities to screen against",
    "background_packages": "the organisation's packages of checks",
    "jobs": "job payloads hold row ids, never personal values",
    "credit_models": "a lender's model: its uploaded loan book (many borrowers) is deleted once "
    "trained; the card holds aggregates only",
    "credit_products": "the organisation's loan products: bounds, purposes and a model id",
    "webhook_sequences": "a counter per resource id",
    "verification_settings": "the organisation's image setting, and which key or user set it",
    "list_file_parts": "public screening lists",
    "monitoring_list_entries": "public screening lists' entries",
}

BY_NAME: dict[str, SubjectTable] = {spec.table: spec for spec in TABLES}
CATEGORIES: tuple[str, ...] = tuple(dict.fromkeys(spec.category for spec in TABLES))


def children(name: str) -> list[SubjectTable]:
    """The tables found through ``name``'s rows (erased before it: their foreign keys)."""
    return [spec for spec in TABLES if any(link.source == name for link in spec.links)]
