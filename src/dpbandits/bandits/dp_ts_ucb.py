"""DP-TS-UCB (Hu, Huang, Zhang, Lécuyer & Hegde, ICML 2025, arXiv 2505.02383), as reconstructed here [RECON].

The paper's Thompson sampling with Gaussian posteriors whose samples act as a Gaussian mechanism; privacy in
Gaussian DP (GDP), calibrated here to (epsilon, delta)-DP. Only the abstract is available offline, so the
schedule, the posterior and the sample budget below are our reconstruction (docs/reconstructions.md):

- Lazy batches per arm: rounds 1..K pull arms 0..K-1 once. Arm a's rewards are cut into batches of 1, 1, 2, 4,
  8, ... rewards (after the first, a batch completes when it holds as many rewards as the arm had before it):
  batch b holds entries 1..1, 2..2, 3..4, 5..8, ... of the arm's stream (entries m + 1 .. 2m for a batch of m
  >= 1 after the first). When a batch completes, the arm's posterior is rebuilt from that batch's rewards alone:
  N(x_bar, sigma^2) with x_bar the batch mean of its n rewards and sigma = max(1/sqrt(n), sqrt(phi)/(mu n)).
- mu: the GDP level with mu-GDP => (epsilon, delta)-DP (Dong, Roth & Su 2022, Corollary 2.13):
  delta = Phi(-epsilon/mu + mu/2) - e^epsilon Phi(-epsilon/mu - mu/2), solved for mu (:func:`gdp_mu`).
- phi = max(1, ceil(ln(T)^(1 - alpha))) (:func:`sample_budget`): the samples one posterior may give [RECON].
- Each round t > K, for every arm: while its posterior has given fewer than phi samples, draw a fresh
  theta ~ N(x_bar, sigma^2) (a Gaussian release of the batch mean: weight 1/n over the batch's entries, noise
  sd sigma) and use it, keeping the running maximum; after phi samples use their maximum (no release: the "UCB"
  side). Pull the argmax (ties: ``tie_break``).

Privacy: an entry is read only by its batch's posterior, so by at most phi Gaussian releases of sensitivity 1/n
and sd >= sqrt(phi)/(mu n), each (mu/sqrt(phi))-GDP; their composition is mu-GDP, hence (epsilon, delta)-DP.
Needs the horizon T (phi). Rewards in [0, 1] of any law enter the batch mean as they are; the decisions never
read a reward of an open batch, so a batch's reward sum is drawn when it completes (one Binomial under
Bernoulli rewards: exact). Draws from the run's Generator only: the batch sums, the standard normals of the
samples (one per arm and round while the arm samples, in arm order) and the tie picks.
"""

from __future__ import annotations

import math

import numpy as np
from scipy import optimize, special

from ..core.jit import kernel
from ..core.laws import LAWS
from ..core.registry import Algorithm, Audit, Param, register
from ..core.validation import brief
from ..mechanisms.ledger import GAUSS, next_draw, note
from ._generator import argmax_count, pick_tie
from ._laws import law_args, recorded, reward_sum
from ._lazy import lazy_count, open_epoch_rewards
from ._params import TIE_BREAK
from ._regret import record


class Probability(Param):
    """A number in (0, 1): ``low`` = 0 as for every delta, and refused from 1 up."""

    def check(self, algorithm: str, name: str, value):
        value = super().check(algorithm, name, value)
        if not value < 1.0:
            raise ValueError(f"{algorithm}: parameter {name} must be < 1, got {brief(value)}")
        return value


def gdp_mu(epsilon: float, delta: float) -> float:
    """The mu > 0 with delta = Phi(-epsilon/mu + mu/2) - e^epsilon Phi(-epsilon/mu - mu/2) (mu-GDP is then
    exactly (epsilon, delta)-DP; Dong, Roth & Su 2022, Corollary 2.13), by Brent's method on a bracket found by
    halving and doubling from 1."""
    if not 0.0 < delta < 1.0:
        raise ValueError(f"delta must lie in (0, 1), got delta={brief(delta)}")

    def excess(mu):  # delta(mu) - delta, increasing in mu; e^eps Phi(.) in logs (no overflow at large eps)
        return (
            special.ndtr(-epsilon / mu + mu / 2) - math.exp(epsilon + special.log_ndtr(-epsilon / mu - mu / 2)) - delta
        )

    lo = hi = 1.0
    while excess(lo) >= 0.0:
        lo /= 2.0
    while excess(hi) <= 0.0:
        hi *= 2.0
    return optimize.brentq(excess, lo, hi, xtol=1e-300, rtol=4 * np.finfo(float).eps)


