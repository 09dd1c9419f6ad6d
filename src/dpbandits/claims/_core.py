"""The papers' empirical claims as functions of the simulated data (one module per paper).

Each claim function takes the tidy tables written by the figure rules (``<figure>.csv`` curves,
``<figure>_runs.csv`` per-run finals) and returns a :class:`Claim` with a verdict computed from the
data: ``holds``, ``fails`` or ``inconclusive``, the numbers behind it and the paper's statement.

Every comparison is an estimate with a standard error and degrees of freedom (``(value, se, df)``):
a difference counts when it exceeds :func:`halfwidth`, the Student-t quantile for its degrees of
freedom times its standard error, at the one-sided tail :data:`TAIL` (that of 2 standard errors of a
normal, so many runs give the familiar 2 s.e.; 4 runs give 3.3 s.e.). Standard errors come from the
tables (``sem`` of a curve with its ``runs``, the spread of per-run values, binomial s.e. of a success
rate over its trials); sums and ratios of independent estimates take Welch-Satterthwaite degrees of
freedom (:func:`satterthwaite`). Fewer runs widen the intervals and give more ``inconclusive``
verdicts under the same criterion.

A claim over many comparisons (checkpoints, panels, settings) is one family (:class:`Family`), decided so that
``holds`` and ``fails`` are equally hard to reach: each comparison gives a one-sided Student-t p-value for each
direction (:func:`pvalue`). ``holds`` needs every comparison in the claimed direction at :data:`TAIL` (an
intersection-union test, no correction needed); ``fails`` needs some comparison in the wrong direction under
Holm's step-down at :data:`TAIL` (:func:`holm`), so that a false ``fails`` out of many comparisons keeps the
tail of one; anything else is ``inconclusive``. A claim about "some" comparison is the mirror image. A range
(best minus worst of m runs) is bracketed from the per-run values by order statistics (:func:`spread_tests`).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd
from scipy import stats

HOLDS, FAILS, INCONCLUSIVE = "holds", "fails", "inconclusive"
# what a ledger row is: a sentence of a paper tested on outcomes (a paper claim), an identity the construction
# implies, a check the project adds, or the check of a paper's explicit regret bound
EMPIRICAL, STRUCTURAL, CHECK, THEORY = "empirical", "structural", "check", "theory"
KINDS = {EMPIRICAL: "paper claim", STRUCTURAL: "structural", CHECK: "project check", THEORY: "theory check"}
# one-sided tail of every comparison: that of 2 s.e. under a normal (0.0228), so that the Student-t critical
# value tends to 2 as the runs grow (3.31 at 4 runs, 2.09 at 30)
TAIL = float(stats.norm.sf(2.0))


@dataclass
class Claim:
    """One claim's verdict.

    ``kind`` is ``"empirical"`` when the verdict tests a sentence of the paper on simulated outcomes
    that the algorithms' construction does not fix, ``"structural"`` when the paper's construction
    implies it (a guarantee or an identity of the algorithm): the data can then only confirm it unless
    the implementation departs from the paper, so the check guards the replication rather than tests
    the paper; ``"check"`` when the row is a replication check the project adds, not a sentence of
    the paper (a sanity anchor, a property implicit in a figure, a claim re-read on an extra figure);
    ``"theory"`` for the check of a paper's explicit regret bound. :data:`KINDS` names each for readers.
    """

    paper: str
    claim_id: str
    statement: str
    criterion: str
    verdict: str
    evidence: str
    numbers: dict = field(default_factory=dict)
    kind: str = EMPIRICAL

    def row(self) -> dict:
        d = asdict(self)
        d["numbers"] = "; ".join(f"{k}={_fmt(v)}" for k, v in self.numbers.items())
        return d


def _fmt(v) -> str:
    return f"{v:.4g}" if isinstance(v, (float, np.floating)) else str(v)


def load_tables(results: str | Path, paper: str, figures) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Concatenated curve and per-run tables of ``figures`` of ``paper``."""
    base = Path(results) / "figures" / paper
    curves = pd.concat([pd.read_csv(base / f"{f}.csv", dtype={"variant": str}) for f in figures], ignore_index=True)
    runs = pd.concat([pd.read_csv(base / f"{f}_runs.csv", dtype={"variant": str}) for f in figures], ignore_index=True)
    return curves, runs


