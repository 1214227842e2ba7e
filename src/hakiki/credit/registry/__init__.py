"""A lender's own scorecards: training jobs on uploaded loan books, the per-organisation
registry of versions, activation and rollback, and the model a decision uses."""
