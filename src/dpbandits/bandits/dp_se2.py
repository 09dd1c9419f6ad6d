"""DP-SE 2 and modified DP-SE 2 (Sajed's MSc thesis 2019, Algorithm 10 and the variant of Appendix A.2).

Each epoch pulls the viable arms S round-robin (ascending index) with fresh statistics, and runs an
epsilon/2 SVT (threshold noise B ~ Lap(6/eps) once per epoch, A_r ~ Lap(6/eps) per check) at the check
rounds r = 2^l (or 2^l + 1), l = 1, 2, ... restarting every epoch. It halts on

    max_S mean - min_S mean > M h_r + (A_r + B + c_r) / r,
    h_r = sqrt(ln(16 K |S| l^2 / beta) / (2 r)),
    c_r = 6 ln(4K/beta)/eps + 6 ln(8 K l^2/beta)/eps + C ln(4 K |S|/beta)/eps,

with (M, C) = (10, 16) for DP-SE 2 and (2, 4) for the modified version. Then an epsilon/2 histogram
mean_i + Lap(2/(eps r)) removes every j with  max - mean~_j > 2 h_r + 4 ln(4K|S|/beta)/(eps r).
An epoch that removes nothing starts again with the same S. After |S| = 1 the last arm is pulled.
K is the initial number of arms. The horizon stops everything: pulls left before the next check are
split round-robin (ascending), with no check and no elimination (docs/reconstructions.md).

Fast kernel (exact): between two checks the algorithm reads only each arm's reward sum, so
one Binomial(rounds, mu_i) per viable arm and check interval replaces the Bernoulli pulls. The regret
curve is exact at every checkpoint (pulls are round-robin in ascending arm order).
Every epoch uses >= 2|S| pulls, so the loop ends after at most T/4 epochs.
"""

from __future__ import annotations

import math
from functools import partial

from ..core.audit_tables import DEFAULT_HORIZON, threshold_candidates
from ..core.jit import kernel
from ..core.laws import LAWS
from ..core.registry import ALGORITHMS, Algorithm, Audit, Contract, OptionalProbability, Param, Setting, register
from ..mechanisms.ledger import SVT_QUERY, SVT_THRESHOLD, next_draw, note
from ..mechanisms.noise import laplace_scale
from ..mechanisms.stopping import svt_scales
from ._elimination import eliminate, exploit, run_buffers
from ._laws import law_args, recorded, reward_sum
from ._params import resolve_beta
from ._regret import fill_linear, fill_round_robin, finish_round_robin
from ._release import noisy_means

SCHEDULES = ("pow2", "pow2plus1")
#: (Hoeffding multiplier M in the halting test, coefficient C of ln(4K|S|/beta)/eps in c_r)
VARIANTS = {"dp_se2": (10.0, 16.0), "dp_se2_modified": (2.0, 4.0)}


def noise_scales(epsilon: float, r: int) -> tuple[float, float, float]:
    """(B scale, A_r scale, histogram scale) = (6/eps, 6/eps, 2/(eps r)).

    SVT with budget eps/2 on the sum-scale query max S - min S (sensitivity 1), and a Laplace histogram
    with budget eps/2 on the means (L1 sensitivity 1/r).
    """
    b, a = svt_scales(1.0, epsilon / 2.0)
    return b, a, laplace_scale(1.0 / r, epsilon / 2.0)


@kernel
def _note_query(book, arms, m, pulls, r, scale, noise, group):
    """Note one check of the sparse vector ``group``: max S - min S of the epoch's reward sums (r entries of each
    viable arm, weight 1) is one statistic, a head row for arms[0] and a further range for every other arm."""
    draw = next_draw(book)
    for j in range(m):
        q = arms[j]
        note(book, SVT_QUERY, q, pulls[q] - r + 1, pulls[q], 1.0, scale, draw, noise, 1.0 if j > 0 else 0.0, group)


