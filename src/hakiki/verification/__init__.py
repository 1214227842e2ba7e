"""Hosted verification sessions (issue 37): a one-time link a customer opens on their phone to
give their ID number, photograph their document and take a selfie with active liveness; one
result per step, one decision and a webhook (docs/api.md#verification-sessions)."""
