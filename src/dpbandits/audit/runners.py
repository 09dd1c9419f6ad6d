"""What the audit runs on a fixed reward table: the reference twin, a BAI algorithm's ``run_on_table``, the
fast kernel through its replay (:func:`kernel_actions`), or the fast kernel's own ``run`` on a table whose
arms each give a constant reward (:func:`run_pulls`); outputs made hashable for counting.

A table is ``float[K, T]``, ``table[a, j]`` the reward of the j-th pull of arm a (the papers' neighbouring
reward tables, see :mod:`dpbandits.audit.loss`).
"""

from __future__ import annotations

import importlib
import importlib.util
from dataclasses import asdict

import numpy as np

from ..core import registry
from ..core.audit_tables import generic_candidates


def _check_table(table) -> np.ndarray:
    table = np.asarray(table, dtype=float)
    if table.ndim != 2 or table.shape[0] < 2 or table.shape[1] < 1:
        raise ValueError(f"table must be a (K >= 2, T >= 1) array, got shape {table.shape}")
    if not np.all((table >= 0) & (table <= 1)):
        raise ValueError("table entries must lie in [0, 1]")
    return table


def policy_actions(twin: type, rows: list, k: int, horizon: int, epsilon, rng, params) -> tuple:
    policy = twin(k, horizon, epsilon, rng, params)
    pulls = [0] * k
    actions = []
    for t in range(1, horizon + 1):
        a = int(policy.select(t))
        r = rows[a][pulls[a]]
        pulls[a] += 1
        policy.update(a, r)
        actions.append(a)
    return tuple(actions)


def run_policy_on_table(algorithm: str, table, epsilon: float, rng: np.random.Generator, **params) -> tuple:
    """Run the reference policy of ``algorithm`` once on a fixed reward table.

    Parameters
    ----------
    algorithm : str       regret algorithm with a reference twin (``Algorithm.reference``)
    table : float[K, T]   ``table[a, j]`` = reward of the j-th pull of arm a; horizon T = table width
    epsilon : float       privacy parameter passed to the policy
    rng : Generator       the policy's own randomness (noise, tie-breaking, sampling)
    **params              algorithm parameters (defaults filled by the registry)

    Returns
    -------
    tuple[int] of length T: the released action sequence (0-based arms).
    """
    alg = registry.get(algorithm)
    twin = twin_class(alg)
    table = _check_table(table)
    return policy_actions(twin, table.tolist(), table.shape[0], table.shape[1], epsilon, rng, alg.resolve(params))


_KERNEL_MEANS_TOP = 0.75  # replayed kernels: arm a has mean 0.75 - 0.5 a / K (distinct gaps name the arm)
_REWARD_U = (0.875, 0.0)  # reward decider u for reward 0 (u >= every mean) and reward 1 (u < every mean)


def kernel_actions(algorithm: str, table, epsilon: float, eta, picks, **params) -> tuple:
    """Run the fast kernel of ``algorithm`` once on a fixed reward table, through ``Algorithm.replay``.

    ``replay`` feeds step t the reward ``u[t-1] < mean[a]``; the table's reward of the arm pulled at t
    (its next unread entry) is imposed by choosing u: run, read the actions (from the per-step regret,
    the arms' gaps being distinct), set each u[t-1] from the table along those actions, and rerun until
    the rewards fed equal the rewards read. Step t's action depends on u[:t-1] only, so each rerun fixes
    at least one more step: at most T + 1 runs, usually 1-2.

    Parameters
    ----------
    algorithm : str       regret algorithm declaring ``replay``
    table : float[K, T]   0/1 rewards, ``table[a, j]`` = reward of the j-th pull of arm a
    epsilon : float       privacy parameter
    eta : float[n]        standard Laplace draws consumed in order (scale them for an under-noised run)
    picks : int[m]        tie picks in order, 0-based among the maximisers (both padded with zeros for the
                          reruns on unsettled rewards, which may draw more than the final run)
    **params              algorithm parameters (defaults filled by the registry)

    Returns
    -------
    tuple[int] of length T: the released action sequence (0-based arms), as :func:`run_policy_on_table`.
    """
    alg = registry.get(algorithm)
    replay = kernel_replay(alg)
    table = _check_table(table)
    if not np.all((table == 0) | (table == 1)):
        raise ValueError("table entries must be 0 or 1 to replay the fast kernel")
    pad = np.zeros(table.size)  # a rerun on not yet settled rewards may draw more than the final run
    eta = np.concatenate([np.asarray(eta, dtype=float), pad])
    picks = np.concatenate([np.asarray(picks, dtype=np.int64), pad.astype(np.int64)])
    return replay_actions(replay, table, float(epsilon), eta, picks, alg.resolve(params))[0]


