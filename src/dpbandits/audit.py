"""Statistical privacy audit: Monte-Carlo privacy loss of the released actions on neighbouring tables.

Model (reward stack, the papers' neighbouring relation): the input is a table ``x[a, j]``, the reward
of the j-th pull of arm a; two tables are neighbours if they differ in one entry. The released output
is the action sequence (A_1, ..., A_T) of a reference policy (or whatever ``dpbandits.bai.run_on_table``
returns for a BAI algorithm); the probability is over the policy's own randomness only. With
``engine="kernel"`` the fast kernel runs instead of the twin, through its replay (:func:`kernel_actions`).

Procedure of :func:`audit_algorithm` (two independent samples, so event selection does not bias the
bound):

1. *Selection.* For a few candidate (table, flipped entry) pairs, run ``selection_trials`` trials on
   x and on x'. For each direction (x over x', x' over x) sort the observed outputs by their smoothed
   likelihood ratio; the candidate events are the prefixes of this order (Neyman-Pearson sets, which
   include single outputs). Keep the pair and the ``events`` events with the largest projected lower
   bound.
2. *Measurement.* Run ``trials`` fresh trials on x and x'. For each kept event E (direction x over
   x'), ``log((P_lo(E|x) - delta) / P_hi(E|x'))`` with one-sided Clopper-Pearson bounds at level
   ``alpha / (2 m)`` per probability (Bonferroni over the m events and both probabilities) is, with
   probability >= 1 - alpha simultaneously, below the true loss of E. The audit's lower bound is the
   maximum over the kept events (and 0).

Verdict: ``"violation"`` if the lower bound exceeds the claimed epsilon, else ``"consistent"``; for an
(epsilon, delta) algorithm (one with a ``delta`` parameter) the bound subtracts delta from P_lo, so a
consistent (epsilon, delta)-DP algorithm is flagged with probability <= alpha. Non-private algorithms
get ``"not private"``.

Each algorithm's ``Algorithm.audit`` (:class:`dpbandits.registry.Audit`) holds its plan: horizon and
tables, parameter hints, the epsilon it is audited at, and, where the under-noised control cannot be
flagged, the reason.

Control: :class:`ScaledNoise` hands the policy a generator whose ``laplace`` scale (``Audit.noise``:
``normal`` for Gaussian-mechanism algorithms) is multiplied by ``noise_factor``.
Halving the noise (factor 0.5) is *not* a violation for several algorithms on these tiny instances:
their accounting is loose there (e.g. the hybrid counter's first release is only epsilon/2-DP,
DP-UCB-INT's first interval release ~0.22-DP at epsilon = 1), so a sound audit must pass it. The power
rows of :func:`audit_all` measure which factors the audit does flag.
``CONTROL_NOISE_FACTOR = 0.02`` makes the first data-dependent release almost deterministic in the
flipped reward, so the true loss is several times epsilon = 1. Power at the default ``trials`` and
epsilon = 1 (seeds 100-119): the control's lower bound was >= 4.0 in 80/80 audits of dp_ucb_bound,
dp_ucb_tossou, dp_ucb_int and private_ucb (real algorithms, seeds 100-109: <= 0.21).

>>> r = audit_algorithm("dp_ucb_bound", epsilon=1.0, trials=500, seed=1)
>>> r.verdict
'consistent'
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import math
import sys
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd
from scipy.stats import beta as beta_dist

from . import registry
from .audit_report import to_markdown
from .audit_tables import DEFAULT_HORIZON, generic_candidates

DEFAULT_TRIALS = 4000
DEFAULT_ALPHA = 0.05
DEFAULT_EVENTS = 4
MIN_COUNT = 30  # outputs seen fewer times (x and x' together) do not enter loss_upper
CONTROL_NOISE_FACTOR = 0.02
NO_RELEASE = (
    "every run gave the same output on every table over the audit horizon of {} steps: the plan ends "
    "before the algorithm releases anything, so no loss can be seen; give Audit(plan=...) a horizon "
    "that reaches its first noisy release"
)
POWER_FACTORS = (0.1, 0.25, 0.5)  # tried after the control while flagged: the audit's power
BAI_ARMS = ((1.0, 0.0), (0.0, 1.0), (0.6, 0.5))  # unique Max-Det set {a_1, a_2}: a tiny DP-BAI audit instance
BAI_BUDGET = 12


# ---------------------------------------------------------------------------------------------
# Runners


class ScaledNoise:
    """Proxy of a ``numpy.random.Generator`` whose noise scales are multiplied by ``factor``.

    ``methods`` (default ``("laplace",)``) take ``(loc, scale, size)``; their scale is multiplied.
    Every other attribute is the wrapped generator's. Used to build under-noised controls.
    """

    def __init__(self, rng: np.random.Generator, factor: float, methods=("laplace",)):
        if not factor > 0:
            raise ValueError(f"noise_factor must be > 0, got {factor}")
        self._rng = rng
        for name in methods:
            setattr(self, name, self._scaled(getattr(rng, name), float(factor)))

    @staticmethod
    def _scaled(method, factor):
        def scaled(loc=0.0, scale=1.0, size=None):
            return method(loc, np.multiply(scale, factor), size)

        return scaled

    def __getattr__(self, name):
        return getattr(self._rng, name)


def _check_table(table) -> np.ndarray:
    table = np.asarray(table, dtype=float)
    if table.ndim != 2 or table.shape[0] < 2 or table.shape[1] < 1:
        raise ValueError(f"table must be a (K >= 2, T >= 1) array, got shape {table.shape}")
    if not np.all((table >= 0) & (table <= 1)):
        raise ValueError("table entries must lie in [0, 1]")
    return table


def _policy_actions(twin: type, rows: list, k: int, horizon: int, epsilon, rng, params) -> tuple:
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
    twin = _twin(alg)
    table = _check_table(table)
    return _policy_actions(twin, table.tolist(), table.shape[0], table.shape[1], epsilon, rng, alg.resolve(params))


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
    replay = _replay(alg)
    table = _check_table(table)
    if not np.all((table == 0) | (table == 1)):
        raise ValueError("table entries must be 0 or 1 to replay the fast kernel")
    pad = np.zeros(table.size)  # a rerun on not yet settled rewards may draw more than the final run
    eta = np.concatenate([np.asarray(eta, dtype=float), pad])
    picks = np.concatenate([np.asarray(picks, dtype=np.int64), pad.astype(np.int64)])
    return _kernel_actions(replay, table, float(epsilon), eta, picks, alg.resolve(params))[0]


def _replay(alg: registry.Algorithm):
    replay = alg.replay_function() if alg.kind == "regret" else None
    if replay is None:
        raise ValueError(
            f"algorithm={alg.name!r} declares no replay (Algorithm.replay): its fast kernel cannot be audited"
        )
    return replay


def _kernel_actions(replay, table, epsilon, eta, picks, params, start=None) -> tuple:
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


def _bai_module():
    """``dpbandits.bai`` if it exists and exposes ``run_on_table``, else None."""
    if importlib.util.find_spec("dpbandits.bai") is None:
        return None
    mod = importlib.import_module("dpbandits.bai")
    return mod if hasattr(mod, "run_on_table") else None


def _hashable(out):
    if isinstance(out, np.ndarray):
        return _hashable(out.tolist())
    if isinstance(out, (list, tuple)):
        return tuple(_hashable(v) for v in out)
    if isinstance(out, np.generic):
        return out.item()
    if hasattr(out, "__dataclass_fields__"):
        return tuple(_hashable(v) for v in asdict(out).values())
    return out


def _lookup(name: str) -> registry.Algorithm:
    _bai_module()  # registers the BAI algorithms if the subpackage exists
    return registry.get(name)


def _twin(alg: registry.Algorithm) -> type:
    """The reference twin the audit runs; ``ValueError`` naming the algorithm if it has none."""
    twin = alg.reference_class()
    if twin is None:
        raise ValueError(f"algorithm={alg.name!r} has no reference twin (Algorithm.reference) to audit")
    return twin


def default_algorithms() -> list[str]:
    """Every private algorithm of ``ALGORITHMS``, in registry order (each must be auditable)."""
    _bai_module()
    return [n for n, a in registry.ALGORITHMS.items() if a.private]


# ---------------------------------------------------------------------------------------------
# Statistics


def clopper_pearson(k, n: int, level: float) -> tuple[np.ndarray, np.ndarray]:
    """One-sided Clopper-Pearson bounds (lower, upper) for k successes out of n, each at ``level``.

    P(p < lower) <= level and P(p > upper) <= level; arrays broadcast over ``k``.
    """
    k = np.asarray(k, dtype=float)
    with np.errstate(invalid="ignore"):
        lo = np.where(k > 0, beta_dist.ppf(level, np.maximum(k, 1), n - k + 1), 0.0)
        hi = np.where(k < n, beta_dist.ppf(1 - level, k + 1, np.maximum(n - k, 1)), 1.0)
    return lo, hi


def log_ratio_lower(k1, n1: int, k2, n2: int, level: float, delta: float = 0.0) -> np.ndarray:
    """Lower confidence bound of log((p1 - delta) / p2) from counts; -inf where p1's bound <= delta."""
    lo, _ = clopper_pearson(k1, n1, level)
    _, hi = clopper_pearson(k2, n2, level)
    with np.errstate(divide="ignore"):
        return np.log(np.maximum(lo - delta, 0.0)) - np.log(hi)


