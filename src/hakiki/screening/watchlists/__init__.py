"""Organisation watchlists: an organisation's own list (CSV) uploaded through the API, built by
a durable job into an index of its own, and screened with that organisation's screenings only
(docs/api.md#organisation-watchlists)."""
