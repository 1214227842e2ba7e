"""The data subject's rights (access, erasure) and retention policies (issue 40)."""