def _smoothed_log_ratio(k1, n1, k2, n2):
    return np.log((np.asarray(k1) + 0.5) / (n1 + 1)) - np.log((np.asarray(k2) + 0.5) / (n2 + 1))


# ---------------------------------------------------------------------------------------------
# Exact loss of linear continual counters


class _ScriptedLaplace:
    """Generator stand-in: ``laplace`` returns loc + a scripted value (default 0), recording scales."""

    def __init__(self, values: dict):
        self.values, self.scales = values, []

    def laplace(self, loc=0.0, scale=1.0, size=None):
        if size not in (None, ()):
            raise ValueError("scripted Laplace draws are scalar")
        self.scales.append(float(scale))
        return loc + self.values.get(len(self.scales) - 1, 0.0)


def counter_loss(make_counter, n: int, atol: float = 1e-9) -> np.ndarray:
    """Exact worst-case privacy loss of a Laplace continual counter, per input item.

    The counter's releases must be linear in (data, Laplace draws): y = A x + B eta, with a noise
    process (number and scales b_i of the draws) that does not depend on the data. Changing item j by
    1 is absorbed by the noise shift z = B^+ A e_j (exactly, else the supports differ and the loss is
    infinite), so the supremum over outputs of the log density ratio is sum_i |z_i| / b_i.

    Parameters
    ----------
    make_counter : callable(rng) -> object with ``insert(x) -> release`` (one release per insertion)
    n : int                stream length
    atol : float           tolerance of the linearity and exactness checks

    Returns
    -------
    float64[n]: loss of the whole release sequence when item j (0-based) changes by 1.
    """

    def releases(x, noise):
        rng = _ScriptedLaplace(noise)
        counter = make_counter(rng)
        return np.array([counter.insert(float(v)) for v in x]), rng.scales

    y0, scales = releases(np.zeros(n), {})
    m = len(scales)
    a = np.empty((n, n))
    for j in range(n):
        y, sc = releases(np.eye(n)[j], {})
        if sc != scales:
            raise ValueError("the counter's noise process depends on the data")
        a[:, j] = y - y0
    b = np.empty((n, m))
    for i in range(m):
        b[:, i] = releases(np.zeros(n), {i: 1.0})[0] - y0
    rng = np.random.default_rng(0)
    x, eta = rng.random(n), rng.laplace(size=m)
    if not np.allclose(releases(x, dict(enumerate(eta)))[0], y0 + a @ x + b @ eta, atol=atol):
        raise ValueError("the counter's releases are not linear in (data, noise)")
    if np.linalg.matrix_rank(b) < m:
        raise ValueError("the releases do not determine the noise draws")
    z = np.linalg.lstsq(b, a, rcond=None)[0]  # shift of each draw absorbing each item
    exact = np.all(np.abs(b @ z - a) <= atol, axis=0)
    return np.where(exact, (np.abs(z) / np.asarray(scales)[:, None]).sum(axis=0), np.inf)


