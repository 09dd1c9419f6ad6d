"""DP-SE: DP Successive Elimination (Sajed & Sheffet 2019, Algorithm 3; Sajed's thesis, Algorithm 9).

Epoch e (Delta_e = 2^-e, m = |S| viable arms at its start, fresh statistics) pulls every arm of S
round-robin in ascending index for n_e = ceil(R_e) rounds, where

    R_e = max(32 ln(8 m e^2/beta) / Delta_e^2,  8 ln(4 m e^2/beta) / (eps Delta_e)) + 1   (real; line 8)

then releases mu~_i = mean_i + Lap(1/(eps n_e)) and removes every j with
mu~_max - mu~_j > 2 h_e + 2 c_e,  h_e = sqrt(ln(8 m e^2/beta) / (2 R_e)),  c_e = ln(4 m e^2/beta) / (R_e eps).
After |S| = 1 the last arm is pulled until T. The horizon stops everything: an epoch cut by T gives
arm number k of S (ascending) floor(rem/m) + [k < rem mod m] more pulls and eliminates nothing (the
algorithm never compares t with T; docs/reconstructions.md).

Fast kernel (exact): the pulls of an epoch are round-robin and data-independent and the
algorithm reads only each arm's reward sum at the epoch's end, so one Binomial(n_e, mu_i) per viable
arm replaces the Bernoulli pulls. The regret curve is exact at every checkpoint.
"""

from __future__ import annotations

import math

from ..core.audit_tables import threshold_candidates
from ..core.jit import kernel
from ..core.laws import LAWS
from ..core.registry import Algorithm, Audit, Bound, Contract, OptionalProbability, Param, Setting, register
from ._elimination import eliminate, exploit, run_buffers
from ._laws import law_args, recorded, reward_sum
from ._params import resolve_beta
from ._regret import fill_linear, fill_round_robin, finish_round_robin
from ._release import noisy_means

NOISE_SCALE_USES = ("r", "R_e")


@kernel
def _epoch_schedule(m, e, epsilon, beta):
    delta = 2.0**-e
    log8 = math.log(8.0 * m * e * e / beta)
    log4 = math.log(4.0 * m * e * e / beta)
    big_r = max(32.0 * log8 / (delta * delta), 8.0 * log4 / (epsilon * delta)) + 1.0
    return big_r, int(math.ceil(big_r)), math.sqrt(log8 / (2.0 * big_r)), log4 / (big_r * epsilon)


def epoch_schedule(m: int, e: int, epsilon: float, beta: float) -> tuple[float, int, float, float]:
    """Schedule of DP-SE epoch ``e`` (1-based) with ``m`` viable arms.

    Returns
    -------
    (R_e, n_e, h_e, c_e): the real R_e of line 8, the rounds n_e = ceil(R_e) (each arm of S is pulled
    n_e times), and the Hoeffding and Laplace terms h_e, c_e of the threshold 2 h_e + 2 c_e (both use
    the real R_e, as Algorithm 3 writes h_e and c_e).
    """
    if isinstance(m, bool) or int(m) != m or m < 1:
        raise ValueError(f"m must be a positive integer, got {m!r}")
    if isinstance(e, bool) or int(e) != e or e < 1:
        raise ValueError(f"e must be a positive integer, got {e!r}")
    if not epsilon > 0:
        raise ValueError(f"epsilon must be > 0, got {epsilon!r}")
    if not 0 < beta < 1:
        raise ValueError(f"beta must lie in (0, 1), got {beta!r}")
    return _epoch_schedule(int(m), int(e), float(epsilon), float(beta))


@kernel
def release_scale(epsilon, big_r, scale_by_real):
    """Laplace scale of an epoch's release: 1/(eps n_e), n_e = ceil(R_e); 1/(eps R_e) if ``scale_by_real``."""
    return 1.0 / (epsilon * (big_r if scale_by_real else math.ceil(big_r)))