@kernel
def dp_se2_kernel(means, horizon, checkpoints, params, rng, law=0, book=None):
    """One run. Returns (regret[C], pulls[K], reward_sum); ``law``: reward law code (``_laws``).

    params = (epsilon, beta, halt_mult, c_coef, plus_one, svt_scale, hist_unit): halt_mult, c_coef: M and C of the
    halting test; plus_one: 1 for checks at 2^l + 1, else 0; svt_scale: Laplace scale of B and A_r; hist_unit:
    histogram scale times r. ``book``: a release book (:mod:`dpbandits.mechanisms.ledger`) that records the
    sparse vectors' threshold and queries and the histograms' releases, or None (compiled away).
    """
    epsilon, beta, halt_mult, c_coef, plus_one, svt_scale, hist_unit = params
    k = means.size
    gap, arms, sums, noisy, pulls, out = run_buffers(means, checkpoints)
    m = k
    c_fixed = svt_scale * math.log(4.0 * k / beta)
    t = 0
    regret = 0.0
    total = 0.0
    c = 0
    while m > 1 and t < horizon:
        b = rng.laplace(0.0, svt_scale)
        group = -1.0
        if book is not None:
            group = next_draw(book)
            note(book, SVT_THRESHOLD, -1, 0, 0, 1.0, svt_scale, group, b, 0.0, group)
        rate = 0.0
        for j in range(m):
            sums[arms[j]] = 0.0
            rate += gap[arms[j]]
        r = 0
        ell = 0
        h = 0.0
        halted = False
        while t < horizon:
            ell += 1
            d = (1 << ell) + plus_one - r
            if t + m * d > horizon:  # horizon before the next check: split what is left, stop
                c, regret, total = finish_round_robin(
                    out, checkpoints, c, t, regret, total, arms, m, gap, means, pulls, horizon, rng, law
                )
                t = horizon
                break
            for j in range(m):
                a = arms[j]
                x = reward_sum(rng, law, d, means[a])
                sums[a] += x
                total += x
                pulls[a] += d
            c = fill_round_robin(out, checkpoints, c, t, regret, arms, m, gap, t + m * d)
            regret += d * rate
            t += m * d
            r += d
            a_r = rng.laplace(0.0, svt_scale)
            if book is not None:
                _note_query(book, arms, m, pulls, r, svt_scale, a_r, group)
            h = math.sqrt(math.log(16.0 * k * m * ell * ell / beta) / (2.0 * r))
            c_r = (
                c_fixed
                + svt_scale * math.log(8.0 * k * ell * ell / beta)
                + c_coef * math.log(4.0 * k * m / beta) / epsilon
            )
            hi = sums[arms[0]]
            lo = hi
            for j in range(1, m):
                hi = max(hi, sums[arms[j]])
                lo = min(lo, sums[arms[j]])
            if (hi - lo) / r > halt_mult * h + (a_r + b + c_r) / r:
                halted = True
                break
        if not halted:
            break
        top = noisy_means(sums, r, arms, m, hist_unit / r, rng, noisy, book, pulls)
        threshold = 2.0 * h + 4.0 * math.log(4.0 * k * m / beta) / (epsilon * r)
        m = eliminate(arms, m, noisy, top, threshold)
    if t < horizon:  # exploitation: |S| = 1
        total += exploit(arms[0], horizon - t, means, pulls, rng, law)
        c = fill_linear(out, checkpoints, c, t, regret, horizon, gap[arms[0]])
    return out, pulls, total


def run(means, horizon, epsilon, checkpoints, rng, params, variant="dp_se2", rewards="bernoulli", book=None):
    """One run of ``variant`` ("dp_se2" or "dp_se2_modified") under reward law ``rewards``; see
    :func:`dp_se2_kernel`."""
    kernel_params = _kernel_params(horizon, epsilon, params, variant)
    return dp_se2_kernel(means, horizon, checkpoints, kernel_params, rng, *law_args(rewards, book))


def _kernel_params(horizon, epsilon, params, variant):
    """The ``params`` tuple of :func:`dp_se2_kernel` for ``variant`` at (horizon, epsilon)."""
    halt_mult, c_coef = VARIANTS[variant]
    svt_scale, _, hist_unit = noise_scales(epsilon, 1)
    beta = resolve_beta(params["beta"], horizon)
    plus_one = int(params["check_schedule"] == "pow2plus1")
    return (epsilon, beta, halt_mult, c_coef, plus_one, svt_scale, hist_unit)


