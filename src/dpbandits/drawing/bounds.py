"""The regret lower bounds the frontier draws, each with its theorem's constant and the privacy models it binds.

All bounds are asymptotic: they bound lim inf R_T / ln T for every *consistent* policy (regret o(T^a) for every
a > 0 on every instance), natural logarithms, Bernoulli arms with means mu (float[K]), best mean mu*, gaps
Delta_a = mu* - mu_a, horizon T. docs/frontier.md quotes each source and says where its constant comes from.

- ``lai_robbins``: sum_a Delta_a ln T / kl(mu_a, mu*) (Lai & Robbins 1985, Theorem 2): every consistent policy,
  private or not, so it binds every privacy model.
- ``azize_basu``: sum_a Delta_a ln T / min(kl(mu_a, mu*), 6 eps Delta_a) (Azize & Basu, NeurIPS 2022, Theorem 3:
  min(d_a, 6 eps t_a) with t_a the total-variation distance from arm a to the arms of mean above mu*, Delta_a for
  Bernoulli arms): consistent central eps-DP policies.
- ``shariff_sheffet``: m ln T / (6 eps), m the number of suboptimal arms: the eps-dependent part of Shariff &
  Sheffet's (NeurIPS 2018) Omega(K ln T / eps) with the constant Azize & Basu's Theorem 3 gives it (each term of
  ``azize_basu`` is at least ln T / (6 eps)).
- ``azize_2025``: sum_a Delta_a ln T / d_eps(mu_a, mu*) (Azize, Wu, Honda, Orabona, Ito & Basu 2025, constant 1;
  d_eps as :func:`dpbandits.mechanisms.klucb.d_eps`, a reconstruction: docs/reconstructions.md, "The d_eps of
  Azize et al. 2025"). d_eps <= min(kl, eps Delta), so it is the largest of the four.

Central eps-DP bounds bind local eps-DP algorithms too (a local eps-DP algorithm is central eps-DP); they do not
bind (eps, delta)-DP algorithms (delta > 0 allows what they forbid), for which only Lai & Robbins holds.
At a finite horizon each is drawn as min(bound, T Delta_max), the regret of always pulling the worst arm.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..mechanisms.klucb import d_eps, kl_bernoulli

NON_PRIVATE = "none"  # the privacy model of a non-private algorithm
CENTRAL_EPS = ("pure", "local")  # the models the eps-DP lower bounds bind


@dataclass(frozen=True)
class LowerBound:
    """One lower bound: its ``label`` for legends, ``source`` (theorem), ``constant`` (what the constant is and
    where it comes from) and ``models``, the privacy models (``Algorithm.privacy``, or "none") it binds."""

    label: str
    source: str
    constant: str
    models: tuple[str, ...]
    private: bool  # needs epsilon


BOUNDS = {
    "lai_robbins": LowerBound(
        "Lai & Robbins 1985",
        "Lai & Robbins (1985), Theorem 2",
        "1, exact as T -> infinity",
        (NON_PRIVATE, "pure", "local", "approx"),
        False,
    ),
    "azize_basu": LowerBound(
        "Azize & Basu 2022 (ε-DP)",
        "Azize & Basu (NeurIPS 2022), Theorem 3",
        "1, with 6 ε times the total-variation distance",
        CENTRAL_EPS,
        True,
    ),
    "shariff_sheffet": LowerBound(
        "(K−1) ln T / (6ε)",
        "Shariff & Sheffet (NeurIPS 2018), with the constant of Azize & Basu (2022), Theorem 3",
        "1/6",
        CENTRAL_EPS,
        True,
    ),
    "azize_2025": LowerBound(
        "Azize et al. 2025 (ε-DP, d_ε)",
        "Azize, Wu, Honda, Orabona, Ito & Basu (2025), their lower bound (abstract: 'strictly improves on the "
        "existing ones across all ε'); the form of d_ε is our reconstruction",
        "1",
        CENTRAL_EPS,
        True,
    ),
}
UNIFORM = ("uniform_play", "uniform random play (no learning)")


def _terms(means):
    means = np.asarray(means, dtype=float)
    best = means.max()
    gaps = best - means
    sub = gaps > 0
    return means[sub], best, gaps[sub], float(gaps.max()), float(gaps.mean())


def divergences(means, epsilon: float | None) -> dict[str, np.ndarray]:
    """{bound: D float64[m]}: each bound's divergence D_a of the m suboptimal arms, so that the bound is
    sum_a Delta_a ln T / D_a and asks arm a for ln T / D_a pulls (kl; min(kl, 6 eps Delta); 6 eps Delta; d_eps).
    The private bounds are absent when ``epsilon`` is None."""
    mu, best, gaps, _, _ = _terms(means)
    kl = np.array([kl_bernoulli(float(m), best) for m in mu])
    out = {"lai_robbins": kl}
    if epsilon is not None:
        eps = float(epsilon)
        out["azize_basu"] = np.minimum(kl, 6.0 * eps * gaps)
        out["shariff_sheffet"] = 6.0 * eps * gaps
        out["azize_2025"] = np.array([d_eps(float(m), best, eps) for m in mu])
    return out


def asymptotic(means, horizon: int, epsilon: float | None) -> dict[str, float]:
    """{bound: value} of :data:`BOUNDS` without the finite-T ceiling, and "uniform_play" (T mean_a Delta_a);
    the private bounds are NaN when ``epsilon`` is None."""
    _, _, gaps, _, mean_gap = _terms(means)
    log_t = np.log(horizon)
    div = divergences(means, epsilon)
    out = {b: float(np.sum(gaps / div[b]) * log_t) if b in div else np.nan for b in BOUNDS}
    out[UNIFORM[0]] = float(horizon * mean_gap)
    return out


def lower_bounds(means, horizon: int, epsilon: float | None) -> dict[str, float]:
    """:func:`asymptotic` with every bound capped at T Delta_max (no policy's regret exceeds it)."""
    out = asymptotic(means, horizon, epsilon)
    cap = horizon * _terms(means)[3]
    return {k: (v if k == UNIFORM[0] or np.isnan(v) else min(v, cap)) for k, v in out.items()}


def pulls_asked(means, horizon: int, epsilon: float | None, bound: str) -> float:
    """The most pulls ``bound`` asks of one suboptimal arm, max_a ln T / D_a (:func:`divergences`); NaN for a
    private bound without ``epsilon``.

    The asymptotic regime of a lim inf bound has the suboptimal arms pulled far less than the best one; where
    the bound asks some arm for more than T / K pulls (uniform play's share) that regime is not reached at this
    horizon, and the bound says nothing about regret at T (:func:`.frontier.check` calls it pre-asymptotic).
    """
    div = divergences(means, epsilon)
    return float(np.max(np.log(horizon) / div[bound])) if bound in div else np.nan


def binding(model: str) -> list[str]:
    """The bounds that bind an algorithm of privacy ``model`` ("none" for a non-private one)."""
    return [b for b, spec in BOUNDS.items() if model in spec.models]
