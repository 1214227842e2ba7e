"""Pure fraud-risk scoring: signals in, an explained 0-100 score and level out."""
