"""Small metric implementations, each with a deliberate bug of a kind real metric code has,
and the same code without it: the evidence that evalcore.testing finds real bugs
(tests/testing/test_testing_kit.py)."""
