"""Machine-readable zones of travel documents (ICAO Doc 9303): a pure library."""
