"""The router registry: every domain's routers, in the order the application includes them."""

from __future__ import annotations

from fastapi import APIRouter

from hakiki.account.privacy.router import router as consent_audit_router
from hakiki.account.router import router as account_router
from hakiki.background.invitation import router as invitation_router
from hakiki.background.router import router as background_router
from hakiki.console.pages import router as console_router
from hakiki.core.test_values import router as sandbox_router
from hakiki.credit.products.router import router as credit_products_router
from hakiki.credit.registry.router import router as credit_models_router
from hakiki.credit.router import router as credit_router
from hakiki.documents.router import router as documents_router
from hakiki.evaluation.router import router as evaluation_router
from hakiki.fraud.bulk.router import router as bulk_scan_router
from hakiki.fraud.router import router as fraud_router
from hakiki.fraud.scan_router import router as fraud_scan_router
from hakiki.kyb.router import router as kyb_router
from hakiki.kyc.router import router as kyc_router
from hakiki.lists.router import router as lists_router
from hakiki.privacy.console_page import router as console_privacy_router
from hakiki.privacy.router import router as privacy_router
from hakiki.screening.alerts_router import router as alerts_router
from hakiki.screening.monitoring_router import router as monitoring_router
from hakiki.screening.review_router import router as review_router
from hakiki.screening.router import router as screening_router
from hakiki.screening.watchlists.router import router as watchlists_router
from hakiki.statements.router import router as statements_router
from hakiki.tax.router import router as tax_router
from hakiki.vehicle.router import router as vehicle_router
from hakiki.verification.console_page import router as console_sessions_router
from hakiki.verification.hosted import router as verification_page_router
from hakiki.verification.router import router as verification_router
from hakiki.webhooks.router import router as webhooks_router

ROUTERS: tuple[APIRouter, ...] = (
    screening_router,
    monitoring_router,
    watchlists_router,
    kyc_router,
    kyb_router,
    vehicle_router,
    tax_router,
    credit_router,
    credit_models_router,
    credit_products_router,
    background_router,
    evaluation_router,
    documents_router,
    invitation_router,
    verification_router,
    verification_page_router,
    fraud_router,
    fraud_scan_router,
    bulk_scan_router,
    statements_router,
    account_router,
    consent_audit_router,
    lists_router,
    review_router,
    alerts_router,
    webhooks_router,
    privacy_router,
    sandbox_router,
    console_router,
    console_sessions_router,
    console_privacy_router,
)
