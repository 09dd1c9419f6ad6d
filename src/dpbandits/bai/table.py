"""Reward tables (Definition 2.1 of Chen et al. 2024): the j-th pull of arm i returns x[i, j].

Algorithms read rewards only through ``pull(arms, counts)``, which returns the mean of the next
``counts[k]`` unread entries of row ``arms[k]``; one call per phase. ``RewardTable`` wraps an explicit
table and records every read (for privacy audits); ``UniformTable`` draws the entries of a table with
i.i.d. U[lo_i, hi_i] rows lazily, when first read, which is the same distribution as drawing the
whole table first because every entry is read at most once.
"""

from __future__ import annotations

import numpy as np

from ..core.validation import brief, check_real

REWARDS = ("uniform", "uniform_centered")
ROUNDOFF = 1e-9


class _Table:
    def __init__(self, k: int, budget: int):
        self.budget = int(budget)
        self.next = np.zeros(k, dtype=np.int64)  # entries of row i read so far
        self.pulled = 0

    def _advance(self, arms: np.ndarray, counts) -> np.ndarray:
        """Reserve the next ``counts`` (int or int64[k]) entries of rows ``arms``; return their starts."""
        if isinstance(counts, np.ndarray):
            total, low = int(counts.sum()), int(counts.min())
        else:
            total, low = int(counts) * arms.size, int(counts)
        if low < 1 or self.pulled + total > self.budget:
            raise RuntimeError(f"pulls need counts >= 1 and at most T={self.budget} in total")
        self.pulled += total
        start = self.next[arms]
        self.next[arms] += counts
        return start


class RewardTable(_Table):
    """Explicit reward table ``x`` float[K, T] with entries in [0, 1]; T is the budget.

    ``reads`` lists, per ``pull`` call, the tuple (arms int64[k], start int64[k], counts int64[k],
    means float64[k]): row ``arms[i]`` entries ``start[i] : start[i] + counts[i]`` were read.
    """

    def __init__(self, x):
        x = np.asarray(x, dtype=np.float64)
        if x.ndim != 2 or x.shape[0] < 2 or x.shape[1] < 1:
            raise ValueError(f"table must have shape (K, T) with K >= 2, got {x.shape}")
        if not np.all(np.isfinite(x)) or np.any((x < 0) | (x > 1)):
            raise ValueError("table entries must lie in [0, 1]")
        super().__init__(x.shape[0], x.shape[1])
        self.x = x
        self.reads: list[tuple] = []

    def pull(self, arms, counts) -> np.ndarray:
        """float64[k]: mean of the next ``counts[i]`` entries of row ``arms[i]``."""
        arms = np.asarray(arms, dtype=np.int64)
        counts = np.broadcast_to(np.asarray(counts, dtype=np.int64), arms.shape)
        if np.unique(arms).size != arms.size:
            raise RuntimeError("pull needs distinct arms")
        start = self._advance(arms, counts)
        means = np.array([self.x[a, s : s + c].mean() for a, s, c in zip(arms, start, counts, strict=True)])
        self.reads.append((arms, start, counts, means))
        return means


class UniformTable(_Table):
    """Lazily drawn table with independent U[lo_i, hi_i] entries in row i (float[K] bounds)."""

    def __init__(self, lo: np.ndarray, hi: np.ndarray, budget: int, rng: np.random.Generator):
        super().__init__(lo.size, budget)
        self.lo, self.width, self.rng = lo, hi - lo, rng

    def pull(self, arms, counts) -> np.ndarray:
        """float64[k]: mean of ``counts[i]`` (int or int[k]) fresh draws of arm ``arms[i]``.

        One ``rng.random`` call: row-major (k, n) for a common count n, else arm by arm.
        """
        self._advance(arms, counts)
        if not isinstance(counts, np.ndarray):
            u = self.rng.random((arms.size, int(counts))).sum(axis=1) / counts
        else:
            u = self.rng.random(int(counts.sum()))
            u = np.add.reduceat(u, np.concatenate(([0], np.cumsum(counts)[:-1]))) / counts
        return self.lo[arms] + self.width[arms] * u


def reward_bounds(means: np.ndarray, reward: str = "uniform", width: float | None = None):
    """(lo, hi) float64[K] supports of the reward laws with means ``means`` (Chen et al. 2024, Section 5:
    "the uniform distribution supported on [.]", the interval lost; docs/reconstructions.md).

    ``uniform`` [CHOICE]: U[0, 2 mu_i], needs 0 <= mu_i <= 1/2. ``uniform_centered``: U[mu_i - w, mu_i + w],
    needs w <= mu_i <= 1 - w (w = 0 gives deterministic rewards). Supports must lie in [0, 1]; only
    round-off up to 1e-9 is clipped.
    """
    means = np.asarray(means, dtype=np.float64)
    if reward == "uniform":
        if width is not None:
            raise ValueError("reward_width is only used with reward='uniform_centered'")
        lo, hi = np.zeros_like(means), 2.0 * means
    elif reward == "uniform_centered":
        if width is None:
            raise ValueError("reward_width: reward='uniform_centered' needs a width in [0, 0.5]")
        width = check_real("reward_width", width, low=0.0, high=0.5)
        lo, hi = means - width, means + width
    else:
        raise ValueError(f"reward={brief(reward)} is not one of {list(REWARDS)}")
    if np.any(np.minimum(lo, hi) < -ROUNDOFF) or np.any(np.maximum(lo, hi) > 1 + ROUNDOFF):  # U[0, 2 mu], mu < 0
        if reward == "uniform":
            raise ValueError(
                f"theta: means arms @ theta = {means.tolist()} must lie in [0, 0.5] for reward='uniform' "
                "(U[0, 2 mu]); for means above 0.5 use reward='uniform_centered' with reward_width=w "
                "(U[mu - w, mu + w], needs w <= mu <= 1 - w)"
            )
        raise ValueError(
            f"theta: means arms @ theta = {means.tolist()} must lie in [w, 1 - w] = [{width:g}, {1 - width:g}] "
            f"for reward='uniform_centered' with reward_width={width:g}"
        )
    return np.clip(lo, 0.0, 1.0), np.clip(hi, 0.0, 1.0)
