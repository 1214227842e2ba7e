"""The 360 evaluation engine category: /api/v1/farmer360/... and /api/v1/agsme360/..."""
