"""Privacy machinery every endpoint shares (issue 40): the consent a call carries, stored
encrypted with it, and the append-only audit log of who read or changed personal data."""
