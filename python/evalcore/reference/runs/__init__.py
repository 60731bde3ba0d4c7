"""The reference's whole runs: the twins of :mod:`evalcore.runs`."""
