"""Time steps at which cumulative regret is recorded."""

from __future__ import annotations

import numpy as np

from .validation import brief, check_integer


def default_checkpoints(horizon: int, n: int = 200) -> np.ndarray:
    """About ``n`` sorted unique steps in ``[1, horizon]``: half log-, half linearly spaced.

    Always ends at ``horizon``. Returns int64[C].
    """
    horizon = check_integer("horizon", horizon, low=1, limit="horizon")
    n = check_integer("n", n, low=2)
    if n > 100_000:
        raise ValueError(f"n must be <= 100,000 checkpoints, got n={n:,}")
    half = max(n // 2, 2)
    log_pts = np.geomspace(1, horizon, half)
    lin_pts = np.linspace(horizon / half, horizon, half)
    pts = np.unique(np.concatenate([np.rint(log_pts), np.rint(lin_pts), [horizon]]).astype(np.int64))
    return pts[(pts >= 1) & (pts <= horizon)]


def check_checkpoints(checkpoints, horizon: int) -> np.ndarray:
    """Validate user checkpoints: strictly increasing integers in ``[1, horizon]``."""
    c = np.asarray(checkpoints)
    if c.ndim != 1 or c.size == 0 or not np.issubdtype(c.dtype, np.integer):
        raise ValueError(f"checkpoints must be a non-empty 1-d array of integers, got {brief(checkpoints)}")
    if c[0] < 1 or c[-1] > horizon or np.any(np.diff(c) <= 0):
        raise ValueError(f"checkpoints must be strictly increasing within [1, horizon={horizon}]")
    return c.astype(np.int64)
