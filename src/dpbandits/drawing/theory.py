"""Regret upper bounds with explicit constants, as the papers state them (natural logs).

Each bound maps (means float[K], t int[C], epsilon, params, horizon) to float64[C]; an algorithm names
its bound in ``Algorithm.bound`` (:class:`dpbandits.core.registry.Bound`). They are drawn as
dashed overlays on the papers' figures (config ``theory_overlays``) and checked in the claims ledger:
no curve's mean may exceed its bound. Bounds are expectations (UCB1, Tossou Theorems 3.2, 3.3, 3.5, Azize &
Basu's Theorem 7) or high-probability pull-count bounds (DP-SE, probability >= 1 - beta with beta = 1/T).
"""

from __future__ import annotations

import math

import numpy as np
from scipy.special import zeta

from ..core import registry


def _gaps(means) -> np.ndarray:
    m = np.asarray(means, dtype=float)
    g = m.max() - m
    return g[g > 0]


def ucb1(means, t, epsilon=None, params=None, horizon=None) -> np.ndarray:
    """Auer et al. (2002): sum_a 8 ln t / Delta_a + (1 + pi^2/3) sum_a Delta_a."""
    g, lt = _gaps(means), np.log(np.asarray(t, dtype=float))
    return np.sum(8 * lt[:, None] / g, axis=1) + (1 + math.pi**2 / 3) * g.sum()


def dp_ucb_int_thm35(means, t, epsilon, params, horizon=None) -> np.ndarray:
    """Tossou & Dimitrakakis Thm 3.5: sum_a Delta_a (f0 + 8 ln t/Delta_a^2 + 1 + 4 zeta(1.5)), f0 = 1/eps'."""
    from ..bandits.dp_ucb_int import interval  # the algorithm modules import this one

    g, lt = _gaps(means), np.log(np.asarray(t, dtype=float))
    f0 = 1.0 / interval(epsilon, params)[0]
    return np.sum(g * (f0 + 8 * lt[:, None] / g**2 + 1 + 4 * float(zeta(1.5))), axis=1)


def dp_ucb_tossou_thm33(means, t, epsilon, params=None, horizon=None) -> np.ndarray:
    """Thm 3.3: sum_a max(32 sqrt(2) ln^2 t / eps, 32 ln t / Delta_a) + sum_a (1 + pi^2) Delta_a."""
    g, lt = _gaps(means), np.log(np.asarray(t, dtype=float))[:, None]
    return np.sum(np.maximum(32 * math.sqrt(2) * lt**2 / epsilon, 32 * lt / g), axis=1) + (1 + math.pi**2) * g.sum()


def dp_ucb_bound_thm32(means, t, epsilon, params=None, horizon=None) -> np.ndarray:
    """Thm 3.2, minimised over lambda0 in (0, 1) on a grid of 999 points:
    sum_a max(B (ln B + 7), 8 ln t / (lambda0^2 Delta_a)) + sum_a (1 + pi^2) Delta_a,
    B = 4 sqrt(8) ln t / (eps (1 - lambda0)).
    """
    g = _gaps(means)
    lt = np.log(np.asarray(t, dtype=float))[:, None, None]
    lam = np.linspace(0.001, 0.999, 999)[None, :, None]
    b = 4 * math.sqrt(8) * lt / (epsilon * (1 - lam))
    terms = np.maximum(b * (np.log(np.maximum(b, 1e-300)) + 7), 8 * lt / (lam**2 * g[None, None, :]))
    return terms.sum(axis=2).min(axis=1) + (1 + math.pi**2) * g.sum()


def dp_se_epochs(means, t, epsilon, params, horizon) -> np.ndarray:
    """Sajed & Sheffet Lemma 4.2 (in the exact form its proof gives): with probability >= 1 - beta arm a is gone after
    epoch e(a) = ceil(log2(1/Delta_a)), so pulls(a) <= sum_{e <= e(a)} ceil(R_e(|S| = K)); regret at t is at
    most sum_a Delta_a min(t, that bound).
    """
    from ..bandits.dp_se import epoch_schedule  # the algorithm modules import this one

    m = np.asarray(means, dtype=float)
    k, beta = m.size, params.get("beta") or 1.0 / horizon
    t = np.asarray(t, dtype=float)
    total = np.zeros_like(t)
    for gap in _gaps(m):
        last = math.ceil(math.log2(1.0 / gap))
        pulls = sum(epoch_schedule(k, e, epsilon, beta)[1] for e in range(1, last + 1))
        total += gap * np.minimum(t, pulls)
    return total


def adap_ucb_thm7(means, t, epsilon, params, horizon=None) -> np.ndarray:
    """Azize & Basu 2022, Theorem 7 (AdaP-UCB, alpha > 3): sum_a 16 alpha ln t / min(Delta_a, eps) + alpha/(alpha - 3).

    Stated at the horizon T; the algorithm is anytime, so it holds at every t.
    """
    g, lt = _gaps(means), np.log(np.asarray(t, dtype=float))[:, None]
    alpha = params["alpha"]
    return np.sum(16 * alpha * lt / np.minimum(g, epsilon) + alpha / (alpha - 3), axis=1)


def bound_for(algorithm: str, means, t, epsilon, params: dict, horizon: int) -> np.ndarray | None:
    """The bound of ``algorithm`` at steps ``t`` (float64[C]), or None if its paper gives none."""
    bound = registry.get(algorithm).bound
    return None if bound is None else bound(means, t, epsilon, params, horizon)
