"""nervaluate's schemas, pure Python: the twin of :mod:`evalcore.schemas`."""
