"""Neighbouring reward tables for the privacy audit (:mod:`dpbandits.audit`).

A candidate is ``(label, table float[K, T], flip (arm, pull index))``: the audit runs an algorithm on
``table`` and on the table with that one reward flipped. Algorithms' audit plans
(``registry.Audit.plan``) build theirs here; this module imports nothing of the package, so an algorithm
module that uses it does not make its simulations depend on the audit's code.
"""

from __future__ import annotations

import numpy as np

DEFAULT_HORIZON = 8  # per-step policies: K = 2 arms, T - K = 6 data-dependent decisions


Candidates = list  # of (label, table float[K, T], flip (arm, pull index))


def generic_candidates(k: int, width: int) -> Candidates:
    """Default (table, flip) pairs: all zeros, all ones, arm 0 ones / others zeros; early flips."""
    zeros, ones = np.zeros((k, width)), np.ones((k, width))
    split = zeros.copy()
    split[0] = 1.0
    return [("zeros", zeros, (0, 0)), ("ones", ones, (0, 0)), ("zeros", zeros, (0, 1)), ("arm0 ones", split, (1, 0))]


def threshold_candidates(k: int, width: int, n: int, d: int) -> Candidates:
    """Arm 0 has ``d`` ones at the end of its first ``n`` pulls, all else 0; the flips make it d -/+ 1.

    For algorithms whose first data-dependent release thresholds arm 0's count after n pulls at d.
    """
    d = min(max(d, 1), n - 1)
    base = np.zeros((k, width))
    base[0, n - d : n] = 1.0
    label = f"threshold {d}/{n}"
    return [(label, base, (0, n - d)), (label, base, (0, n - d - 1))]
