"""Runners for fixed-budget best-arm identification: ``simulate_bai``, ``run_on_table`` and ``bai_releases``.

Both call the registered algorithm's per-configuration trial function with a reward-table factory:
``simulate_bai`` draws each run's table lazily from the instance (``UniformTable``), ``run_on_table``
reads a given table (``RewardTable``), so privacy audits exercise the simulation code path; ``bai_releases`` runs
one trial that records its releases (the ``releases`` entry of a private algorithm, :mod:`dpbandits.privacy`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from ..core import registry
from ..core.seeding import config_key, run_generator
from ..core.simulate import versions
from ..core.validation import (
    check_arms,
    check_budget,
    check_epsilon,
    check_first_run,
    check_runs,
    check_seed,
    check_theta,
)
from .noise import NoiseTap
from .table import RewardTable, UniformTable, reward_bounds


@dataclass
class BaiResult:
    """Outcome of ``runs`` independent trials of one configuration.

    recommended : int64[R]   recommended arm (0-based) of each run
    success     : bool[R]    recommended == best arm (argmax of arms @ theta, lowest index on ties)
    meta        : dict       algorithm, resolved params, instance, seed, config key, run ids, versions
    """

    recommended: np.ndarray
    success: np.ndarray
    meta: dict = field(default_factory=dict)

    @property
    def success_rate(self) -> float:
        return float(self.success.mean())


def wilson_interval(successes: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """Wilson score interval (default 95%) of a binomial proportion successes / n."""
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def simulate_bai(
    algorithm,
    arms,
    theta,
    budget,
    epsilon,
    runs,
    seed,
    first_run=0,
    *,
    reward="uniform",
    reward_width=None,
    **params,
) -> BaiResult:
    """Simulate runs ``first_run .. first_run + runs - 1`` of a fixed-budget BAI algorithm.

    Parameters
    ----------
    algorithm : str      name in ``dpbandits.ALGORITHMS`` with kind "bai"
    arms : float[K, d]   arm feature vectors a_i
    theta : float[d]     parameter; mean rewards mu = arms @ theta
    budget : int         number of pulls T
    epsilon : float      privacy parameter > 0 (ignored, may be None, for non-private algorithms)
    runs : int           number of runs; run i uses ``run_generator(seed, config_key, i)``
    seed : int           root seed
    reward : str         "uniform": U[0, 2 mu_i] (a reconstruction, docs/reconstructions.md); "uniform_centered":
                         U[mu_i - w, mu_i + w] with w = ``reward_width``
    **params             algorithm parameters (see ``ALGORITHMS[name].params``)
    """
    alg = registry.get(algorithm, "bai")
    arms = check_arms(arms)
    theta = check_theta(theta, arms.shape[1])
    means = arms @ theta
    lo, hi = reward_bounds(means, reward, reward_width)
    budget = check_budget(budget)
    epsilon = check_epsilon(epsilon, alg.private)
    if not alg.private:
        epsilon = None  # non-private algorithms ignore epsilon; one simulation serves every epsilon
    runs, seed = check_runs(runs), check_seed(seed)
    first_run = check_first_run(first_run, runs)
    resolved = alg.resolve(params)
    key = config_key(
        {
            "algorithm": alg.name,
            "arms": arms,
            "theta": theta,
            "budget": budget,
            "epsilon": epsilon,
            "reward": reward,
            "reward_width": reward_width,
            "params": resolved,
        }
    )
    run_ids = np.arange(first_run, first_run + runs)
    rngs = (run_generator(seed, key, i) for i in run_ids)
    recommended = alg.run(arms, budget, epsilon, rngs, resolved, lambda rng: UniformTable(lo, hi, budget, rng))
    best = int(np.argmax(means))
    meta = {
        "algorithm": alg.name,
        "arms": arms.tolist(),
        "theta": theta.tolist(),
        "means": means.tolist(),
        "best_arm": best,
        "budget": budget,
        "epsilon": epsilon,
        "reward": reward,
        "reward_width": reward_width,
        "params": resolved,
        "seed": seed,
        "config_key": key,
        "run_ids": run_ids.tolist(),
        "engine": "fast",
        "versions": versions(),
    }
    return BaiResult(recommended, recommended == best, meta)


def run_on_table(algorithm, arms, table, epsilon, rng, **params) -> int:
    """Recommended arm of one run on the reward table ``table`` (float[K, T], entries in [0, 1]).

    ``table[i, j]`` is the reward of the j-th pull of arm i (Definition 2.1); the budget is T.
    ``table`` may be a ``RewardTable`` to inspect its ``reads`` afterwards. ``rng`` supplies the
    policy's own randomness (noise and tie-breaks).
    """
    alg = registry.get(algorithm, "bai")
    arms = check_arms(arms)
    source = table if isinstance(table, RewardTable) else RewardTable(table)
    if source.pulled:
        raise ValueError("table has already been read; pass a fresh RewardTable")
    if source.x.shape[0] != arms.shape[0]:
        raise ValueError(f"table has {source.x.shape[0]} rows but arms has K={arms.shape[0]}")
    budget = source.budget
    epsilon = check_epsilon(epsilon, alg.private)
    if not alg.private:
        epsilon = None  # non-private algorithms ignore epsilon; one simulation serves every epsilon
    resolved = alg.resolve(params)
    return int(alg.run(arms, budget, epsilon, [rng], resolved, lambda _: source)[0])


def means_instance(means) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(arms float64[K, K], lo float64[K], hi float64[K]): the linear instance of arm means ``means`` (float[K] in
    [0, 1]) that the release ledger runs. Arms are the unit vectors and theta = means, so a_i . theta = mu_i (for
    K = 2 this is ``two_arm_instance(1, mu_1, mu_2)``); rewards are U[mu_i - w, mu_i + w] (``uniform_centered``)
    with w = min_i min(mu_i, 1 - mu_i), the widest width every arm admits."""
    means = np.asarray(means, dtype=np.float64)
    width = float(np.min(np.minimum(means, 1.0 - means)))
    lo, hi = reward_bounds(means, "uniform_centered", width)
    return np.eye(means.size), lo, hi


def bai_releases(make_plan, recommend):
    """The ``releases`` entry of a BAI algorithm whose trial is ``recommend(plan, table, rng, book=None)`` on
    ``make_plan(arms, budget, epsilon, params)``: ``releases(means, horizon, epsilon, params, rng, book,
    instance=None) -> pulls int64[K]``, the entries of each arm's stream that one trial on :func:`means_instance`
    (or ``instance`` = (arms, lo, hi)) with budget ``horizon`` read, its rewards drawn lazily from ``rng`` as
    :func:`simulate_bai` draws them, every release noted in ``book`` (None: the plain run).
    ``releases.trial`` takes the same arguments and returns (recommended arm, pulls)."""

    def trial(means, horizon, epsilon, params, rng, book=None, instance=None) -> tuple[int, np.ndarray]:
        arms, lo, hi = means_instance(means) if instance is None else instance
        plan = make_plan(np.asarray(arms, dtype=np.float64), int(horizon), epsilon, params)
        table = UniformTable(lo, hi, int(horizon), rng)
        arm = recommend(plan, table, rng) if book is None else recommend(plan, table, NoiseTap(rng), book)
        return arm, table.next.copy()

    def releases(means, horizon, epsilon, params, rng, book, instance=None) -> np.ndarray:
        return trial(means, horizon, epsilon, params, rng, book, instance)[1]

    releases.trial = trial
    return releases
