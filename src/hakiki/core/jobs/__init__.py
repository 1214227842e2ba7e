"""Durable jobs (docs/jobs.md): enqueued in the business transaction, run at least once."""
