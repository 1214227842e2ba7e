"""The request examples of the 360 endpoints (the strong profiles of docs/sandbox.md) and the
answer the sandbox gives the crop example, shown in the OpenAPI document."""

from __future__ import annotations

from typing import Any

CROP: dict[str, Any] = {
    "country_code": "KE",
    "farmer": {"national_id": "20000000"},
    "location": {"county": "Nakuru", "latitude": -0.3031, "longitude": 36.08},
    "season": {"name": "long_rains", "year": 2026},
    "farm": {
        "size_ha": 2.5,
        "crops": [{"crop": "maize", "area_ha": 2.0, "yields_kg_per_ha": [2400, 2600, 2500]}],
        "inputs": {"certified_seed": True, "fertiliser": True, "crop_insurance": True},
    },
    "environment": {
        "season_rainfall_mm": 640,
        "normal_rainfall_mm": 650,
        "rainfall_cv_percent": 15,
        "source": "CHIRPS v2.0",
        "as_of": "2026-06-30",
    },
    "bureau": {
        "max_days_past_due": 0,
        "non_performing_accounts": 0,
        "written_off_accounts": 0,
        "months_of_history": 48,
        "enquiries_90_days": 1,
    },
    "cash_flow": {
        "months_covered": 12,
        "average_monthly_inflow": 60000,
        "average_monthly_outflow": 38000,
        "inflow_cv_percent": 18,
        "monthly_repayment": 9000,
    },
    "market": {"offtake": "contract", "distance_km": 6, "price_cv_percent": 12},
}

LIVESTOCK: dict[str, Any] = {
    "country_code": "KE",
    "farmer": {"national_id": "20000001"},
    "location": {"county": "Kajiado"},
    "herd": {"species": "cattle", "head_count": 40, "breed": "Boran", "vaccinated_percent": 95},
    "environment": {
        "season_rainfall_mm": 300,
        "normal_rainfall_mm": 310,
        "rainfall_cv_percent": 18,
        "ndvi": 0.52,
        "ndvi_norm": 0.5,
        "source": "MODIS MOD13Q1",
        "as_of": "2026-05-31",
    },
    "bureau": {
        "max_days_past_due": 0,
        "non_performing_accounts": 0,
        "written_off_accounts": 0,
        "months_of_history": 36,
        "enquiries_90_days": 0,
    },
    "cash_flow": {
        "months_covered": 12,
        "average_monthly_inflow": 120000,
        "average_monthly_outflow": 80000,
        "inflow_cv_percent": 20,
        "monthly_repayment": 15000,
    },
    "market": {"offtake": "cooperative", "distance_km": 10, "price_cv_percent": 15},
}

AGRI_SME: dict[str, Any] = {
    "country_code": "KE",
    "business": {"national_id": "PVT-AAA111"},
    "business_bureau": {
        "max_days_past_due": 0,
        "non_performing_accounts": 0,
        "written_off_accounts": 0,
        "months_of_history": 60,
        "enquiries_90_days": 1,
    },
    "principals_bureau": [
        {
            "max_days_past_due": 0,
            "non_performing_accounts": 0,
            "written_off_accounts": 0,
            "months_of_history": 96,
            "enquiries_90_days": 0,
        },
    ],
    "cash_flow": {
        "months_covered": 12,
        "average_monthly_inflow": 4500000,
        "average_monthly_outflow": 3600000,
        "inflow_cv_percent": 15,
        "monthly_repayment": 350000,
    },
    "audited_accounts": {
        "audit_opinion": "unqualified",
        "revenue": 54000000,
        "prior_year_revenue": 48000000,
        "net_margin_percent": 11,
        "current_ratio": 1.8,
        "debt_to_equity": 0.8,
        "years_of_accounts": 4,
    },
}
