"""Background checks: the candidate request's state machine and the check results, as data.
A pure library."""
