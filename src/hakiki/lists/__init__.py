"""Official sanctions lists: downloads, stored versions, the engine built from them, status."""