def kernel_replay(alg: registry.Algorithm):
    replay = alg.replay_function() if alg.kind == "regret" else None
    if replay is None:
        raise ValueError(
            f"algorithm={alg.name!r} declares no replay (Algorithm.replay): its fast kernel cannot be audited"
        )
    return replay


def replay_actions(replay, table, epsilon, eta, picks, params, start=None) -> tuple:
    """(actions, u) of :func:`kernel_actions`; ``start`` is the first guess of u (e.g. the last run's)."""
    k, horizon = table.shape
    means = _KERNEL_MEANS_TOP - 0.5 * np.arange(k) / k
    checkpoints = np.arange(1, horizon + 1)
    u = np.full(horizon, _REWARD_U[0]) if start is None else start
    steps = np.arange(horizon)
    for _ in range(horizon + 1):
        regret = replay(means, epsilon, checkpoints, params, u, eta, picks)[0]
        actions = np.rint(np.diff(regret, prepend=0.0) * 2 * k).astype(np.int64)
        drawn = np.cumsum(actions[:, None] == np.arange(k), axis=0)[steps, actions] - 1
        fed = np.where(table[actions, drawn] == 1, _REWARD_U[1], _REWARD_U[0])
        if np.array_equal(fed, u):
            return tuple(actions.tolist()), u
        u = fed
    raise RuntimeError("the replayed kernel's actions did not settle")  # unreachable for a causal kernel


def kernel_laplace(rng: np.random.Generator, size: int, scale: float) -> np.ndarray:
    """float[size]: Lap(scale) draws of the package's own block sampler (``bandits._draws.fill_laplace``) on the
    PCG64 state of ``rng``, which is advanced past them."""
    from ..bandits._draws import fill_laplace
    from ..bandits._pcg64 import new_streams, set_streams_state

    streams = new_streams([rng])
    eta = np.empty(int(size))
    fill_laplace(streams[0], float(scale), eta)
    set_streams_state([rng], streams)
    return eta


def constant_means(table: np.ndarray) -> np.ndarray | None:
    """float[K]: each arm's reward where every row of ``table`` is constant 0 or 1, else None."""
    first = table[:, :1]
    if np.all(table == first) and np.all((first == 0) | (first == 1)):
        return first[:, 0].copy()
    return None


def constant_candidates(k: int, width: int, flips=()) -> list:
    """(label, table float[K, width], flip) pairs whose table has constant 0/1 rows (the ``fast`` engine runs the
    kernel on it): the generic pairs plus each of ``flips`` (arm, pull index) on zeros, ones and arm 0 ones."""
    zeros, ones = np.zeros((k, width)), np.ones((k, width))
    split = zeros.copy()
    split[0] = 1.0
    out = list(generic_candidates(k, width))
    for a, j in flips:
        out += [("zeros", zeros, (a, j)), ("ones", ones, (a, j)), ("arm0 ones", split, (a, j))]
    return out


def run_pulls(alg: registry.Algorithm, means, horizon: int, epsilon: float, rng, params) -> tuple:
    """The fast kernel's own ``run`` at ``horizon`` on 0/1 ``means`` (point-mass rewards, so the reward table
    is each arm's constant): its released pulls per arm, as a tuple of K ints."""
    pulls = alg.run(np.asarray(means, dtype=float), int(horizon), float(epsilon), np.array([horizon]), rng, params)[1]
    return tuple(int(v) for v in pulls)


def bai_module():
    """``dpbandits.bai`` if it exists and exposes ``run_on_table``, else None."""
    if importlib.util.find_spec("dpbandits.bai") is None:
        return None
    mod = importlib.import_module("dpbandits.bai")
    return mod if hasattr(mod, "run_on_table") else None


def hashable(out):
    if isinstance(out, np.ndarray):
        return hashable(out.tolist())
    if isinstance(out, (list, tuple)):
        return tuple(hashable(v) for v in out)
    if isinstance(out, np.generic):
        return out.item()
    if hasattr(out, "__dataclass_fields__"):
        return tuple(hashable(v) for v in asdict(out).values())
    return out


def lookup(name: str) -> registry.Algorithm:
    bai_module()  # registers the BAI algorithms if the subpackage exists
    return registry.get(name)


def twin_class(alg: registry.Algorithm) -> type:
    """The reference twin the audit runs; ``ValueError`` naming the algorithm if it has none."""
    twin = alg.reference_class()
    if twin is None:
        raise ValueError(f"algorithm={alg.name!r} has no reference twin (Algorithm.reference) to audit")
    return twin


def default_algorithms() -> list[str]:
    """Every private algorithm of ``ALGORITHMS``, in registry order (each must be auditable)."""
    bai_module()
    return [n for n, a in registry.ALGORITHMS.items() if a.private]
