import os

from hypothesis import HealthCheck, settings

# CI runs the "ci" profile (>= 2000 examples per differential test); locally "dev" is quicker.
settings.register_profile("ci", max_examples=2500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("dev", max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("EVALCORE_HYPOTHESIS_PROFILE", "dev"))
