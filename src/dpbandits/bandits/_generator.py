"""Per-step helper of the kernels that draw from a numpy Generator: an argmax with random tie breaking
(their rewards: :mod:`._laws`)."""

from __future__ import annotations

from ..jit import kernel


@kernel
def argmax_ties(values, rng, random_ties):
    """Index of the maximum; ties broken uniformly at random if ``random_ties`` else lowest index.

    Draws ``rng.integers(0, m)`` only when m > 1 maximisers exist.
    """
    best = values[0]
    count = 1
    arg = 0
    for i in range(1, values.size):
        v = values[i]
        if v > best:
            best = v
            count = 1
            arg = i
        elif v == best:
            count += 1
    if count == 1 or not random_ties:
        return arg
    pick = rng.integers(0, count)
    for i in range(values.size):
        if values[i] == best:
            if pick == 0:
                return i
            pick -= 1
    return arg
