"""Monte-Carlo lower bound on the privacy loss of one algorithm's released output (:func:`audit_algorithm`).

Model (reward stack, the papers' neighbouring relation): the input is a table ``x[a, j]``, the reward
of the j-th pull of arm a; two tables are neighbours if they differ in one entry. The released output
is the action sequence (A_1, ..., A_T) of a reference policy (or whatever ``dpbandits.bai.run_on_table``
returns for a BAI algorithm); the probability is over the policy's own randomness only. With
``engine="kernel"`` the fast kernel runs instead of the twin, through its replay
(:func:`dpbandits.audit.runners.kernel_actions`) on Laplace draws of the package's own sampler. With
``engine="fast"`` the pair is mixed: the fast kernel's own ``run`` on a table x whose arms each give a
constant 0 or 1 (Bernoulli means 0 and 1, so every draw goes through the kernel's samplers), against the
twin on x' (x with one reward flipped); the output is the pulls per arm at the audit horizon. A kernel equal
in law to its twin keeps this pair's loss within the twin's epsilon; a kernel whose noise differs from the
twin's (a mis-scaled shared sampler) can exceed it.

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

Each algorithm's ``Algorithm.audit`` (:class:`dpbandits.core.registry.Audit`) holds its plan: horizon and
tables, parameter hints, the epsilon it is audited at, and, where the under-noised control cannot be
flagged, the reason.

>>> r = audit_algorithm("dp_ucb_bound", epsilon=1.0, trials=500, seed=1)
>>> r.verdict
'consistent'
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from ..core import registry
from ..core.audit_tables import DEFAULT_HORIZON, generic_candidates
from ..mechanisms.noise import ScaledNoise
from .runners import (
    bai_module,
    constant_candidates,
    constant_means,
    hashable,
    kernel_laplace,
    kernel_replay,
    lookup,
    policy_actions,
    replay_actions,
    run_pulls,
    twin_class,
)
from .stats import log_ratio_lower, smoothed_log_ratio

DEFAULT_TRIALS = 4000
DEFAULT_ALPHA = 0.05
DEFAULT_EVENTS = 4
MIN_COUNT = 30  # outputs seen fewer times (x and x' together) do not enter loss_upper
NO_RELEASE = (
    "every run gave the same output on every table over the audit horizon of {} steps: the plan ends "
    "before the algorithm releases anything, so no loss can be seen; give Audit(plan=...) a horizon "
    "that reaches its first noisy release"
)
BAI_ARMS = ((1.0, 0.0), (0.0, 1.0), (0.6, 0.5))  # unique Max-Det set {a_1, a_2}: a tiny DP-BAI audit instance
BAI_BUDGET = 12


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


ENGINES = ("twin", "kernel", "fast")  # the reference twin; the fast kernel through replay; kernel run vs twin


class _Sampler:
    """Runs one algorithm on tables; outputs are interned to integer ids for counting.

    ``engine``: ``"twin"`` runs the reference twin (BAI: ``run_on_table``) on a generator whose noise
    scales are multiplied by ``noise_factor``; ``"kernel"`` runs the fast kernel through its replay
    (:func:`kernel_actions`) on Laplace(``noise_factor``) draws of the package's sampler
    (:func:`kernel_laplace`) and uniform tie picks among K = 2 maximisers (exact for two arms); ``"fast"``
    runs the kernel's ``run`` on tables of constant rows and the twin on the others, both giving pulls.
    """

    def __init__(self, name, epsilon, params, noise_factor, noise, seed, horizon, arms, engine="twin"):
        self.name, self.epsilon, self.params = name, epsilon, params
        self.noise_factor, self.noise, self.seed = noise_factor, noise, seed
        self.horizon, self.arms, self.engine = horizon, arms, engine
        self.ids: dict = {}
        self.outputs: list = []
        alg = registry.get(name)
        self.bai = alg.kind == "bai"
        self.twin = None if self.bai else twin_class(alg)
        self.replay = kernel_replay(alg) if engine == "kernel" else None
        self._streams = 0

    def _one(self, rows, table, rng):
        if self.bai:
            return hashable(bai_module().run_on_table(self.name, self.arms, table, self.epsilon, rng, **self.params))
        actions = policy_actions(self.twin, rows, len(rows), self.horizon, self.epsilon, rng, self.params)
        if self.engine == "fast":
            return tuple(np.bincount(actions, minlength=len(rows)).tolist())
        return actions

    def _kernel_runs(self, table, trials, rng):
        k, horizon = table.shape
        if k != 2:
            raise ValueError(f"table has K={k} arms: the kernel audit draws tie picks for K = 2")
        eta = kernel_laplace(rng, trials * k * horizon, self.noise_factor).reshape(trials, k * horizon)
        picks = rng.integers(0, 2, size=(trials, horizon))
        u = None
        for i in range(trials):
            out, u = replay_actions(self.replay, table, self.epsilon, eta[i], picks[i], self.params, u)
            yield out

    def counts(self, table: np.ndarray, trials: int) -> np.ndarray:
        """int64[#outputs seen so far]: output counts of ``trials`` runs on ``table`` (fresh stream)."""
        self._streams += 1
        rng = np.random.Generator(np.random.PCG64(np.random.SeedSequence(self.seed, spawn_key=(self._streams,))))
        means = constant_means(table) if self.engine == "fast" else None
        if self.engine == "kernel":
            runs = self._kernel_runs(table, trials, rng)
        elif means is not None:
            alg = registry.get(self.name)
            runs = (run_pulls(alg, means, self.horizon, self.epsilon, rng, self.params) for _ in range(trials))
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
    order = np.argsort(-smoothed_log_ratio(c1, n, c2, n), kind="stable")
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
                            kernel through ``Algorithm.replay`` (regret algorithms declaring it);
                            ``"fast"``: the kernel's ``run`` on constant-row tables against the twin
                            (regret algorithms; ``noise_factor`` 1 only)
    **params                algorithm parameters (override ``Audit.params`` hints)

    Returns
    -------
    AuditResult
    """
    alg = lookup(name)
    if alg.kind == "bai" and bai_module() is None:
        raise ValueError(f"algorithm={name!r}: dpbandits.bai has no run_on_table to audit it")
    if alg.kind == "regret":
        twin_class(alg)
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
    if engine == "fast" and (alg.kind != "regret" or noise_factor != 1.0):
        raise ValueError(
            f"engine='fast' runs a regret algorithm's own run, whose noise cannot be scaled: "
            f"got algorithm={name!r}, noise_factor={noise_factor!r}"
        )
    if engine == "kernel":
        kernel_replay(alg)
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
    if engine == "fast":  # the kernel side needs constant rows: the plan's flips on constant tables
        candidates = constant_candidates(k, width, [flip for _, _, flip in candidates or []])
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
        ests.append(float(smoothed_log_ratio(k1, trials, k2, trials)))
    i = int(np.argmax(lbs))
    seen = (c1 + c2) >= MIN_COUNT
    upper = float(np.abs(smoothed_log_ratio(c1[seen], trials, c2[seen], trials)).max(initial=0.0))
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
