"""The privacy a run actually spends: its releases, recorded by the fast kernel, composed per reward entry.

>>> import dpbandits.privacy as privacy
>>> s = privacy.spent("dp_se", epsilon=0.5, horizon=20_000, means=[0.9, 0.6])
>>> s.exceeds, round(s.epsilon, 9)
(False, 0.5)

:func:`spent` runs an algorithm's ``releases`` entry point (:class:`dpbandits.core.registry.Algorithm`) with a
release book (:mod:`dpbandits.mechanisms.ledger`), checks the book (:func:`.account.problems`), and composes,
for every entry of the reward table, the releases that read it (:mod:`.account`). A long run is accounted window
by window over the entries: the same run (same seed) is replayed with each window, and recording changes none of
its draws. ``dpbandits privacy`` is the command line.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ..core import registry
from ..core.validation import check_epsilon, check_horizon, check_means
from ..mechanisms import ledger
from . import account

CAPACITY = 1 << 22  # rows of a book (320 MiB); a window of entries that needs more is split
TOLERANCE = 1e-9  # relative: a spent epsilon above promise * (1 + TOLERANCE) exceeds it (sums of epsilon / m)
CONTRACT_RUNS = 20  # runs of the contract's setting that spent() accounts by default


@dataclass
class Spent:
    """What one algorithm spent over ``runs`` runs at one setting (the worst run, the worst entry).

    ``epsilon``: the spent epsilon: pure (basic composition) for a "pure" or "local" promise, else the PLD's epsilon
    at the promised delta; ``pure``: the pure epsilon whatever the model (inf if a Gaussian release read the entry);
    ``delta``: 0 for pure promises, else the promised delta at which ``epsilon`` is read; ``worst``: (run, arm,
    position) of the worst entry; ``releases``: rows recorded over all runs; ``problems``: what makes the book not a
    ledger of real releases (then the run exceeds whatever it sums to).
    """

    algorithm: str
    model: str
    promise: tuple[float, float]
    epsilon: float
    pure: float
    delta: float
    worst: tuple[int, int, int]
    releases: int
    runs: int
    setting: dict
    problems: list[str] = field(default_factory=list)

    @property
    def exceeds(self) -> bool:
        """True if the run spends more than promised (or its book is not a ledger of real releases)."""
        return bool(self.problems) or self.epsilon > self.promise[0] * (1.0 + TOLERANCE)

    @property
    def ratio(self) -> float:
        """Spent epsilon / promised epsilon."""
        return self.epsilon / self.promise[0]

    def text(self) -> str:
        """One line: spent against promised, and whether it exceeds."""
        eps, delta = self.promise
        promised = f"eps={eps:g}" + (f", delta={delta:.3g}" if self.model == "approx" else "")
        spent = f"eps={self.epsilon:.6g}" + (
            f" at delta={self.delta:.3g} (pure sum {self.pure:.4g})" if self.delta else ""
        )
        run, arm, pos = self.worst
        verdict = "within"
        if self.exceeds:
            verdict = "EXCEEDS" if not self.problems else "[not a ledger of real releases: counts as] EXCEEDS"
        return (
            f"{self.algorithm} ({registry.PRIVACY_MODELS[self.model]}): spent {spent} {verdict} the promised "
            f"{promised} [{self.releases} releases over {self.runs} runs; worst entry: run {run}, arm {arm}, "
            f"reward {pos}]" + "".join(f"\n  problem: {p}" for p in self.problems[:5])
        )


def contract_setting(name: str) -> tuple[list[float], int, float, dict]:
    """(means, horizon, epsilon, params) where the contract checks ``name``: its Bernoulli setting and parameters
    (regret), or a small instance for BAI algorithms."""
    alg = registry.get(name)
    if alg.kind == "bai":
        return [0.9, 0.7, 0.6, 0.5], 4000, 0.5, {}
    s = alg.contract.bernoulli
    return list(s.means), s.horizon, s.epsilon, dict(alg.contract.params)


def record(name: str, means, horizon: int, epsilon: float, params: dict, seed, lo: int = 1, hi: int | None = None):
    """(rows, pulls) of one run (generator ``np.random.default_rng(seed)``) whose releases read entries lo..hi."""
    alg = registry.get(name)
    fn = alg.releases_function()
    if fn is None:
        raise ValueError(
            f"algorithm {name!r} has no release ledger: give its Algorithm releases=..., one run that records every "
            "release in a book (dpbandits.mechanisms.ledger.note; see dpbandits.core.registry.Algorithm)"
        )
    book = ledger.new_book(CAPACITY, lo, horizon if hi is None else hi)
    pulls = fn(np.asarray(means, dtype=float), int(horizon), float(epsilon), params, np.random.default_rng(seed), book)
    return ledger.rows(book), np.asarray(pulls, dtype=np.int64)


def spent(
    algorithm: str,
    epsilon: float | None = None,
    horizon: int | None = None,
    means=None,
    params: dict | None = None,
    runs: int = CONTRACT_RUNS,
    seed: int = 0,
) -> Spent:
    """The privacy ``algorithm`` spends at (means, horizon, epsilon) with ``params``, the worst over ``runs`` runs
    (seeds ``[seed, run]``). Left out, means, horizon and epsilon are the contract's setting, whose parameters
    (e.g. a ``beta``) then underlie ``params``. ``ValueError`` naming the argument for bad input or an algorithm
    without a ledger."""
    alg = registry.get(algorithm)
    if not alg.private:
        raise ValueError(f"algorithm={algorithm!r} is not private: it promises no privacy to account")
    c_means, c_horizon, c_eps, c_params = contract_setting(algorithm)
    if means is None and horizon is None:
        params = {**c_params, **(params or {})}
    means = check_means(c_means if means is None else means).tolist()
    epsilon = check_epsilon(c_eps if epsilon is None else epsilon)
    horizon = check_horizon(c_horizon if horizon is None else horizon, len(means))
    resolved = alg.resolve(params or {})
    delta = float(resolved["delta"]) if alg.privacy == "approx" else 0.0
    worst_eps, worst_pure, worst, releases, found = -1.0, 0.0, (0, 0, 0), 0, []
    for run in range(runs):
        eps, pure, where, n, issues = _one_run(algorithm, means, horizon, epsilon, resolved, [seed, run], delta)
        releases += n
        found += [f"run {run}: {p}" for p in issues]
        if eps > worst_eps:
            worst_eps, worst_pure, worst = eps, pure, (run, *where)
    setting = {"means": means, "horizon": horizon, "epsilon": epsilon, "params": resolved}
    return Spent(
        algorithm, alg.privacy, (epsilon, delta), worst_eps, worst_pure, delta, worst, releases, runs, setting, found
    )


def _one_run(name, means, horizon, epsilon, params, seed, delta):
    """(epsilon, pure epsilon, (arm, position) of the worst entry, rows, problems) of one run, window by window."""
    lo, width = 1, horizon
    best_eps, best_pure, where, count, issues = 0.0, 0.0, (0, 0), 0, []
    pulls0 = None
    while lo <= horizon:
        hi = min(horizon, lo + width - 1)
        try:
            rows, pulls = record(name, means, horizon, epsilon, params, seed, lo, hi)
        except OverflowError:
            if width == 1:
                raise
            width = max(1, width // 4)
            continue
        if pulls0 is not None and not np.array_equal(pulls, pulls0):
            raise RuntimeError(f"{name}: a replayed run pulled {pulls.tolist()}, not {pulls0.tolist()}")
        pulls0 = pulls
        count += len(rows)
        issues += account.problems(rows, pulls, local=registry.get(name).privacy == "local")
        win = account.window_sums(rows, pulls, lo, hi)
        for a, (starts, pure) in enumerate(zip(win.starts, win.pure, strict=True)):
            if pure.size and pure.max() > best_pure:
                best_pure = float(pure.max())
                if not delta:
                    best_eps, where = best_pure, (a, int(starts[int(np.argmax(pure))]))
        if delta:
            for a, j in account.candidates(win):
                eps = account.pld_epsilon(*account.events(rows, a, j), delta)
                if eps > best_eps:
                    best_eps, where = eps, (a, j)
        lo = hi + 1
    return best_eps, best_pure, where, count, issues


TABLE_COLUMNS = ["reading", "algorithm", "label", "horizon", "epsilon", "delta", "spent", "pure", "ratio", "exceeds"]


def table(settings: list[dict], runs: int = 1, seed: int = 0):
    """pandas.DataFrame (:data:`TABLE_COLUMNS`) of :func:`spent` at each setting ({reading, algorithm, params,
    means, horizon, epsilon}, as :func:`dpbandits.pipeline.privacy_plan.settings` gives them), ``runs`` runs each."""
    import pandas as pd

    rows = []
    for s in settings:
        out = spent(s["algorithm"], s["epsilon"], s["horizon"], s["means"], s["params"], runs=runs, seed=seed)
        label = registry.get(s["algorithm"]).label
        rows.append([s["reading"], s["algorithm"], label, s["horizon"], s["epsilon"], out.delta, out.epsilon])
        rows[-1] += [out.pure, out.ratio, "yes" if out.exceeds else ""]
    return pd.DataFrame(rows, columns=TABLE_COLUMNS)
