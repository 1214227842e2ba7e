"""Taxpayer numbers and tax certificates of Kenya, Uganda and Tanzania: formats and the
readings of what their revenue authorities answer. A pure library."""
