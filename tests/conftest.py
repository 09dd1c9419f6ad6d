"""Shared fixtures and the hypothesis profiles.

Property-based tests run a bounded number of examples by default; ``HYPOTHESIS_PROFILE=long`` runs many
more on demand (``HYPOTHESIS_PROFILE=long pytest tests/test_hostile_input.py --hypothesis-show-statistics``).
"""

import os
from datetime import timedelta

import numpy as np
import pytest
from hypothesis import HealthCheck, settings

_COMMON = dict(deadline=timedelta(seconds=5), suppress_health_check=[HealthCheck.too_slow], derandomize=False)
settings.register_profile("default", max_examples=40, **_COMMON)
settings.register_profile("long", max_examples=2000, **_COMMON)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))


@pytest.fixture
def rng():
    return np.random.default_rng(12345)