def main_curves(curves: pd.DataFrame) -> pd.DataFrame:
    """Rows of the primary variants (ablation overlays removed)."""
    return curves[curves["variant"].fillna("") == ""]


def at(curves: pd.DataFrame, figure: str, algorithm: str, t_min: float = 0) -> pd.DataFrame:
    """Primary curve of ``algorithm`` in ``figure`` restricted to t >= t_min, indexed by t."""
    df = main_curves(curves)
    df = df[(df["figure"] == figure) & (df["algorithm"] == algorithm) & (df["t"] >= t_min)]
    return df.set_index("t")


def critical(df) -> np.ndarray:
    """Student-t critical value at the one-sided tail :data:`TAIL` for ``df`` degrees of freedom (nan below 1)."""
    return stats.t.isf(TAIL, np.asarray(df, dtype=float))


def halfwidth(se, df) -> np.ndarray:
    """``critical(df) * se``: how far an estimate must lie from a value to count as beyond it (0 where se = 0)."""
    se = np.asarray(se, dtype=float)
    with np.errstate(invalid="ignore"):
        return np.where(se == 0, 0.0, critical(df) * se)


def satterthwaite(ses, dfs) -> np.ndarray:
    """Welch-Satterthwaite degrees of freedom of a sum of independent estimates (standard errors ``ses[i]``
    with ``dfs[i]`` degrees of freedom each; arrays broadcast); inf where every s.e. is 0."""
    v = [np.asarray(s, dtype=float) ** 2 for s in ses]
    num = sum(v) ** 2
    den = sum(x**2 / np.asarray(d, dtype=float) for x, d in zip(v, dfs, strict=True))
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(num == 0, np.inf, num / den)


