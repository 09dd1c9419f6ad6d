"""Runner for regret-minimisation algorithms: ``dpbandits.simulate``."""

from __future__ import annotations

import functools
import logging
import platform
from dataclasses import dataclass, field

import numpy as np

from . import registry
from .checkpoints import check_checkpoints, default_checkpoints
from .laws import BETA_CONCENTRATION, DEFAULT, check_rewards, cost_ns
from .seeding import config_key, run_generator
from .validation import check_epsilon, check_first_run, check_horizon, check_means, check_runs, check_seed

log = logging.getLogger("dpbandits")
COST_WARNING_S = 600.0  # a call estimated to take longer says so (logging, WARNING) before it starts


@dataclass
class SimulationResult:
    """Outcome of ``runs`` independent runs of one configuration.

    checkpoints : int64[C]        steps t (1-based) at which regret is recorded; last = horizon
    regret      : float64[R, C]   cumulative pseudo-regret sum_s (mu* - mu_{a_s}) at each checkpoint
    pulls       : int64[R, K]     pull counts at the horizon
    reward_sum  : float64[R]      total reward collected up to the horizon
    meta        : dict            algorithm, resolved params, seeds, versions
    """

    checkpoints: np.ndarray
    regret: np.ndarray
    pulls: np.ndarray
    reward_sum: np.ndarray
    meta: dict = field(default_factory=dict)

    @property
    def realised_regret(self) -> np.ndarray:
        """float64[R]: horizon * mu* - total reward (realised regret at the horizon)."""
        means = np.asarray(self.meta["means"])
        return self.meta["horizon"] * means.max() - self.reward_sum


@functools.cache
def _package_version() -> str:
    """The package version, read once per process: a metadata read costs about 0.5 ms, and every simulation
    records it."""
    from .._version import version

    return version()


def versions() -> dict:
    import numba

    return {
        "dpbandits": _package_version(),
        "numpy": np.__version__,
        "numba": numba.__version__,
        "python": platform.python_version(),
    }


def law_meta(rewards: str) -> dict:
    """The meta entries of a result's reward law: its name, and the Beta concentration under "beta"."""
    return {"rewards": rewards, **({"beta_concentration": BETA_CONCENTRATION} if rewards == "beta" else {})}


def run_meta(alg, means, horizon, epsilon, resolved, rewards, seed, key, run_ids, engine, **extra) -> dict:
    """A regret result's meta: its configuration (``means`` float64[K], ``run_ids`` int64[R]), reward law, seed and
    configuration key, the ``engine`` that ran it ("fast" or "reference") and ``extra`` entries, then the versions."""
    return {
        "algorithm": alg.name,
        "means": means.tolist(),
        "horizon": horizon,
        "epsilon": epsilon,
        "params": resolved,
        **law_meta(rewards),
        "seed": seed,
        "config_key": key,
        "run_ids": run_ids.tolist(),
        "engine": engine,
        **extra,
        "versions": versions(),
    }


def announce_cost(alg, pulls: int, rewards: str = DEFAULT) -> float:
    """Estimated core-seconds of ``pulls`` pulls of ``alg`` under law ``rewards`` (its ``cost_ns`` hint, measured
    by the bench; :func:`dpbandits.core.laws.cost_ns`); logged as a warning when above ``COST_WARNING_S``, so a horizon
    typo is caught before the wait."""
    seconds = cost_ns(alg, rewards) * 1e-9 * pulls
    if seconds > COST_WARNING_S:
        log.warning(
            "dpbandits: %s is estimated to take about %.3g core-hours (%.3g pulls); interrupt if unintended",
            alg.name,
            seconds / 3600,
            pulls,
        )
    return seconds


def prepare(algorithm, means, horizon, epsilon, runs, seed, checkpoints, params, first_run=0, rewards=DEFAULT):
    """Validate arguments; return (Algorithm, means, horizon, epsilon, run ids, seed, ckpts, params, key).

    A reward law other than the default joins the configuration's key, so its seeds never meet Bernoulli ones.
    """
    alg = registry.get(algorithm, "regret")
    rewards = check_rewards(rewards)
    if rewards not in alg.laws:
        raise ValueError(f"rewards={rewards!r}: algorithm {alg.name!r} draws only {list(alg.laws)} (Algorithm.laws)")
    means = check_means(means)
    horizon = check_horizon(horizon, means.size)
    epsilon = check_epsilon(epsilon, alg.private)
    if not alg.private:
        epsilon = None  # non-private algorithms ignore epsilon; one simulation serves every epsilon
    runs = check_runs(runs)
    seed = check_seed(seed)
    first_run = check_first_run(first_run, runs)
    ckpts = default_checkpoints(horizon) if checkpoints is None else check_checkpoints(checkpoints, horizon)
    resolved = alg.resolve(params)
    config = {"algorithm": alg.name, "means": means, "horizon": horizon, "epsilon": epsilon, "params": resolved}
    key = config_key(config if rewards == DEFAULT else {**config, "rewards": rewards})
    announce_cost(alg, horizon * runs, rewards)
    run_ids = np.arange(first_run, first_run + runs)
    return alg, means, horizon, epsilon, run_ids, seed, ckpts, resolved, key


def simulate(algorithm, means, horizon, epsilon, runs, seed, checkpoints=None, first_run=0, rewards=DEFAULT, **params):
    """Simulate ``runs`` runs (indices ``first_run .. first_run+runs-1``) of a regret algorithm.

    Parameters
    ----------
    algorithm : str        name in ``dpbandits.ALGORITHMS`` with kind "regret"
    means : float[K]       mean rewards in [0, 1], K >= 2
    horizon : int          number of pulls T >= K
    epsilon : float        privacy parameter > 0 (ignored, may be None, for non-private algorithms)
    runs : int             number of runs
    seed : int             root seed; run i uses SeedSequence(seed, spawn_key=(config_key, i))
    checkpoints : int[C]   steps at which regret is recorded (default: ~200 log/linear points)
    rewards : str          reward law (:mod:`dpbandits.core.laws`): "bernoulli" (default), "beta" (Beta(m, 1 - m),
                           concentration 1) or "uniform" (on [m - w, m + w], w = min(m, 1 - m)); a mean of 0
                           or 1 is a point mass; a non-default law changes the configuration key (the seeds)
    **params               algorithm parameters (see ``ALGORITHMS[name].params``)
    """
    alg, means, horizon, epsilon, run_ids, seed, ckpts, resolved, key = prepare(
        algorithm, means, horizon, epsilon, runs, seed, checkpoints, params, first_run, rewards
    )
    law = {} if rewards == DEFAULT else {"rewards": rewards}
    runs, k = run_ids.size, means.size
    regret = np.empty((runs, ckpts.size))
    pulls = np.empty((runs, k), dtype=np.int64)
    reward_sum = np.empty(runs)
    rngs = [run_generator(seed, key, i) for i in run_ids]
    if alg.run_batch is not None:
        regret[:], pulls[:], reward_sum[:] = alg.run_batch(means, horizon, epsilon, ckpts, rngs, resolved, **law)
    else:
        for j, rng in enumerate(rngs):
            regret[j], pulls[j], reward_sum[j] = alg.run(means, horizon, epsilon, ckpts, rng, resolved, **law)
    meta = run_meta(alg, means, horizon, epsilon, resolved, rewards, seed, key, run_ids, "fast")
    return SimulationResult(ckpts, regret, pulls, reward_sum, meta)
