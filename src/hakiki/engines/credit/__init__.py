"""Credit scorecards: monotonic binning, weight of evidence, logistic regression scaled to
300-850, reason codes, and the versioned model file the product applies. A pure library."""
