"""The one error the vehicle engine raises: an identifier that fits no known shape."""

from __future__ import annotations


class IdentifierError(ValueError):
    """``problem`` says what is wrong, in words a caller can show next to the field."""

    def __init__(self, problem: str) -> None:
        super().__init__(problem)
        self.problem = problem
