"""The organisation's privacy records (issue 40): consent records by id, and the audit log,
paginated and exported (docs/privacy.md)."""
