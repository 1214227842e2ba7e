"""Document verification: POST /v3/documents/verify (docs/api.md#documents)."""
