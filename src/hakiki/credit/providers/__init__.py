"""Credit bureau adapters: one normalised report, whichever bureau answered."""
