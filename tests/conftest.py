import os

import numpy as np
import pytest
from hypothesis import settings

settings.register_profile("fepaper", deadline=None, max_examples=40, derandomize=True)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "fepaper"))



@pytest.fixture
def rng():
    return np.random.default_rng(42)
