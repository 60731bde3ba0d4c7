"""The reference's spans: the twin of :mod:`evalcore.spans`."""
