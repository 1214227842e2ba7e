"""Credit: bureau pulls (Metropol in Kenya, FirstCentral in Nigeria) normalised to one report,
and credit decisions from a trained, versioned scorecard (docs/api.md#credit)."""
