"""Reward draws of the fast kernels under each law of :mod:`dpbandits.core.laws` (law code = index in ``LAWS``).

Law 0 (Bernoulli) is the kernels' own path, left as it was: block deciders (``_draws.fill_uniforms``,
``fill_draws``) and Binomial sums. These functions draw the other laws' rewards directly, one per pull:

- :func:`reward` and :func:`reward_sum`, from a numpy Generator (the DP-SE family, AdaP-KLUCB, the lazy
  kernels). :func:`reward_sum` of n pulls is one Binomial(n, m) under law 0 (exact: the sum of n Bernoulli
  rewards) and otherwise the sum of n draws, which is exact for any law;
- :func:`stream_reward`, from a kernel's inline PCG64 stream (UCB, DP-UCB, the Tossou family): a uniform
  from one pool word, a Beta from numpy's gamma algorithms (:func:`._gamma.beta`).

A mean of 0 or 1 is a point mass under every law (no draw). A kernel adopts the laws by taking a last argument
``law=0`` (its Python wrapper passes :func:`law_args`) and, where it draws a reward, calling these instead of its
Bernoulli draw when ``law != BERNOULLI``.
"""

from __future__ import annotations

import numpy as np

from ..core.jit import helper, kernel
from ..core.laws import BETA_CONCENTRATION, LAWS
from ._gamma import beta
from ._pcg64 import POOL_INDEX, next_word, to_double

BERNOULLI, BETA, UNIFORM = (LAWS.index(name) for name in ("bernoulli", "beta", "uniform"))
_C = BETA_CONCENTRATION


def law_args(rewards: str, book=None) -> tuple:
    """A kernel's trailing ``law`` (and ``book``) arguments for law ``rewards``: none under bernoulli without a book,
    else (its code,), and (its code, book) with a release book (:mod:`dpbandits.mechanisms.ledger`).

    Left out, ``law`` is its default 0, which numba compiles as a constant: the other laws' branches vanish and
    the Bernoulli path is the code it was before the laws.
    """
    if book is not None:
        return LAWS.index(rewards), book
    return () if rewards == "bernoulli" else (LAWS.index(rewards),)


def recorded(run):
    """The ``Algorithm.releases`` of a regret ``run`` that takes ``book=`` (passed on through :func:`law_args`):
    ``releases(means, horizon, epsilon, params, rng, book) -> pulls`` int64[K], one Bernoulli run recording in
    ``book``."""

    def releases(means, horizon, epsilon, params, rng, book, **options):
        last = np.array([horizon], dtype=np.int64)
        return run(means, horizon, epsilon, last, rng, params, book=book, **options)[1]

    return releases


@helper
def reward(rng, law, p):
    """One reward of mean ``p`` under law ``law`` from Generator ``rng`` (law 0: ``rng.random() < p``)."""
    if law == BERNOULLI:
        return 1.0 if rng.random() < p else 0.0
    if p <= 0.0 or p >= 1.0:
        return p
    if law == BETA:
        return rng.beta(_C * p, _C * (1.0 - p))
    w = min(p, 1.0 - p)
    return p - w + 2.0 * w * rng.random()


@helper
def reward_sum(rng, law, n, p):
    """Sum of ``n`` rewards of mean ``p``: one Binomial(n, p) under law 0, else n draws of :func:`reward`."""
    if law == BERNOULLI:
        return float(rng.binomial(n, p))
    if p <= 0.0 or p >= 1.0:
        return n * p
    total = 0.0
    for _ in range(n):
        total += reward(rng, law, p)
    return total


@kernel(numpy_errors=True)
def stream_reward(sb, law, p):
    """One reward of mean ``p`` under law ``law`` (1 or 2) from stream ``sb`` (uniform: one word)."""
    if p <= 0.0 or p >= 1.0:
        return p
    i = np.int64(sb[POOL_INDEX])
    if law == BETA:
        x, i = beta(sb, i, _C * p, _C * (1.0 - p), False)
    else:
        word, i = next_word(sb, i)
        w = min(p, 1.0 - p)
        x = p - w + 2.0 * w * to_double(word)
    sb[POOL_INDEX] = i
    return x