# ---------------------------------------------------------------------------------------------
# Audit


@dataclass
class AuditResult:
    """Outcome of one audit.

    ``loss_lower`` is the (1 - alpha) lower confidence bound on the privacy loss of the released output
    (simultaneous over the ``n_events`` measured events); ``loss_estimate`` the smoothed empirical log
    ratio of the event attaining it; ``loss_upper`` the largest smoothed empirical log ratio over the
    single outputs seen at least ``MIN_COUNT`` times in the measurement sample (an optimistic,
    upward-biased point estimate). ``table`` names the base table x, ``flip`` the entry (arm, pull
    index), 0-based, flipped in x'; ``events`` describes the event attaining ``loss_lower``; ``engine``
    what ran (``"twin"`` or ``"kernel"``, see :func:`audit_algorithm`).
    """

    algorithm: str
    engine: str
    epsilon: float
    delta: float
    noise_factor: float
    private: bool
    horizon: int
    trials: int
    selection_trials: int
    table: str
    flip: tuple
    events: str
    n_events: int
    loss_estimate: float
    loss_lower: float
    loss_upper: float
    alpha: float
    verdict: str
    params: dict = field(default_factory=dict)
    notes: str = ""

    @property
    def variant(self) -> str:
        """``"real"`` or ``"control xF"`` (under-noised by factor F)."""
        return "real" if self.noise_factor == 1.0 else f"control x{self.noise_factor:g}"


