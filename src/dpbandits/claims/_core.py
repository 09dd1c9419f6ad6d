"""The papers' empirical claims as functions of the simulated data (one module per paper).

Each claim function takes the tidy tables written by the figure rules (``<figure>.csv`` curves,
``<figure>_runs.csv`` per-run finals) and returns a :class:`Claim` with a verdict computed from the
data: ``holds``, ``fails`` or ``inconclusive`` (differences within two standard errors), the
numbers behind it and the paper's statement. Standard errors come from the tables (``sem`` of a
curve, the spread of per-run values), so fewer runs widen them and give more ``inconclusive``
verdicts under the same criterion.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

HOLDS, FAILS, INCONCLUSIVE = "holds", "fails", "inconclusive"
EMPIRICAL, STRUCTURAL = "empirical", "structural"


@dataclass
class Claim:
    """One claim's verdict.

    ``kind`` is ``"empirical"`` when the verdict depends on simulated outcomes that the algorithms'
    construction does not fix, ``"structural"`` when the paper's construction implies it (a
    guarantee or an identity of the algorithm): the data can then only confirm it unless the
    implementation departs from the paper, so the check guards the replication rather than tests
    the paper.
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
    curves = pd.concat([pd.read_csv(base / f"{f}.csv", dtype={"variant": str}) for f in figures],
                       ignore_index=True)
    runs = pd.concat([pd.read_csv(base / f"{f}_runs.csv", dtype={"variant": str}) for f in figures],
                     ignore_index=True)
    return curves, runs


def main_curves(curves: pd.DataFrame) -> pd.DataFrame:
    """Rows of the primary variants (ablation overlays removed)."""
    return curves[curves["variant"].fillna("") == ""]


def at(curves: pd.DataFrame, figure: str, algorithm: str, t_min: float = 0) -> pd.DataFrame:
    """Primary curve of ``algorithm`` in ``figure`` restricted to t >= t_min, indexed by t."""
    df = main_curves(curves)
    df = df[(df["figure"] == figure) & (df["algorithm"] == algorithm) & (df["t"] >= t_min)]
    return df.set_index("t")


def compare(a: pd.DataFrame, b: pd.DataFrame) -> tuple[np.ndarray, np.ndarray]:
    """(mean_a - mean_b, combined standard error) on the common checkpoints."""
    t = a.index.intersection(b.index)
    diff = a.loc[t, "mean"].to_numpy() - b.loc[t, "mean"].to_numpy()
    se = np.hypot(a.loc[t, "sem"].to_numpy(), b.loc[t, "sem"].to_numpy())
    return diff, se


def ordering_verdict(diffs: list[tuple[np.ndarray, np.ndarray]]) -> str:
    """``holds`` if every diff < 0 beyond 2 s.e., ``fails`` if any diff > 0 beyond 2 s.e."""
    if any(np.any(d > 2 * s) for d, s in diffs):
        return FAILS
    if all(np.all(d < -2 * s) for d, s in diffs):
        return HOLDS
    return INCONCLUSIVE


def threshold_verdict(values, ses, low: float = -np.inf, high: float = np.inf) -> str:
    """``holds`` if every value lies in [low, high] beyond 2 s.e., ``fails`` if any lies outside beyond 2 s.e."""
    v, s = np.asarray(values, dtype=float), 2 * np.asarray(ses, dtype=float)
    if np.any((v + s < low) | (v - s > high)):
        return FAILS
    if np.all((v - s >= low) & (v + s <= high)):
        return HOLDS
    return INCONCLUSIVE


def combine(verdicts) -> str:
    """``fails`` if any verdict fails, ``holds`` if there are some and all hold, else ``inconclusive``."""
    verdicts = list(verdicts)
    if FAILS in verdicts:
        return FAILS
    return HOLDS if verdicts and all(v == HOLDS for v in verdicts) else INCONCLUSIVE


def mean_se(x) -> tuple[float, float]:
    """Mean of the values ``x`` and its standard error (nan with fewer than two values)."""
    x = np.asarray(x, dtype=float)
    if x.size < 2:
        return (float(x[0]) if x.size else np.nan), np.nan
    return float(x.mean()), float(x.std(ddof=1) / np.sqrt(x.size))


def ratio(a: float, sa: float, b: float, sb: float) -> tuple[float, float]:
    """(a / b, its delta-method standard error) for independent a, b with standard errors sa, sb."""
    if b <= 0:
        return np.inf, np.inf
    r = a / b
    return r, abs(r) * float(np.hypot(sa / a if a else 0.0, sb / b))


def area(curve: pd.DataFrame) -> tuple[float, float]:
    """Area under a mean curve (indexed by t, from (0, 0)) by trapezoids, and the area under its s.e.

    The second value bounds the standard error of the area (perfectly correlated checkpoints).
    """
    t = np.concatenate([[0.0], curve.index.to_numpy(dtype=float)])
    m = np.concatenate([[0.0], curve["mean"].to_numpy()])
    s = np.concatenate([[0.0], curve["sem"].to_numpy()])
    dt = np.diff(t)
    return float(np.sum(dt * (m[1:] + m[:-1]) / 2)), float(np.sum(dt * (s[1:] + s[:-1]) / 2))


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


def slope_changes(curve: pd.DataFrame, granularity: float, t_min: float = 0) -> tuple[int, int, float]:
    """Slope changes of a mean curve (indexed by t) on checkpoints t >= t_min.

    Slopes are taken between consecutive checkpoints; a change between neighbouring intervals of
    lengths L1, L2 counts when it exceeds ``granularity`` (1/L1 + 1/L2) (the regret an interval can
    gain or lose from where it cuts a round-robin round) plus a 1e-9 relative float tolerance.

    Returns (number of changes, number of interior checkpoints, largest change / total variation of
    the slope: 1 for a single kink, small for gradual bending; nan if the slope never changes).
    """
    c = curve[curve.index >= t_min]
    t, m = c.index.to_numpy(dtype=float), c["mean"].to_numpy()
    if t.size < 3:
        return 0, 0, float("nan")
    dt = np.diff(t)
    s = np.diff(m) / dt
    ds = np.abs(np.diff(s))
    tol = granularity * (1 / dt[1:] + 1 / dt[:-1]) + 1e-9 * np.abs(s).max()
    big = ds[ds > tol]
    share = float(big.max() / big.sum()) if big.size else float("nan")
    return int(big.size), int(ds.size), share


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
