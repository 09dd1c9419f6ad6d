"""Argmax with random tie breaking for the kernels that draw from a numpy Generator (their rewards: :mod:`._laws`).

The padded fma-index kernels have their own argmax (:mod:`._argmax`: SIMD chunks over fma(g, d, c), ties drawn
from their PCG64 stream); the reference twins use ``reference._policy.argmax_ties`` (plain Python, the same draw).
"""

from __future__ import annotations

from ..core.jit import helper, kernel


@helper
def argmax_count(values):
    """(lowest index of the maximum, number of maximisers) of ``values``."""
    best = values[0]
    arg = 0
    count = 1
    for i in range(1, values.size):
        v = values[i]
        if v > best:
            best = v
            arg = i
            count = 1
        elif v == best:
            count += 1
    return arg, count


@kernel
def pick_tie(values, arg, count, rng):
    """One of the ``count`` > 1 maximisers of ``values`` (values[arg] is the maximum), uniformly: the
    ``rng.integers(0, count)``-th in index order."""
    best = values[arg]
    pick = rng.integers(0, count)
    for i in range(values.size):
        if values[i] == best:
            if pick == 0:
                return i
            pick -= 1
    return arg


@kernel
def argmax_ties(values, rng, random_ties):
    """Index of the maximum; ties broken uniformly at random if ``random_ties`` else lowest index.

    Draws ``rng.integers(0, m)`` only when m > 1 maximisers exist (:func:`pick_tie`).
    """
    arg, count = argmax_count(values)
    if count == 1 or not random_ties:
        return arg
    return pick_tie(values, arg, count, rng)
