"""Examples of the wallet's answers, shown in the OpenAPI document: a Kenyan organisation topped
up with KES 5,000 (500,000 cents) that has made one live phone scan (200 cents)."""

from __future__ import annotations

from typing import Any

WALLET: dict[str, Any] = {
    "currency": "KES",
    "balance": 499800,
    "reserved": 0,
    "available": 499800,
    "updated_at": "2026-11-24T01:17:20.907058Z",
}

WALLET_TRANSACTIONS: dict[str, Any] = {
    "data": [
        {
            "id": "txn_06h0p87whdc86tshdeq9fqjzyg",
            "kind": "debit",
            "amount": -200,
            "balance_after": 499800,
            "currency": "KES",
            "endpoint": "fraud.phone",
            "request_id": "req_06h0p87wd2kac8f9ecv6a9s7nr",
            "description": "Fraud phone scan",
            "created_at": "2026-11-24T01:17:20.907050Z",
        },
        {
            "id": "txn_06h0p87wctmaz9axgy0rxjtg4w",
            "kind": "credit",
            "amount": 500000,
            "balance_after": 500000,
            "currency": "KES",
            "endpoint": None,
            "request_id": None,
            "description": "Top-up, M-Pesa receipt SKL4H7Q2XM",
            "created_at": "2026-11-24T01:17:20.870521Z",
        },
    ],
    "pagination": {"page": 1, "page_size": 20, "total_pages": 1, "total_items": 2},
}
