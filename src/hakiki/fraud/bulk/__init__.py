"""Bulk fraud scans: a CSV or XLSX file of identity numbers, phones or face image URLs, scanned
by a durable job in chunks, each chunk's results and charges committed together."""