ENGINES = ("twin", "kernel")  # what the audit runs: the reference twin, or the fast kernel through replay


class _Sampler:
    """Runs one algorithm on tables; outputs are interned to integer ids for counting.

    ``engine``: ``"twin"`` runs the reference twin (BAI: ``run_on_table``) on a generator whose noise
    scales are multiplied by ``noise_factor``; ``"kernel"`` runs the fast kernel through its replay
    (:func:`kernel_actions`) on i.i.d. standard Laplace draws times ``noise_factor`` and uniform tie
    picks among K = 2 maximisers (exact for two arms).
    """

    def __init__(self, name, epsilon, params, noise_factor, noise, seed, horizon, arms, engine="twin"):
        self.name, self.epsilon, self.params = name, epsilon, params
        self.noise_factor, self.noise, self.seed = noise_factor, noise, seed
        self.horizon, self.arms, self.engine = horizon, arms, engine
        self.ids: dict = {}
        self.outputs: list = []
        alg = registry.get(name)
        self.bai = alg.kind == "bai"
        self.twin = None if self.bai else _twin(alg)
        self.replay = _replay(alg) if engine == "kernel" else None
        self._streams = 0

    def _one(self, rows, table, rng):
        if self.bai:
            return _hashable(_bai_module().run_on_table(self.name, self.arms, table, self.epsilon, rng, **self.params))
        return _policy_actions(self.twin, rows, len(rows), self.horizon, self.epsilon, rng, self.params)

    def _kernel_runs(self, table, trials, rng):
        k, horizon = table.shape
        if k != 2:
            raise ValueError(f"table has K={k} arms: the kernel audit draws tie picks for K = 2")
        eta = rng.laplace(0.0, 1.0, size=(trials, k * horizon)) * self.noise_factor
        picks = rng.integers(0, 2, size=(trials, horizon))
        u = None
        for i in range(trials):
            out, u = _kernel_actions(self.replay, table, self.epsilon, eta[i], picks[i], self.params, u)
            yield out

    def counts(self, table: np.ndarray, trials: int) -> np.ndarray:
        """int64[#outputs seen so far]: output counts of ``trials`` runs on ``table`` (fresh stream)."""
        self._streams += 1
        rng = np.random.Generator(np.random.PCG64(np.random.SeedSequence(self.seed, spawn_key=(self._streams,))))
        if self.engine == "kernel":
            runs = self._kernel_runs(table, trials, rng)
        else:
            use = rng if self.noise_factor == 1.0 else ScaledNoise(rng, self.noise_factor, self.noise)
            rows = table.tolist()
            runs = (self._one(rows, table, use) for _ in range(trials))
        codes = np.empty(trials, dtype=np.int64)
        for i, out in enumerate(runs):
            code = self.ids.get(out)
            if code is None:
                code = self.ids[out] = len(self.outputs)
                self.outputs.append(out)
            codes[i] = code
        return np.bincount(codes, minlength=len(self.outputs))


def _pad(a: np.ndarray, n: int) -> np.ndarray:
    return np.pad(a, (0, n - a.size))


def _prefix_events(c1, c2, n, level, delta):
    """Neyman-Pearson prefix events of direction 1-over-2: list of (projected lower bound, ids)."""
    order = np.argsort(-_smoothed_log_ratio(c1, n, c2, n), kind="stable")
    order = order[(c1[order] + c2[order]) > 0]
    lb = log_ratio_lower(np.cumsum(c1[order]), n, np.cumsum(c2[order]), n, level, delta)
    return [(float(lb[i]), order[: i + 1]) for i in range(order.size)]


