"""Argument checks shared by the simulators; each error names the offending argument."""

from __future__ import annotations

import math

import numpy as np


def check_means(means) -> np.ndarray:
    """float64[K] of Bernoulli means, K >= 2, each in [0, 1]."""
    m = np.asarray(means, dtype=np.float64)
    if m.ndim != 1:
        raise ValueError(f"means must be a 1-d sequence, got shape {m.shape}")
    if m.size < 2:
        raise ValueError(f"means must have K >= 2 arms, got K={m.size}")
    if not np.all(np.isfinite(m)) or np.any((m < 0) | (m > 1)):
        raise ValueError(f"means must lie in [0, 1], got {m.tolist()}")
    return m


def check_horizon(horizon, k: int) -> int:
    """Integer horizon T >= K."""
    if isinstance(horizon, bool) or not float(horizon).is_integer():
        raise ValueError(f"horizon must be an integer, got {horizon!r}")
    h = int(horizon)
    if h < k:
        raise ValueError(f"horizon must be >= K={k}, got horizon={h}")
    return h


def check_epsilon(epsilon, private: bool = True) -> float | None:
    """Privacy parameter epsilon > 0 (``None`` allowed for non-private algorithms)."""
    if epsilon is None and not private:
        return None
    if epsilon is None or isinstance(epsilon, bool):
        raise ValueError(f"epsilon must be a positive number, got {epsilon!r}")
    e = float(epsilon)
    if not math.isfinite(e) or e <= 0:
        raise ValueError(f"epsilon must be > 0, got epsilon={epsilon!r}")
    return e


def check_runs(runs) -> int:
    if isinstance(runs, bool) or not float(runs).is_integer() or int(runs) < 1:
        raise ValueError(f"runs must be a positive integer, got {runs!r}")
    return int(runs)


def check_seed(seed) -> int:
    if isinstance(seed, bool) or not float(seed).is_integer() or int(seed) < 0:
        raise ValueError(f"seed must be a non-negative integer, got {seed!r}")
    return int(seed)