def compare(a: pd.DataFrame, b: pd.DataFrame) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(mean_a - mean_b, combined standard error, Welch degrees of freedom) on the common checkpoints.

    ``a`` and ``b``: curves indexed by t with ``mean``, ``sem`` and ``runs`` columns.
    """
    t = a.index.intersection(b.index)
    diff = a.loc[t, "mean"].to_numpy() - b.loc[t, "mean"].to_numpy()
    sa, sb = a.loc[t, "sem"].to_numpy(), b.loc[t, "sem"].to_numpy()
    return (
        diff,
        np.hypot(sa, sb),
        satterthwaite([sa, sb], [a.loc[t, "runs"].to_numpy() - 1, b.loc[t, "runs"].to_numpy() - 1]),
    )


@dataclass(frozen=True)
class Family:
    """One-sided p-values of a family of comparisons (1-d float arrays, any lengths).

    ``hold[i]`` is small where component i of the claim is shown true, ``fail[j]`` where some part of the
    claim is shown false. Families pool with ``+``; :meth:`verdict` decides.
    """

    hold: np.ndarray
    fail: np.ndarray

    def __add__(self, other: Family) -> Family:
        return Family(np.concatenate([self.hold, other.hold]), np.concatenate([self.fail, other.fail]))

    def swapped(self) -> Family:
        """The family of the opposite claim."""
        return Family(self.fail, self.hold)

    def verdict(self, every: bool = True, alpha: float = TAIL) -> str:
        """Verdict of "every component holds" (``every``) or "some component holds" (not ``every``).

        For "every": ``fails`` if Holm's step-down (:func:`holm`) rejects some ``fail`` p-value at ``alpha``,
        else ``holds`` if every ``hold`` p-value is at most ``alpha`` (an intersection-union test: the claim
        holds only if each component does, so each tested at ``alpha`` keeps the family's error at ``alpha``
        with no correction), else ``inconclusive``. "Some" is the mirror image: Holm on ``hold``, every
        ``fail`` at ``alpha``. No p-values at all: ``inconclusive``.
        """
        if not every:
            v = self.swapped().verdict(True, alpha)
            return {HOLDS: FAILS, FAILS: HOLDS}.get(v, v)
        if self.fail.size and holm(self.fail, alpha).any():
            return FAILS
        return HOLDS if self.hold.size and bool(np.all(self.hold <= alpha)) else INCONCLUSIVE


def holm(pvalues, alpha: float = TAIL) -> np.ndarray:
    """Holm's step-down rejections (bool, the shape of ``pvalues``) at family-wise level ``alpha``.

    The i-th smallest of m p-values is rejected when it and every smaller one satisfy p_(j) <= alpha / (m - j + 1);
    nan counts as 1.
    """
    p = np.asarray(pvalues, dtype=float)
    flat = np.where(np.isnan(p), 1.0, p).ravel()
    order = np.argsort(flat, kind="stable")
    ok = flat[order] <= alpha / (flat.size - np.arange(flat.size))
    k = flat.size if ok.all() else int(np.argmin(ok))
    out = np.zeros(flat.size, dtype=bool)
    out[order[:k]] = True
    return out.reshape(p.shape)


def pvalue(excess, se, df) -> np.ndarray:
    """One-sided Student-t p-value (``scipy.stats.t.sf`` of excess / se on ``df``) against "the true excess is
    at most 0": small when ``excess`` is positive beyond its noise. se = 0: 0 for a positive excess, else 1; an
    undefined statistic (nan s.e. or df < 1) gives 1, no evidence."""
    e, s = np.broadcast_arrays(np.asarray(excess, dtype=float), np.asarray(se, dtype=float))
    with np.errstate(invalid="ignore", divide="ignore"):
        p = stats.t.sf(e / s, np.asarray(df, dtype=float))
    p = np.where(s == 0, np.where(e > 0, 0.0, 1.0), p)
    return np.atleast_1d(np.where(np.isnan(p), 1.0, p))


def ordering_tests(diffs: list[tuple[np.ndarray, np.ndarray, np.ndarray]]) -> Family:
    """Family of "every diff < 0": per diff, p-values of diff < 0 (``hold``) and of diff > 0 (``fail``).

    ``diffs``: (differences, standard errors, degrees of freedom) as from :func:`compare`.
    """
    parts = [Family(pvalue(-np.asarray(d), s, df).ravel(), pvalue(d, s, df).ravel()) for d, s, df in diffs]
    return sum(parts[1:], parts[0]) if parts else Family(np.zeros(0), np.zeros(0))


def ordering_verdict(diffs: list[tuple[np.ndarray, np.ndarray, np.ndarray]]) -> str:
    """``holds`` if every diff < 0 at :data:`TAIL`, ``fails`` if Holm finds some diff > 0 (:meth:`Family.verdict`)."""
    return ordering_tests(diffs).verdict()


def threshold_tests(values, ses, low=-np.inf, high=np.inf, df=np.inf) -> Family:
    """Family of "every value in [low, high]" (arrays broadcast): a value holds when both one-sided tests put it
    inside (its p-value is the larger of the two), and each finite bound gives a ``fail`` test of the value
    beyond it."""
    v, s, lo, hi, d = np.broadcast_arrays(*(np.asarray(x, dtype=float) for x in (values, ses, low, high, df)))
    above_low = np.where(np.isneginf(lo), 0.0, pvalue(v - lo, s, d).reshape(v.shape))
    below_high = np.where(np.isposinf(hi), 0.0, pvalue(hi - v, s, d).reshape(v.shape))
    fail = [pvalue(b, s, d).reshape(v.shape)[np.isfinite(bound)] for b, bound in ((lo - v, lo), (v - hi, hi))]
    return Family(np.maximum(above_low, below_high).ravel(), np.concatenate(fail))


def threshold_verdict(values, ses, low: float = -np.inf, high: float = np.inf, df=np.inf) -> str:
    """``holds`` if every value lies in [low, high] at :data:`TAIL`, ``fails`` if Holm puts some value outside
    (:func:`threshold_tests`, :meth:`Family.verdict`)."""
    return threshold_tests(values, ses, low, high, df).verdict()


def _spread_levels(m: int) -> tuple[float, float]:
    """(a, b) with P(R_m >= q(1-a) - q(a)) >= 1/2 and P(R_m <= q(1-b) - q(b)) >= 1/2 for any law (q its quantile
    function, R_m the range of m draws): from P(max < q(1-a)) <= (1-a)^m, likewise for the min, and
    P(all m in [q(b), q(1-b)]) >= (1-2b)^m."""
    return 1 - 4 ** (-1 / m), (1 - 2 ** (-1 / m)) / 2


def spread_tests(values, c: float, m: int) -> Family:
    """Family of one claim "the range R_m of m runs lies below ``c``", from n per-run ``values``.

    ``hold``: p-value of P(R_m < c) >= 1/2, ``fail``: of P(R_m > c) >= 1/2. Exact and distribution-free: R_m
    is bracketed by quantile spreads (:func:`_spread_levels`), and each quantile by an order statistic X_(r) of
    the values (binomial counts, valid for ties too), half the error to each end. A bootstrap of the range cannot
    exceed the observed range, so it would overstate ``holds``; here an upper bound needs enough runs to reach
    beyond the sample's extremes (at m = 100, about 1,300), otherwise it is infinite.
    """
    x = np.sort(np.asarray(values, dtype=float)[np.isfinite(values)])
    n = x.size
    if n == 0:
        return Family(np.ones(1), np.ones(1))
    a, b = _spread_levels(m)
    i = np.arange(n)  # X_(i+1)
    # above c: q(1-a) >= X_(r) and q(a) <= X_(s) with x_r - x_s > c, s the largest index below x_r - c
    s = np.searchsorted(x, x - c, side="left")
    err = np.maximum(stats.binom.cdf(i, n, 1 - a), stats.binom.sf(np.maximum(s - 1, 0), n, a))
    above = min(1.0, 2 * float(np.min(err[s >= 1], initial=np.inf)))
    # below c: q(1-b) <= X_(r) and q(b) >= X_(s) with x_r - x_s < c, s the smallest index above x_r - c
    s = np.searchsorted(x, x - c, side="right")
    err = np.maximum(stats.binom.sf(i, n, 1 - b), stats.binom.cdf(np.minimum(s, n - 1), n, b))
    below = min(1.0, 2 * float(np.min(err[s < n], initial=np.inf)))
    return Family(np.array([below]), np.array([above]))


def spread_bounds(values, m: int, alpha: float = TAIL) -> tuple[float, float]:
    """(lower, upper): the spreads that bracket R_m in :func:`spread_tests`, each at one-sided level ``alpha``
    (0 and inf where the n values cannot give one); lower > c exactly when the ``fail`` p-value is <= alpha."""
    x = np.sort(np.asarray(values, dtype=float)[np.isfinite(values)])
    n, (a, b), i = x.size, _spread_levels(m), np.arange(x.size)
    top, bot = i[stats.binom.cdf(i, n, 1 - a) <= alpha / 2], i[stats.binom.sf(i, n, a) <= alpha / 2]
    lower = float(x[top[-1]] - x[bot[0]]) if top.size and bot.size else 0.0
    top, bot = i[stats.binom.sf(i, n, 1 - b) <= alpha / 2], i[stats.binom.cdf(i, n, b) <= alpha / 2]
    upper = float(x[top[0]] - x[bot[-1]]) if top.size and bot.size else np.inf
    return max(lower, 0.0), upper


def combine(verdicts) -> str:
    """``fails`` if any verdict fails, ``holds`` if there are some and all hold, else ``inconclusive``.

    For distinct conditions of one claim, each already decided at its own level; the components of one family
    pool their p-values instead (:class:`Family`), so that a ``fails`` out of many keeps Holm's control.
    """
    verdicts = list(verdicts)
    if FAILS in verdicts:
        return FAILS
    return HOLDS if verdicts and all(v == HOLDS for v in verdicts) else INCONCLUSIVE


def mean_se(x) -> tuple[float, float, float]:
    """Mean of the values ``x``, its standard error and degrees of freedom n - 1 (s.e. nan below two values)."""
    x = np.asarray(x, dtype=float)
    if x.size < 2:
        return (float(x[0]) if x.size else np.nan), np.nan, 0.0
    return float(x.mean()), float(x.std(ddof=1) / np.sqrt(x.size)), float(x.size - 1)


def ratio(
    a: float, sa: float, b: float, sb: float, dfa: float = np.inf, dfb: float = np.inf
) -> tuple[float, float, float]:
    """(a / b, its delta-method standard error, Satterthwaite degrees of freedom) for independent a, b with
    standard errors sa, sb on dfa, dfb degrees of freedom."""
    if b <= 0:
        return np.inf, np.inf, np.inf
    r = a / b
    rel = (sa / a if a else 0.0, sb / b)
    return r, abs(r) * float(np.hypot(*rel)), float(satterthwaite(rel, (dfa, dfb)))


def area(curve: pd.DataFrame) -> tuple[float, float, float]:
    """Area under a mean curve (indexed by t, from (0, 0)) by trapezoids, the area under its s.e., and the
    curve's degrees of freedom (runs - 1).

    The second value bounds the standard error of the area (perfectly correlated checkpoints).
    """
    t = np.concatenate([[0.0], curve.index.to_numpy(dtype=float)])
    m = np.concatenate([[0.0], curve["mean"].to_numpy()])
    s = np.concatenate([[0.0], curve["sem"].to_numpy()])
    dt = np.diff(t)
    return (
        float(np.sum(dt * (m[1:] + m[:-1]) / 2)),
        float(np.sum(dt * (s[1:] + s[:-1]) / 2)),
        float(curve["runs"].min() - 1),
    )


def near(curve: pd.DataFrame, t: float) -> pd.Series:
    """Row of a curve (indexed by t) at the first checkpoint >= ``t`` (the last one if none)."""
    idx = curve.index.to_numpy()
    return curve.iloc[min(int(np.searchsorted(idx, t)), idx.size - 1)]


def flat_from(curve: pd.DataFrame, rtol: float = 1e-9) -> float | None:
    """First checkpoint from which the mean curve stays at its final value (None if it still rises at T)."""
    m = curve["mean"].to_numpy()
    same = np.abs(m - m[-1]) <= rtol * max(abs(m[-1]), 1.0)
    if m.size < 2 or not same[-2]:
        return None
    first = m.size - int(np.argmin(same[::-1]))  # index after the last checkpoint that differs
    return float(curve.index[first if not same.all() else 0])


def slope_changes(
    curve: pd.DataFrame, granularity: float, t_min: float = 0
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Slope changes of a mean curve on its interior checkpoints t >= t_min, with their tolerance and noise.

    ``curve``: indexed by t, with ``mean``, ``sem_step`` (s.e. of the mean increment since the previous
    checkpoint) and ``runs``. Slopes are taken between consecutive checkpoints. Returns per interior
    checkpoint: the size of the change |s2 - s1|; its tolerance ``granularity`` (1/L1 + 1/L2) between
    neighbouring intervals of lengths L1, L2 (the regret an interval can gain or lose from where it cuts a
    round-robin round) plus a 1e-9 relative float tolerance; and its half-width (:func:`halfwidth`) from
    the s.e. sem_step / L of each slope, combined as for independent slopes: an upper bound when a run's
    neighbouring increments are positively correlated (a run behind on regret tends to stay behind).
    """
    c = curve[curve.index >= t_min]
    t, m = c.index.to_numpy(dtype=float), c["mean"].to_numpy()
    if t.size < 3:
        return np.zeros(0), np.zeros(0), np.zeros(0)
    dt = np.diff(t)
    s = np.diff(m) / dt
    s_se = c["sem_step"].to_numpy()[1:] / dt
    tol = granularity * (1 / dt[1:] + 1 / dt[:-1]) + 1e-9 * np.abs(s).max()
    return np.abs(np.diff(s)), tol, halfwidth(np.hypot(s_se[1:], s_se[:-1]), c["runs"].to_numpy()[2:] - 1)


def elimination_time(pulls: str) -> float:
    """Step at which a run of an elimination algorithm stopped pulling every arm but one (nan if it did not).

    For algorithms that pull the viable arms round-robin and then only the last one (DP-SE, DP-SE 2):
    ``pulls`` are the final pull counts ("n_1 n_2 ..."). The kept arm has at least two pulls more than
    any other once the run has finished (a round cut by the horizon leaves them within one), and it
    was pulled as often as the last eliminated arm until then.
    """
    n = np.array(pulls.split(), dtype=np.int64)
    kept = int(np.argmax(n))
    rest = np.delete(n, kept)
    if rest.size == 0 or n[kept] < rest.max() + 2:
        return np.nan
    return float(rest.sum() + rest.max())


def text_variants(df: pd.DataFrame) -> pd.DataFrame:
    """``df`` with its ``variant`` column as text ("" for the primary curves; CSV reads empty cells as NaN)."""
    return df.assign(variant=df["variant"].astype(object).where(df["variant"].notna(), ""))
