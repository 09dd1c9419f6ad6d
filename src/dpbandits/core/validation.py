"""Argument checks shared by the simulators; each error names the offending argument.

Numbers must be real numbers (``int``, ``float`` or numpy scalars; not ``bool``, not strings), finite,
and within the limits below, which the kernels are built for. A value outside a limit is refused up
front with the limit and its reason, instead of overflowing a counter or running for days.
"""

from __future__ import annotations

import math
from numbers import Integral, Real

import numpy as np

MAX_HORIZON = 2**40  # pulls T: beyond it a float64 running sum of rewards or regret rounds by >= 2**-12 per pull
MAX_ARMS = 2**16  # K: per-arm state lives in arrays the kernels scan at every pull
MAX_RUNS = 2**24  # runs R of one call: the result holds float64[R, C] regret
MAX_BUDGET = 2**28  # BAI budget T: a run's reward table holds float64[K, T] entries drawn lazily
MAX_RUN_INDEX = 2**62  # run indices first_run .. first_run + runs - 1 are int64
MIN_EPSILON = 1e-9  # noise scales ~1/epsilon; below this the noise swamps float64 sums of rewards

_LIMITS = {
    "horizon": (MAX_HORIZON, "beyond it float64 running sums of rewards and regret round by 2**-12 or more per pull"),
    "K": (MAX_ARMS, "every pull scans all arms"),
    "runs": (MAX_RUNS, "the result holds a float64 regret row per run"),
    "budget": (MAX_BUDGET, "a run's reward table holds K x budget float64 entries"),
}


def brief(value, width: int = 80) -> str:
    """One-line ``repr`` of ``value``, cut to ``width`` characters (arrays print on many lines)."""
    text = " ".join(repr(value).split())
    return text if len(text) <= width else text[: width - 3] + "..."


def _is_number(value) -> bool:
    return isinstance(value, Real) and not isinstance(value, (bool, np.bool_))


def check_real(name: str, value, *, low: float | None = None, high: float | None = None) -> float:
    """Finite real ``value`` with ``low <= value <= high``; ``ValueError`` naming ``name`` otherwise."""
    if not _is_number(value):
        raise ValueError(f"{name} must be a number, got {type(value).__name__} {brief(value)}")
    v = float(value)
    if not math.isfinite(v):
        raise ValueError(f"{name} must be a finite number, got {name}={brief(value)}")
    if low is not None and v < low:
        raise ValueError(f"{name} must be >= {low:g}, got {name}={brief(value)}")
    if high is not None and v > high:
        raise ValueError(f"{name} must be <= {high:g}, got {name}={brief(value)}")
    return v


def check_integer(name: str, value, *, low: int = 0, limit: str | None = None) -> int:
    """Integer ``value >= low`` (an integral float such as 5e7 is accepted) within the limit named ``limit``."""
    if not _is_number(value):
        raise ValueError(f"{name} must be an integer, got {type(value).__name__} {brief(value)}")
    if not isinstance(value, Integral):
        if not math.isfinite(float(value)) or not float(value).is_integer():
            raise ValueError(f"{name} must be an integer, got {name}={brief(value)}")
    v = int(value)
    if v < low:
        raise ValueError(f"{name} must be >= {low}, got {name}={v}")
    if limit is not None:
        high, why = _LIMITS[limit]
        if v > high:
            raise ValueError(f"{name} must be <= {high:,} (2**{high.bit_length() - 1}; {why}), got {name}={v:,}")
    return v


def check_array(name: str, value, ndim: int) -> np.ndarray:
    """float64 array of ``ndim`` dimensions from numbers only (no booleans, strings or None), all finite."""
    try:
        raw = np.asarray(value)
    except ValueError as err:  # ragged nested lists
        raise ValueError(f"{name} must be a {ndim}-d array of numbers: {err}") from None
    if raw.dtype.kind not in "iuf":
        raise ValueError(f"{name} must hold numbers only, got dtype {raw.dtype} from {brief(value)}")
    if raw.ndim != ndim:
        raise ValueError(f"{name} must be a {ndim}-d array, got shape {raw.shape}")
    a = raw.astype(np.float64)
    if not np.all(np.isfinite(a)):
        raise ValueError(f"{name} must be finite, got {brief(a.tolist(), 120)}")
    return a


def check_means(means) -> np.ndarray:
    """float64[K] of Bernoulli means, 2 <= K <= MAX_ARMS, each in [0, 1]."""
    m = check_array("means", means, 1)
    if m.size < 2:
        raise ValueError(f"means must have K >= 2 arms, got K={m.size}")
    check_integer("K (the number of means)", m.size, limit="K")
    if np.any((m < 0) | (m > 1)):
        raise ValueError(f"means must lie in [0, 1], got {brief(m.tolist(), 120)}")
    return m


def check_horizon(horizon, k: int) -> int:
    """Integer horizon K <= T <= MAX_HORIZON."""
    return check_integer("horizon", horizon, low=k, limit="horizon")


def check_epsilon(epsilon, private: bool = True) -> float | None:
    """Privacy parameter MIN_EPSILON <= epsilon < inf (``None`` allowed for non-private algorithms)."""
    if epsilon is None and not private:
        return None
    if _is_number(epsilon) and math.isinf(float(epsilon)):
        raise ValueError(
            "epsilon must be finite: epsilon=inf means no privacy at all; "
            "simulate a non-private algorithm (e.g. 'ucb') instead"
        )
    return check_real("epsilon", epsilon, low=MIN_EPSILON)


def check_runs(runs) -> int:
    return check_integer("runs", runs, low=1, limit="runs")


def check_seed(seed) -> int:
    return check_integer("seed", seed, low=0)


def check_first_run(first_run, runs: int) -> int:
    """First run index; the last one, ``first_run + runs - 1``, must stay below ``MAX_RUN_INDEX``."""
    first = check_integer("first_run", first_run, low=0)
    if first + runs > MAX_RUN_INDEX:
        raise ValueError(f"first_run + runs must be <= 2**62 (run indices are int64), got first_run={first}")
    return first


def check_arms(arms) -> np.ndarray:
    """float64[K, d] finite feature vectors, K >= 2, d >= 1."""
    a = check_array("arms", arms, 2)
    if a.shape[0] < 2 or a.shape[1] < 1:
        raise ValueError(f"arms must have shape (K, d) with K >= 2 and d >= 1, got {a.shape}")
    check_integer("K (the number of arms)", a.shape[0], limit="K")
    return a


def check_theta(theta, d: int) -> np.ndarray:
    """float64[d] finite parameter vector matching the arms' dimension."""
    t = check_array("theta", theta, 1)
    if t.shape != (d,):
        raise ValueError(f"theta must have shape ({d},) to match arms, got {t.shape}")
    return t


def check_budget(budget) -> int:
    """Positive integer budget T; each algorithm also checks T against its schedule (DP-BAI can
    run with T < K since it pulls only Max-Det collections)."""
    return check_integer("budget", budget, low=1, limit="budget")
