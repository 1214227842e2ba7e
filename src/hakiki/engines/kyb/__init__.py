"""KYB engines: registration-number formats of the East African registries, LEI check digits,
and the Beneficial Ownership Data Standard (BODS 0.4) statement builder. Pure: no HTTP, no
database, nothing of the rest of hakiki."""
