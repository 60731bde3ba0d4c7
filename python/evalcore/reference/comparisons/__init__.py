"""The reference's comparisons: the twin of :mod:`evalcore.comparisons.compare_runs` (the
resampling and rank kernels in Python)."""