def _fmt_output(out) -> str:
    if isinstance(out, tuple) and all(isinstance(v, int) and 0 <= v < 10 for v in out):
        s = "".join(map(str, out))
        return s if len(s) <= 12 else "…" + s[-12:]
    return repr(out)


def _describe(ids, forward: bool, outputs) -> str:
    head = "x>x'" if forward else "x'>x"
    shown = "|".join(_fmt_output(outputs[i]) for i in ids[:3])
    more = f"|+{len(ids) - 3}" if len(ids) > 3 else ""
    return f"{head}:{shown}{more}"


def audit_algorithm(
    name: str,
    epsilon: float = 1.0,
    trials: int = DEFAULT_TRIALS,
    seed: int = 0,
    noise_factor: float = 1.0,
    *,
    alpha: float = DEFAULT_ALPHA,
    events: int = DEFAULT_EVENTS,
    selection_trials: int | None = None,
    horizon: int | None = None,
    engine: str = "twin",
    **params,
) -> AuditResult:
    """Estimate the privacy loss of ``name``'s released output on neighbouring reward tables.

    Parameters
    ----------
    name : str              algorithm in ``dpbandits.ALGORITHMS`` (reference policy or BAI run_on_table)
    epsilon : float         claimed privacy parameter (> 0)
    trials : int            measurement runs per table (x and x')
    seed : int              root seed of the audit's generators
    noise_factor : float    multiplies the noise scales (Laplace; see ``Audit.noise``):
                            1 = the real algorithm, < 1 = under-noised control
    alpha : float           total error probability of the lower bound
    events : int            number of events measured (Bonferroni)
    selection_trials : int  runs per candidate table in the selection stage (default trials // 4)
    horizon : int           override of the audit horizon (per-step algorithms)
    engine : str            ``"twin"``: the reference twin (BAI: ``run_on_table``); ``"kernel"``: the fast
                            kernel through ``Algorithm.replay`` (regret algorithms declaring it)
    **params                algorithm parameters (override ``Audit.params`` hints)

    Returns
    -------
    AuditResult
    """
    alg = _lookup(name)
    if alg.kind == "bai" and _bai_module() is None:
        raise ValueError(f"algorithm={name!r}: dpbandits.bai has no run_on_table to audit it")
    if alg.kind == "regret":
        _twin(alg)
    if not (isinstance(epsilon, (int, float)) and epsilon > 0):
        raise ValueError(f"epsilon must be > 0, got {epsilon!r}")
    if int(trials) < 10:
        raise ValueError(f"trials must be >= 10, got {trials!r}")
    if not 0 < alpha < 1:
        raise ValueError(f"alpha must be in (0, 1), got {alpha!r}")
    if int(events) < 1:
        raise ValueError(f"events must be >= 1, got {events!r}")
    if not noise_factor > 0:
        raise ValueError(f"noise_factor must be > 0, got {noise_factor!r}")
    if engine not in ENGINES:
        raise ValueError(f"engine must be one of {ENGINES}, got {engine!r}")
    if engine == "kernel":
        _replay(alg)
        if alg.audit.noise != ("laplace",):
            raise ValueError(
                f"algorithm={name!r}: the kernel audit scales standard Laplace draws only, "
                f"its noise is {alg.audit.noise}"
            )
    trials = int(trials)
    n_sel = int(selection_trials) if selection_trials is not None else max(trials // 4, 10)
    setting = alg.audit
    notes = setting.notes()
    try:
        resolved = alg.resolve({**setting.params, **params})
    except ValueError as err:
        if params:
            raise
        resolved = alg.resolve({})
        notes = "; ".join(filter(None, [notes, f"audit hint {setting.params} rejected ({err}); defaults used"]))
    delta = float(resolved.get("delta", 0.0)) if alg.private else 0.0

    candidates = None
    if alg.kind == "bai":
        arms, k, width = np.asarray(BAI_ARMS), len(BAI_ARMS), BAI_BUDGET
    else:
        arms, k, width = None, 2, DEFAULT_HORIZON
        if setting.plan is not None:
            width, candidates = setting.plan(float(epsilon), resolved)
    if horizon is not None:  # per-step horizon or BAI budget
        width, candidates = int(horizon), None
    if candidates is None:
        candidates = generic_candidates(k, width)
    sampler = _Sampler(alg.name, float(epsilon), resolved, noise_factor, setting.noise, seed, width, arms, engine)

    # Stage 1: selection over candidate (table, flip) pairs and Neyman-Pearson events.
    level = alpha / (2 * events)
    cache: dict = {}
    best = None
    for label, base, (a, j) in candidates:
        flipped = base.copy()
        flipped[a, j] = 1.0 - flipped[a, j]
        for tb in (base, flipped):
            if tb.tobytes() not in cache:
                cache[tb.tobytes()] = sampler.counts(tb, n_sel)
        c = [cache[base.tobytes()], cache[flipped.tobytes()]]
        m = len(sampler.outputs)
        c1, c2 = _pad(c[0], m), _pad(c[1], m)
        scored = [(lb, ids, True) for lb, ids in _prefix_events(c1, c2, n_sel, level, delta)]
        scored += [(lb, ids, False) for lb, ids in _prefix_events(c2, c1, n_sel, level, delta)]
        scored.sort(key=lambda s: -s[0])
        top = scored[0][0] if scored else -math.inf
        if best is None or top > best[0]:
            best = (top, label, base, flipped, (a, j), scored[:events])
    _, label, base, flipped, flip, chosen = best

    # Stage 2: measurement on fresh samples.
    c1, c2 = sampler.counts(base, trials), sampler.counts(flipped, trials)
    m = len(sampler.outputs)
    c1, c2 = _pad(c1, m), _pad(c2, m)
    level = alpha / (2 * len(chosen))
    lbs, ests = [], []
    for _, ids, forward in chosen:
        k1, k2 = (c1[ids].sum(), c2[ids].sum()) if forward else (c2[ids].sum(), c1[ids].sum())
        lbs.append(float(log_ratio_lower(k1, trials, k2, trials, level, delta)))
        ests.append(float(_smoothed_log_ratio(k1, trials, k2, trials)))
    i = int(np.argmax(lbs))
    seen = (c1 + c2) >= MIN_COUNT
    upper = float(np.abs(_smoothed_log_ratio(c1[seen], trials, c2[seen], trials)).max(initial=0.0))
    lower = max(lbs[i], 0.0)
    if len(sampler.outputs) == 1:
        notes = "; ".join(filter(None, [notes, NO_RELEASE.format(width)]))
    if not alg.private:
        verdict = "not private"
    else:
        verdict = "violation" if lower > epsilon else "consistent"
    return AuditResult(
        algorithm=alg.name,
        engine=engine,
        epsilon=float(epsilon),
        delta=delta,
        noise_factor=float(noise_factor),
        private=alg.private,
        horizon=int(width),
        trials=trials,
        selection_trials=n_sel,
        table=f"{label} {k}x{width}",
        flip=flip,
        events=_describe(chosen[i][1], chosen[i][2], sampler.outputs),
        n_events=len(chosen),
        loss_estimate=ests[i],
        loss_lower=lower,
        loss_upper=upper,
        alpha=float(alpha),
        verdict=verdict,
        params=resolved,
        notes=notes,
    )


def audit_all(
    algorithms=None,
    epsilon: float = 1.0,
    trials: int = DEFAULT_TRIALS,
    seed: int = 0,
    controls: bool = True,
    control_factor: float = CONTROL_NOISE_FACTOR,
    alpha: float = DEFAULT_ALPHA,
    power_factors=POWER_FACTORS,
    kernels: bool = True,
) -> pd.DataFrame:
    """Audit ``algorithms`` (default :func:`default_algorithms`) with their under-noised controls and power.

    Per algorithm, at its ``Audit.epsilon`` where set (else ``epsilon``), on the same ``seed``:

    - ``real`` and ``control`` (noise times ``control_factor``) rows of the twin (engine ``twin``) and, with
      ``kernels``, of the fast kernel where it declares ``replay`` (engine ``kernel``);
    - ``power`` rows of the twin (private algorithms): ``power_factors`` (ascending, between
      ``control_factor`` and 1) in turn while the previous factor was flagged; the first factor not flagged
      ends the sequence (detection is taken to fall as the noise grows).

    Returns a DataFrame with one row per audit: the :class:`AuditResult` fields plus ``variant``, ``role``
    (real, control, power) and ``seconds`` (wall time of that audit).
    """
    factors = [float(f) for f in power_factors]
    if factors != sorted(factors) or any(not control_factor < f < 1 for f in factors):
        raise ValueError(
            f"power_factors must ascend strictly between control_factor={control_factor:g} and 1, "
            f"got {list(power_factors)}"
        )
    names = default_algorithms() if algorithms is None else list(algorithms)
    rows = []

    def run(name, eps, factor, role, engine):
        start = time.perf_counter()
        r = audit_algorithm(name, eps, trials, seed, factor, alpha=alpha, engine=engine)
        rows.append(
            {
                **asdict(r),
                "variant": r.variant,
                "role": role,
                "params": repr(r.params),
                "seconds": time.perf_counter() - start,
            }
        )
        return r.verdict == "violation"

    for name in names:
        alg = _lookup(name)
        eps = epsilon if alg.audit.epsilon is None else alg.audit.epsilon
        engines = ["twin", "kernel"] if kernels and alg.replay is not None else ["twin"]
        for engine in engines:
            run(name, eps, 1.0, "real", engine)
            flagged = controls and alg.private and run(name, eps, control_factor, "control", engine)
            for factor in factors if engine == "twin" else []:
                if not flagged:
                    break
                flagged = run(name, eps, factor, "power", engine)
    return pd.DataFrame(rows)


def failed_checks(df: pd.DataFrame) -> list[str]:
    """What an audit table gets wrong: a real row flagged, or a control not flagged whose plan expects it."""
    bad = [
        f"{r.algorithm} ({r.engine}): real audit flagged, loss >= {r.loss_lower:.3g} > epsilon {r.epsilon:g}"
        for r in df[(df["role"] == "real") & (df["verdict"] == "violation")].itertuples()
    ]
    for r in df[(df["role"] == "control") & (df["verdict"] != "violation")].itertuples():
        if not _lookup(r.algorithm).audit.control:  # a plan that states why its control cannot be flagged
            bad.append(f"{r.algorithm} ({r.engine}): control with noise x{r.noise_factor:g} not flagged")
    return bad


def main(argv=None, prog: str = "dpbandits audit") -> int:
    """CLI: ``dpbandits audit --out DIR [--trials N] [--algorithms a b ...] [--check]``."""
    p = argparse.ArgumentParser(prog=prog, description=__doc__.split("\n")[0])
    p.add_argument("--out", required=True, type=Path, help="output folder for audit.csv and audit.md")
    p.add_argument("--trials", type=int, default=DEFAULT_TRIALS, help="measurement runs per table")
    p.add_argument("--algorithms", nargs="+", default=None, help="default: every private one")
    p.add_argument("--epsilon", type=float, default=1.0)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--alpha", type=float, default=DEFAULT_ALPHA)
    p.add_argument("--control-factor", type=float, default=CONTROL_NOISE_FACTOR)
    p.add_argument(
        "--power-factors",
        type=float,
        nargs="*",
        default=list(POWER_FACTORS),
        help="under-noising factors tried after the control while flagged (none: no power rows)",
    )
    p.add_argument("--no-controls", action="store_true")
    p.add_argument("--no-kernels", action="store_true", help="audit the twins only")
    p.add_argument(
        "--check",
        action="store_true",
        help="exit 1 if a real audit is flagged or a control that should be flagged is not",
    )
    args = p.parse_args(argv)
    df = audit_all(
        args.algorithms,
        args.epsilon,
        args.trials,
        args.seed,
        not args.no_controls,
        args.control_factor,
        args.alpha,
        args.power_factors,
        not args.no_kernels,
    )
    args.out.mkdir(parents=True, exist_ok=True)
    df.to_csv(args.out / "audit.csv", index=False)
    text = to_markdown(df, seed=args.seed, control_factor=args.control_factor, power_factors=args.power_factors)
    (args.out / "audit.md").write_text(text)
    print(text)
    bad = failed_checks(df) if args.check else []
    for line in bad:
        print(f"{prog}: check failed: {line}", file=sys.stderr)
    return 1 if bad else 0


if __name__ == "__main__":  # the same as `dpbandits audit`
    from .cli import main as cli

    sys.exit(cli(["audit", *sys.argv[1:]]))
