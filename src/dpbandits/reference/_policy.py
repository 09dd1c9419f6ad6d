"""Shared per-step helpers of the reference twins."""

from __future__ import annotations

import numpy as np


def argmax_ties(values, rng: np.random.Generator, random_ties: bool = True) -> int:
    """Argmax with uniform random tie-breaking (draws only when several maximisers exist): the plain twin of
    ``bandits._generator.argmax_ties``, with the same draw ``rng.integers(0, number of maximisers)``."""
    values = list(values)
    best = max(values)
    winners = [i for i, v in enumerate(values) if v == best]
    if len(winners) == 1 or not random_ties:
        return winners[0]
    return winners[int(rng.integers(0, len(winners)))]