#: Reading axis of the SVT check rounds (docs/reconstructions.md, "DP-SE 2's check rounds").
CHECK_SCHEDULE_READINGS = {
    "pow2": "DP-SE 2 runs DP exponential NAS (Algorithm 8, 'until t = 2^k') in each epoch, and Appendix A.2 "
    "speaks of 'the round r which is also a power of 2' at which modified DP-SE 2 halts",
    "pow2plus1": "thesis Algorithm 10, line 15 reads 'until r > 2^l' literally: checks at r = 3, 5, 9, 17, ...",
}

PARAMS = {
    "beta": OptionalProbability(
        None, doc="confidence beta in (0, 1); None = 1/T as in the experiments (thesis Appendix A.2: 'set beta = 1/T')"
    ),
    "check_schedule": Param(
        "pow2",
        SCHEDULES,
        readings=CHECK_SCHEDULE_READINGS,
        doc="[RECON] SVT checks at r = 2^l (pow2) or, reading Algorithm 10's 'until r > 2^l' literally, "
        "at r = 2^l + 1 (pow2plus1)",
    ),
}

_REFERENCES = {
    "dp_se2": "dpbandits.reference.sajed_thesis:DPSE2",
    "dp_se2_modified": "dpbandits.reference.sajed_thesis:ModifiedDPSE2",
}


def _audit_plan(name: str):
    """Privacy audit plan (:mod:`dpbandits.audit`, K = 2, beta = 0.9): the first SVT check at which a count
    difference below r can halt, on tables that put arm 0's count at the halting threshold."""

    def plan(epsilon: float, params: dict):
        cls, k, beta = ALGORITHMS[name].reference_class(), 2, params["beta"]
        plus = 1 if params["check_schedule"] == "pow2plus1" else 0
        for ell in range(1, 13):
            r = 2**ell + plus
            h = math.sqrt(math.log(16 * k * k * ell**2 / beta) / (2 * r))
            c = (
                6 * math.log(4 * k / beta)
                + 6 * math.log(8 * k * ell**2 / beta)
                + cls.C_COEF * math.log(4 * k * k / beta)
            ) / epsilon
            need = cls.HALT_MULT * h * r + c  # halt iff count difference > need + A_r + B
            if need < r - 1:
                horizon = 2 * r + 2
                return horizon, threshold_candidates(k, horizon, r, math.floor(need) + 1)
        return DEFAULT_HORIZON, None

    return plan


_DOCS = {
    "dp_se2": "Sajed (2019 MSc thesis) Algorithm 10, DP-SE 2.",
    "dp_se2_modified": "Sajed (2019 MSc thesis) Algorithm 10 with the halting test of Appendix A.2.",
}

# Where the sparse vector decides the halting round (and, with a middle arm, the histogram the elimination):
# P(halting a round earlier) moves by 0.1-0.2 at half the noise.
_CONTRACTS = {
    "dp_se2": Contract(
        bernoulli=Setting((1.0, 0.1), 4200, 0.45),
        deterministic=Setting((1.0, 0.0), 2148, 2.33),
        params={"beta": 0.9},
        runs=1000,
        fast_runs=5000,
    ),
    "dp_se2_modified": Contract(
        bernoulli=Setting((1.0, 0.72, 0.0), 3200, 0.2),
        deterministic=Setting((1.0, 0.0), 1124, 0.3),
        params={"beta": 0.9},
        runs=1000,
        fast_runs=5000,
    ),
}

for _name, _label in (("dp_se2", "DP-SE 2"), ("dp_se2_modified", "modified DP-SE 2")):
    register(
        Algorithm(
            name=_name,
            kind="regret",
            label=_label,
            private=True,
            reference=_REFERENCES[_name],
            collapsed=True,
            audit=Audit(params={"beta": 0.9}, plan=_audit_plan(_name)),
            contract=_CONTRACTS[_name],
            run=partial(run, variant=_name),
            releases=partial(recorded(run), variant=_name),
            params=PARAMS,
            laws=LAWS,
            needs_horizon=True,
            cost_ns=0.3,
            doc=_DOCS[_name],
        )
    )
