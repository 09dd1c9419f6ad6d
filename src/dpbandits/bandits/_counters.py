"""Counters' noise processes in O(1) per insertion: the noise part of a release (release = true running
sum + noise) of a binary-tree counter (:func:`tree_noise_step`) and of a hybrid counter
(:func:`hybrid_noise_step`)."""

from __future__ import annotations

import numpy as np
from numba.cpython.unsafe.numbers import leading_zeros, trailing_zeros

from ..core.jit import helper

_U = np.uintp  # unsigned indices: no negative-index wraparound code


@helper
def tree_noise_step(levels, base, m, eta):
    """Insert the m-th element (m >= 1) of a binary-tree counter's noise process; O(1).

    ``levels[j]`` holds the release noise right after the last node at level j was completed
    (``levels[64]`` stays 0). ``base`` = levels[ctz(m & (m-1))] is the noise of the nodes of m above
    level ctz(m); the node completed now gets noise ``eta``, so the release noise of m is base + eta.
    Returns the ``base`` of insertion m + 1. The same process as ``mechanisms.tree_noise_insert``.
    """
    levels[_U(trailing_zeros(m))] = base + eta
    return levels[_U(trailing_zeros(m & (m + 1)))]


@helper
def hybrid_noise_step(levels, state, tau, eta, log_scale, node_scale):
    """Release noise of a hybrid counter after insertion tau >= 1, from one standard Laplace ``eta``.

    The process of ``mechanisms.hybrid_noise_insert``: at tau = 2^k the logarithmic part adds
    Lap(log_scale) (state[0]) and a fresh binary tree starts; insertion 2^k + m (0 < m < 2^k) is
    insertion m of that tree with node noise Lap(k node_scale). state[1] is the tree's ``base``
    (:func:`tree_noise_step`), ``levels`` its levels (stale entries of older trees are never read).
    """
    if tau & (tau - 1) == 0:
        state[0] += log_scale * eta
        state[1] = 0.0
        return state[0]
    k = 63 - leading_zeros(tau)
    m = tau - (1 << k)
    state[1] = tree_noise_step(levels, state[1], m, k * node_scale * eta)
    return state[0] + levels[_U(trailing_zeros(m))]
