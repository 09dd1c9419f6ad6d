"""Elimination step shared by the BAI algorithms (top arms, ties broken at random), the per-configuration runner
and their registry entries."""

from __future__ import annotations

import functools
from collections.abc import Callable

import numpy as np

from ..core.registry import Algorithm, Audit


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


def bai_algorithm(name, label, private, make_plan, recommend, params, doc, audit=None) -> Algorithm:
    """The registry entry (for ``registry.register``) of fixed-budget BAI algorithm ``name``: its budget is the
    horizon, its trials :func:`make_run` of ``make_plan`` and ``recommend``; ``audit`` defaults to ``Audit()``."""
    return Algorithm(
        name=name,
        kind="bai",
        label=label,
        private=private,
        run=make_run(make_plan, recommend),
        params=params,
        needs_horizon=True,
        doc=doc,
        cost_ns=200,
        audit=audit or Audit(),
    )
