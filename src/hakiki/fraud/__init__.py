"""The Fraud category: the shared fraud database and the scans built on it."""
