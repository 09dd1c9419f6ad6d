"""Elimination step shared by the BAI algorithms (top arms, ties broken at random) and the per-configuration runner."""

from __future__ import annotations

import functools
from collections.abc import Callable

import numpy as np


def top_arms(active: np.ndarray, scores: np.ndarray, keep: int, rng: np.random.Generator) -> np.ndarray:
    """Sorted int64[keep]: the ``keep`` arms of ``active`` with the largest ``scores``.

    Ties are broken uniformly at random (one ``rng.random(len(active))`` draw per call).
    """
    order = np.lexsort((rng.random(active.size), -scores))
    return np.sort(active[order[:keep]])


def make_run(make_plan: Callable, recommend: Callable) -> Callable:
    """Per-configuration trial function ``run(arms, budget, epsilon, rngs, params, table_for)``.

    ``make_plan(arms, budget, epsilon, params)`` precomputes everything public (schedule, budget
    split, design cache) and raises ``ValueError`` on bad input; plans of the 16 most recent
    configurations are memoised, so repeated calls (chunks, audits) reuse their designs.
    ``recommend(plan, table, rng)`` runs one trial reading rewards from ``table_for(rng)``.
    Returns int64[len(rngs)] recommended arms.
    """

    @functools.lru_cache(maxsize=16)
    def cached_plan(arms_bytes, shape, budget, epsilon, params_items):
        arms = np.frombuffer(arms_bytes, dtype=np.float64).reshape(shape)
        return make_plan(arms, budget, epsilon, dict(params_items))

    def run(arms, budget, epsilon, rngs, params, table_for) -> np.ndarray:
        arms = np.ascontiguousarray(arms, dtype=np.float64)
        plan = cached_plan(arms.tobytes(), arms.shape, budget, epsilon, tuple(sorted(params.items())))
        return np.fromiter((recommend(plan, table_for(rng), rng) for rng in rngs), dtype=np.int64)

    return run
