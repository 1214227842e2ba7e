"""Upstream providers in general: an ordered chain per channel with fallback, and a circuit
breaker per provider (docs/providers.md). Pure and domain-free: identity uses it first; tax,
KYB, vehicle and credit providers can use it the same way."""
