"""Developer tools run from the repository: the examples capture (issue 35)."""
