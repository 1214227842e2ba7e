"""Identity numbers: channels and formats, sandbox identities, provider adapters, verify."""
