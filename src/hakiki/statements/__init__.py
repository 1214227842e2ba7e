"""Statement analysis: uploads analysed by a durable job (POST and GET /v3/statements)."""
