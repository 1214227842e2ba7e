"""Durable jobs (DESIGN §5): enqueued in the business transaction, run at least once."""
