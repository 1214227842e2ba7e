"""KYB: business registration and ownership look-ups (docs/api.md#kyb)."""