def sample_budget(horizon: int, alpha: float) -> int:
    """phi = max(1, ceil(ln(T)^(1 - alpha))): the samples one posterior may give [RECON]; alpha above 1 (outside
    the paper's range [0, 1]) is read as 1."""
    return max(1, math.ceil(math.log(horizon) ** (1.0 - min(alpha, 1.0))))


@kernel(numpy_errors=True)
def dp_ts_ucb_kernel(means, horizon, phi, gdp_scale, checkpoints, rng, random_ties, law=0, book=None):
    """One run (the module's algorithm). Returns (regret[C], pulls int64[K], reward_sum).

    ``phi`` samples per posterior, ``gdp_scale`` = sqrt(phi)/mu (sigma = max(1/sqrt(n), gdp_scale/n) for a batch
    of n rewards); rewards of law ``law`` (``_laws``); ``book``: a release book that notes every sample
    (:mod:`dpbandits.mechanisms.ledger`), or None (compiled away).
    """
    k = means.size
    gap = means.max() - means
    cur = np.zeros(k, dtype=np.int64)  # rewards in the open batch
    size = np.ones(k, dtype=np.int64)  # the open batch's size
    held = np.zeros(k, dtype=np.int64)  # rewards in the arm's completed batches
    centre = np.zeros(k)  # the posterior's mean: the last completed batch's mean
    sigma = np.zeros(k)  # the posterior's sd
    first = np.zeros(k)  # the posterior's batch: entries first .. first + n - 1 (ledger)
    n_post = np.ones(k)  # the posterior's batch size n
    given = np.zeros(k, dtype=np.int64)  # samples the posterior gave
    top = np.zeros(k)  # their maximum
    theta = np.empty(k)
    n = np.zeros(k, dtype=np.int64)
    out = np.empty(checkpoints.size)
    regret = 0.0
    total = 0.0
    c = 0
    for t in range(1, horizon + 1):
        if t <= k:
            a = t - 1
        else:
            for j in range(k):
                if given[j] < phi:
                    noise = sigma[j] * rng.standard_normal()
                    theta[j] = centre[j] + noise
                    top[j] = theta[j] if given[j] == 0 else max(top[j], theta[j])
                    given[j] += 1
                    if book is not None:
                        last = first[j] + n_post[j] - 1.0
                        note(book, GAUSS, j, first[j], last, 1.0 / n_post[j], sigma[j], next_draw(book), noise)
                else:
                    theta[j] = top[j]
            a, ties = argmax_count(theta)
            if ties > 1 and random_ties:
                a = pick_tie(theta, a, ties, rng)
        if lazy_count(a, cur, size):  # the batch completes: a new posterior from its rewards alone
            m = size[a]
            s = reward_sum(rng, law, m, means[a])
            total += s
            centre[a] = s / m
            sigma[a] = max(1.0 / math.sqrt(m), gdp_scale / m)
            first[a], n_post[a] = held[a] + 1.0, float(m)
            given[a] = 0
            held[a] += m
            size[a] = held[a]
            cur[a] = 0
        n[a] += 1
        regret += gap[a]
        c = record(out, checkpoints, c, t, regret)
    total += open_epoch_rewards(means, rng, cur, law)
    return out, n, total


def run(means, horizon, epsilon, checkpoints, rng, params, rewards="bernoulli", book=None):
    """One run of DP-TS-UCB under reward law ``rewards``; see :func:`dp_ts_ucb_kernel`."""
    phi = sample_budget(horizon, params["alpha"])
    scale = math.sqrt(phi) / gdp_mu(epsilon, params["delta"])
    random_ties = params["tie_break"] == "random"
    return dp_ts_ucb_kernel(means, horizon, phi, scale, checkpoints, rng, random_ties, *law_args(rewards, book))


register(
    Algorithm(
        name="dp_ts_ucb",
        kind="regret",
        label="DP-TS-UCB",
        private=True,
        reference="dpbandits.reference.hu2025:DPTSUCB",
        audit=Audit(noise=("normal",)),
        run=run,
        releases=recorded(run),
        privacy="approx",
        needs_horizon=True,
        params={
            "tie_break": TIE_BREAK,
            "delta": Probability(math.exp(-10), low=0.0, doc="target delta of (epsilon, delta)-DP (DP-UCB-INT's)"),
            "alpha": Param(
                0.5,
                low=0.0,
                doc="[RECON] privacy-regret trade-off: each posterior gives phi = max(1, ceil(ln(T)^(1 - alpha))) "
                "samples; the paper's range is [0, 1] (a tiny alpha gives alpha = 0's phi; above 1 reads as 1)",
            ),
        },
        laws=LAWS,
        cost_ns=50,
        doc="Hu, Huang, Zhang, Lécuyer & Hegde (ICML 2025) DP-TS-UCB [RECON], mu-GDP calibrated to (epsilon, "
        "delta)-DP.",
    )
)
