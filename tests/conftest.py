import os

from hypothesis import HealthCheck, settings

# CI runs the "ci" profile: 1,000 examples per property, and 2,000 for the core
# native-vs-reference differential properties (tests/common.py's @differential); locally
# "dev" runs 300 of each. Properties that are slow per example cap themselves lower.
settings.register_profile("ci", max_examples=1000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("dev", max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("EVALCORE_HYPOTHESIS_PROFILE", "dev"))
