"""Plain per-step reference twins of the regret algorithms: slow and obviously correct.

Each policy follows its paper's pseudocode literally: ``select(t)`` returns the arm pulled at step
t (1-based), then the runner draws the reward (Bernoulli, or the law ``rewards``) and calls ``update(arm, reward)``. An
algorithm names its twin in ``Algorithm.reference`` (:mod:`dpbandits.core.registry`).
``simulate`` has the same signature and seeding as :func:`dpbandits.simulate`, plus ``noise_factor``, which
multiplies the twin's noise scales (a halved scale: a 2 epsilon-DP twin, the contract's power control).
"""

from __future__ import annotations

import numpy as np

from ..core.laws import DEFAULT
from ..core.seeding import run_generator
from ..core.simulate import SimulationResult, prepare, run_meta
from ..core.validation import check_real
from ..mechanisms.noise import ScaledNoise
from ._policy import argmax_ties
from ._rewards import REWARDS

__all__ = ["argmax_ties", "simulate"]


def simulate(
    algorithm,
    means,
    horizon,
    epsilon,
    runs,
    seed,
    checkpoints=None,
    first_run=0,
    noise_factor=1.0,
    rewards=DEFAULT,
    **params,
):
    """Reference twin of :func:`dpbandits.simulate` (same arguments, same result type).

    ``noise_factor`` (> 0) multiplies the scale of every noise draw of the twin (the Generator methods named
    by ``Algorithm.audit.noise``, through
    :class:`dpbandits.mechanisms.noise.ScaledNoise`); rewards are drawn unscaled, by
    the function of law ``rewards`` in :mod:`._rewards`.
    """
    noise_factor = check_real("noise_factor", noise_factor)
    if not noise_factor > 0:
        raise ValueError(f"noise_factor must be > 0, got noise_factor={noise_factor:g}")
    alg, means, horizon, epsilon, run_ids, seed, ckpts, resolved, key = prepare(
        algorithm, means, horizon, epsilon, runs, seed, checkpoints, params, first_run, rewards
    )
    draw = REWARDS[rewards]
    runs = run_ids.size
    twin = alg.reference_class()
    if twin is None:
        raise ValueError(f"algorithm={alg.name!r} has no reference twin (Algorithm.reference)")
    gap = means.max() - means
    regret = np.empty((runs, ckpts.size))
    pulls = np.zeros((runs, means.size), dtype=np.int64)
    reward_sum = np.zeros(runs)
    for j, i in enumerate(run_ids):
        rng = run_generator(seed, key, i)
        noise = rng if noise_factor == 1.0 else ScaledNoise(rng, noise_factor, alg.audit.noise)
        policy = twin(means.size, horizon, epsilon, noise, resolved)
        cum, c = 0.0, 0
        for t in range(1, horizon + 1):
            a = policy.select(t)
            r = draw(rng, means[a])
            policy.update(a, r)
            pulls[j, a] += 1
            reward_sum[j] += r
            cum += gap[a]
            while c < ckpts.size and ckpts[c] == t:
                regret[j, c] = cum
                c += 1
    meta = run_meta(
        alg, means, horizon, epsilon, resolved, rewards, seed, key, run_ids, "reference", noise_factor=noise_factor
    )
    return SimulationResult(ckpts, regret, pulls, reward_sum, meta)
