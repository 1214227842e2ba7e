"""Vehicle checks: a VIN, chassis number or Kenyan plate decoded locally, and the registry's
record (owner, logbook, caveats) through an aggregator that covers NTSA."""
