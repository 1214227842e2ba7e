"""Tax: PIN and TIN checks, Tax Compliance Certificates and withholding certificates with the
revenue authorities of Kenya, Uganda and Tanzania (docs/api.md#tax)."""
