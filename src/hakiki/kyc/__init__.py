"""KYC: national ID, driver's licence and passport verification, with asynchronous completion."""