@kernel
def dp_se_kernel(means, horizon, epsilon, beta, scale_by_real, checkpoints, rng, law=0, book=None):
    """One run. Returns (regret[C], pulls[K], reward_sum); ``law``: reward law code (``_laws``).

    scale_by_real: Laplace scale 1/(eps R_e) if True, else 1/(eps n_e). ``book``: a release book
    (:mod:`dpbandits.mechanisms.ledger`) that records each release, or None (compiled away).
    """
    k = means.size
    gap, arms, sums, noisy, pulls, out = run_buffers(means, checkpoints)
    m = k
    t = 0
    e = 0
    regret = 0.0
    total = 0.0
    c = 0
    while m > 1 and t < horizon:
        e += 1
        big_r, n_e, h, c_e = _epoch_schedule(m, e, epsilon, beta)
        rate = 0.0
        for j in range(m):
            rate += gap[arms[j]]
        if n_e > (horizon - t) // m:  # the horizon cuts this epoch: split what is left, stop
            c, regret, total = finish_round_robin(
                out, checkpoints, c, t, regret, total, arms, m, gap, means, pulls, horizon, rng, law
            )
            t = horizon
            break
        for j in range(m):
            a = arms[j]
            x = reward_sum(rng, law, n_e, means[a])
            sums[a] = x
            total += x
            pulls[a] += n_e
        c = fill_round_robin(out, checkpoints, c, t, regret, arms, m, gap, t + m * n_e)
        regret += n_e * rate
        t += m * n_e
        if t == horizon:  # stop at T: the release and elimination would come after the cut
            break
        top = noisy_means(sums, n_e, arms, m, release_scale(epsilon, big_r, scale_by_real), rng, noisy, book, pulls)
        threshold = 2.0 * h + 2.0 * c_e
        m = eliminate(arms, m, noisy, top, threshold)
    if t < horizon:  # exploitation: |S| = 1
        total += exploit(arms[0], horizon - t, means, pulls, rng, law)
        c = fill_linear(out, checkpoints, c, t, regret, horizon, gap[arms[0]])
    return out, pulls, total


def run(means, horizon, epsilon, checkpoints, rng, params, rewards="bernoulli", book=None):
    """One run of DP-SE under reward law ``rewards`` (recording in ``book``, if given); see :func:`dp_se_kernel`."""
    return dp_se_kernel(
        means,
        horizon,
        epsilon,
        resolve_beta(params["beta"], horizon),
        params["noise_scale_uses"] == "R_e",
        checkpoints,
        rng,
        *law_args(rewards, book),
    )


BETA = OptionalProbability(
    None,
    doc="confidence beta in (0, 1); None = 1/T: Sajed & Sheffet's setting (2019, Section 5), "
    "a [CHOICE] for Hu & Hegde, who state no beta",
)
#: Reading axis of the Laplace scale (docs/reconstructions.md, "DP-SE's noise scale").
NOISE_SCALE_READINGS = {
    "r": "Algorithm 3 (Sajed & Sheffet 2019) adds Lap(1/(eps r)), r the rounds actually run, ceil(R_e)",
    "R_e": "the proof of Theorem 4.1 (Sajed & Sheffet 2019) adds Lap(1/(eps R_e)), R_e the real epoch length",
}


def audit_plan(epsilon: float, params: dict):
    """Privacy audit plan (:mod:`dpbandits.audit`, K = 2): the first epoch, its elimination and two pulls that
    reveal it, on tables that put arm 0's count at the elimination threshold. The audit's beta = 0.9 (any
    beta keeps DP-SE epsilon-DP) shortens the first epoch."""

    _, n, h, c = epoch_schedule(2, 1, epsilon, resolve_beta(params["beta"], 2))
    horizon = 2 * n + 2
    return horizon, threshold_candidates(2, horizon, n, math.ceil((2 * h + 2 * c) * n))


register(
    Algorithm(
        name="dp_se",
        kind="regret",
        label="DP-SE",
        private=True,
        reference="dpbandits.reference.sajed:DPSE",
        collapsed=True,
        audit=Audit(params={"beta": 0.9}, plan=audit_plan),
        # the first epoch (R_1 = 389 rounds at beta = 0.9) ends before T; its elimination of a 0.2 gap
        # is decided by the release noise (P about 0.2, 0.09 at half the noise)
        contract=Contract(
            bernoulli=Setting((1.0, 0.8), 900, 0.09),
            deterministic=None,
            params={"beta": 0.9},
            runs=1500,
            fast_runs=7500,
        ),
        bound=Bound("Lemma 4.2 (w.p. 1 - beta)", "dpbandits.drawing.theory:dp_se_epochs"),
        run=run,
        releases=recorded(run),
        params={
            "beta": BETA,
            "noise_scale_uses": Param(
                "r",
                NOISE_SCALE_USES,
                readings=NOISE_SCALE_READINGS,
                doc="[CHOICE] Laplace scale 1/(eps r) with r = ceil(R_e) rounds (Algorithm 3) or 1/(eps R_e) "
                "(proof of Theorem 4.1)",
            ),
        },
        laws=LAWS,
        needs_horizon=True,
        cost_ns=0.3,
        doc="Sajed & Sheffet (2019) Algorithm 3, DP Successive Elimination.",
    )
)
