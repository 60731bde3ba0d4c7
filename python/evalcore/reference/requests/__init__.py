"""The reference's requests: the twins of :mod:`evalcore.requests` (and the JSON and schema
reading they share)."""
