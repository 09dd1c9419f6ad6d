"""Counters' noise processes in O(1) per insertion: the noise part of a release (release = true running
sum + noise) of a binary-tree counter (:func:`tree_noise_step`) and of a hybrid counter
(:func:`hybrid_noise_step`), and their entries in a release book (:mod:`dpbandits.mechanisms.ledger`)."""

from __future__ import annotations

import numpy as np
from numba.cpython.unsafe.numbers import leading_zeros, trailing_zeros

from ..core.jit import helper
from ..mechanisms.ledger import LAPLACE, next_draw, note

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
def tree_note(book, arm, m, scale, noise, draw):
    """Note the node a binary-tree counter completes at insertion m >= 1 of ``arm``'s entries: level i = ctz(m),
    entries m - 2^i + 1..m, Laplace ``scale`` and ``noise``, draw number ``draw``."""
    note(book, LAPLACE, arm, m - (1 << trailing_zeros(m)) + 1, m, 1.0, scale, draw, noise)


@helper
def hybrid_noise_step(levels, state, tau, eta, log_scale, node_scale, book=None, arm=0, marks=None, n=0):
    """Release noise of a hybrid counter after insertion tau >= 1, from one standard Laplace ``eta``.

    The process of ``mechanisms.hybrid_noise_insert``: at tau = 2^k the logarithmic part adds
    Lap(log_scale) (state[0]) and a fresh binary tree starts; insertion 2^k + m (0 < m < 2^k) is
    insertion m of that tree with node noise Lap(k node_scale). state[1] is the tree's ``base``
    (:func:`tree_noise_step`), ``levels`` its levels (stale entries of older trees are never read).

    With a release ``book``, the draw is noted as reading the entries of ``arm`` that the new part holds
    (:func:`_node_note`): ``n`` entries of the arm after insertion tau, ``marks`` int64[K, 66] the counters'
    bookkeeping (row ``arm`` is this counter's; zeros at the start).
    """
    if tau & (tau - 1) == 0:
        state[0] += log_scale * eta
        state[1] = 0.0
        if book is not None:  # the block 2^(k-1)+1..2^k is new: earlier blocks were released before
            _node_note(book, arm, marks, 65, 65, n, log_scale, log_scale * eta)
        return state[0]
    k = 63 - leading_zeros(tau)
    m = tau - (1 << k)
    e = k * node_scale * eta
    state[1] = tree_noise_step(levels, state[1], m, e)
    if book is not None:
        i = trailing_zeros(m)
        _node_note(book, arm, marks, i, i, n, k * node_scale, e)
    return state[0] + levels[_U(trailing_zeros(m))]


@helper
def _node_note(book, arm, marks, part, top, n, scale, noise):
    """Note one counter draw as reading ``arm``'s entries marks[arm, part] + 1..n (no row if none: the draw still
    counts), then restart the parts 0..top at n. marks[arm, i] (i < 65): entries before the open tree node at level
    i started; marks[arm, 65]: before the open block of the logarithmic part."""
    d = next_draw(book)
    if n > marks[arm, part]:
        note(book, LAPLACE, arm, marks[arm, part] + 1, n, 1.0, scale, d, noise)
    for i in range(top + 1):
        marks[arm, i] = n
