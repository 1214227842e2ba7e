"""A lender's credit products (/v3/credit/products): bounds, purposes and model per product."""
