"""The papers' empirical claims as functions of the simulated data.

Each claim function takes the tidy tables written by the figure rules (``<figure>.csv`` curves,
``<figure>_runs.csv`` per-run finals) and returns a :class:`Claim` with a verdict computed from the
data: ``holds``, ``fails`` or ``inconclusive`` (differences within two standard errors), the
numbers behind it and the paper's statement.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

HOLDS, FAILS, INCONCLUSIVE = "holds", "fails", "inconclusive"


@dataclass
class Claim:
    paper: str
    claim_id: str
    statement: str
    criterion: str
    verdict: str
    evidence: str
    numbers: dict = field(default_factory=dict)

    def row(self) -> dict:
        d = asdict(self)
        d["numbers"] = "; ".join(f"{k}={_fmt(v)}" for k, v in self.numbers.items())
        return d


def _fmt(v) -> str:
    return f"{v:.4g}" if isinstance(v, (float, np.floating)) else str(v)


def load_tables(results: str | Path, paper: str, figures) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Concatenated curve and per-run tables of ``figures`` of ``paper``."""
    base = Path(results) / "figures" / paper
    curves = pd.concat([pd.read_csv(base / f"{f}.csv") for f in figures], ignore_index=True)
    runs = pd.concat([pd.read_csv(base / f"{f}_runs.csv") for f in figures], ignore_index=True)
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


# ------------------------------------------------------------------------------------------------
# Tossou & Dimitrakakis 2016 (spec tossou2016-dpucb.md §6.1)

TOSSOU_FIGS = ("fig2a", "fig2b", "fig2c", "fig2d")
TOSSOU_PRIVATE = ("dp_ucb_bound", "dp_ucb_tossou", "private_ucb")


def _t_min(curves: pd.DataFrame, figure: str) -> float:
    """'t >~ 10^3' of the paper, scaled to the run's horizon (T/100)."""
    return curves.loc[curves["figure"] == figure, "t"].max() / 100


def tossou2016(results: str | Path) -> list[Claim]:
    curves, runs = load_tables(results, "tossou2016", TOSSOU_FIGS)
    out = []
    # C1: INT better than every other private algorithm for t >~ 1e3
    diffs, nums = [], {}
    for f in TOSSOU_FIGS:
        tm = _t_min(curves, f)
        for alg in TOSSOU_PRIVATE:
            d, s = compare(at(curves, f, "dp_ucb_int", tm), at(curves, f, alg, tm))
            diffs.append((d, s))
            nums[f"{f}:{alg}-INT@T"] = -d[-1]
    out.append(Claim(
        "tossou2016", "C1", "DP-UCB-INT is significantly better than all other private algorithms.",
        "mean regret of DP-UCB-INT below DP-UCB-BOUND, DP-UCB and Private-UCB at every checkpoint t >= T/100, "
        "all four panels, beyond 2 s.e.",
        ordering_verdict(diffs), "regret difference (other - INT) at the horizon per panel", nums,
    ))
    # C2: INT - UCB gap does not increase with time (compare T/10 and T)
    verdicts, nums = [], {}
    for f in TOSSOU_FIGS:
        d, s = compare(at(curves, f, "dp_ucb_int"), at(curves, f, "ucb"))
        t = at(curves, f, "ucb").index
        i10 = int(np.searchsorted(t, t[-1] / 10))
        growth, se = d[-1] - d[i10], np.hypot(s[-1], s[i10])
        nums[f"{f}:gap@T/10"], nums[f"{f}:gap@T"] = d[i10], d[-1]
        rel = growth / max(abs(d[i10]), 1.0)
        verdicts.append(HOLDS if growth <= 2 * se or rel < 0.1 else FAILS)
    out.append(Claim(
        "tossou2016", "C2", "The gap between DP-UCB-INT and non-private UCB does not increase with time.",
        "gap(T) - gap(T/10) within 2 s.e. or below 10% of gap(T/10), every panel",
        FAILS if FAILS in verdicts else HOLDS, "mean regret gap INT - UCB at T/10 and T", nums,
    ))
    # C3: DP-UCB better than BOUND for small t, BOUND better for large t
    nums, crossings = {}, []
    for f in TOSSOU_FIGS:
        d, s = compare(at(curves, f, "dp_ucb_tossou"), at(curves, f, "dp_ucb_bound"))
        early = np.flatnonzero(d < -2 * s)
        late = d[-1] > 2 * s[-1]
        crossings.append(bool(early.size and late and early[0] < len(d) - 1))
        nums[f"{f}:DPUCB-BOUND@T"] = d[-1]
        nums[f"{f}:crossing"] = crossings[-1]
    out.append(Claim(
        "tossou2016", "C3", "DP-UCB is better than DP-UCB-BOUND for small t; DP-UCB-BOUND is better for large t.",
        "in every panel, DP-UCB below DP-UCB-BOUND (beyond 2 s.e.) at some early checkpoint and above at T",
        HOLDS if all(crossings) else FAILS, "regret difference DP-UCB - DP-UCB-BOUND at T; crossing found", nums,
    ))
    # C4: Private-UCB worst
    diffs, nums = [], {}
    for f in TOSSOU_FIGS:
        tm = _t_min(curves, f)
        for alg in ("ucb", "dp_ucb_int", "dp_ucb_tossou", "dp_ucb_bound"):
            d, s = compare(at(curves, f, alg, tm), at(curves, f, "private_ucb", tm))
            diffs.append((d, s))
        nums[f"{f}:private_ucb@T"] = at(curves, f, "private_ucb")["mean"].iloc[-1]
    out.append(Claim(
        "tossou2016", "C4", "Private-UCB performs worse than all other algorithms.",
        "Private-UCB has the highest mean regret at every checkpoint t >= T/100 in every panel, beyond 2 s.e.",
        ordering_verdict(diffs), "Private-UCB mean regret at T", nums,
    ))
    # C5 / C6: best-worst spread over runs (2-arm panels)
    r2 = runs[runs["figure"].isin(["fig2a", "fig2b"]) & (runs["variant"].fillna("") == "")]
    spread = r2.groupby(["figure", "algorithm"]).agg(
        pseudo=("final_regret", lambda x: x.max() - x.min()),
        realised=("final_realised_regret", lambda x: x.max() - x.min()),
    )
    ours = spread.drop(index="private_ucb", level="algorithm")
    nums = {f"{f}:{a}": f"pseudo {r.pseudo:.1f}, realised {r.realised:.1f}" for (f, a), r in ours.iterrows()}
    worst = max(ours["pseudo"].max(), ours["realised"].max())
    out.append(Claim(
        "tossou2016", "C5", "The best-worst regret spread over the runs is under 664.5 (2 arms) for the "
        "authors' algorithms and UCB.",
        "max - min of final regret over runs < 664.5 for UCB, DP-UCB-INT, DP-UCB, DP-UCB-BOUND (pseudo and "
        "realised), 2-arm panels",
        HOLDS if worst < 664.5 else FAILS, f"largest spread {worst:.1f}", nums,
    ))
    pu = spread.xs("private_ucb", level="algorithm")
    nums = {f: f"pseudo {r.pseudo:.1f}, realised {r.realised:.1f}" for f, r in pu.iterrows()}
    top = max(pu["pseudo"].max(), pu["realised"].max())
    out.append(Claim(
        "tossou2016", "C6", "This gap reaches 30,000 for Private-UCB.",
        "Private-UCB's spread (pseudo or realised) at least 15,000 (same order as 30,000)",
        HOLDS if top >= 15000 else FAILS, f"largest Private-UCB spread {top:.1f}", nums,
    ))
    return out


# ------------------------------------------------------------------------------------------------
# Chen, Karthik, Chee & Tan 2024 (spec chen2024-dpbai.md §3.2-3.3)


def _rates(results, figure: str) -> pd.DataFrame:
    df = pd.read_csv(Path(results) / "figures" / "chen2024" / f"{figure}.csv")
    df["variant"] = df["variant"].fillna("")
    df["se"] = np.sqrt(df["rate"] * (1 - df["rate"]) / df["trials"]).clip(lower=0.5 / df["trials"])
    return df


def _pairwise(df: pd.DataFrame, better: str, worse: str, variant: str = "") -> tuple[int, int, int]:
    """(#points where ``better`` wins beyond 2 s.e., #ties, #points where it loses beyond 2 s.e.)."""
    a = df[(df["algorithm"] == better) & (df["variant"] == variant)].set_index(["panel", "x"])
    b = df[(df["algorithm"] == worse) & (df["variant"] == "")].set_index(["panel", "x"])
    idx = a.index.intersection(b.index)
    d = a.loc[idx, "rate"] - b.loc[idx, "rate"]
    se = np.hypot(a.loc[idx, "se"], b.loc[idx, "se"])
    return int((d > 2 * se).sum()), int((d.abs() <= 2 * se).sum()), int((d < -2 * se).sum())


def _dominance(wins_ties_losses) -> str:
    wins, ties, losses = wins_ties_losses
    return FAILS if losses else (HOLDS if ties == 0 else INCONCLUSIVE)


def chen2024(results: str | Path) -> list[Claim]:
    out = []
    f1 = _rates(results, "fig1")
    wtl = {alg: _pairwise(f1, "dp_bai", alg) for alg in ("baseline_bai", "dp_od")}
    verdicts = [_dominance(v) for v in wtl.values()]
    out.append(Claim(
        "chen2024", "C1", "DP-BAI significantly outperforms Baseline and DP-OD.",
        "DP-BAI's success rate above Baseline's and DP-OD's at every point of Figure 1 (a) and (b), "
        "beyond 2 s.e.; 'fails' if the other wins anywhere beyond 2 s.e.",
        FAILS if FAILS in verdicts else (HOLDS if all(v == HOLDS for v in verdicts) else INCONCLUSIVE),
        "points won / tied / lost by DP-BAI",
        {f"vs {alg}": f"{w}/{t}/{lost}" for alg, (w, t, lost) in wtl.items()},
    ))
    eps = f1[f1["x_name"] == "epsilon"]
    top = eps["x"].max()
    pair = eps[eps["x"] == top].set_index("algorithm")
    d = pair.loc["dp_bai", "rate"] - pair.loc["od_linbai", "rate"]
    se = np.hypot(pair.loc["dp_bai", "se"], pair.loc["od_linbai", "se"])
    out.append(Claim(
        "chen2024", "C2", "As epsilon grows, DP-BAI and OD-LinBAI are similar.",
        f"at the largest epsilon ({top:g}) the success rates differ by less than 0.02 or 2 s.e.",
        HOLDS if abs(d) < max(0.02, 2 * se) else FAILS, "DP-BAI - OD-LinBAI at the largest epsilon",
        {"dp_bai": pair.loc["dp_bai", "rate"], "od_linbai": pair.loc["od_linbai", "rate"], "difference": d},
    ))
    worst, where = 0.0, ""
    for (panel, curve), df in f1.groupby(["panel", "curve"]):
        df = df.sort_values("x")
        drop = (df["rate"].shift() - df["rate"]) / np.hypot(df["se"], df["se"].shift())
        if drop.max() > worst:
            worst, where = float(drop.max()), f"panel {panel}, {curve}"
    out.append(Claim(
        "chen2024", "C3", "Success is non-decreasing in the budget T and in epsilon (implicit).",
        "no decrease between neighbouring points larger than 4 s.e. (spec §3.4)",
        HOLDS if worst <= 4 else FAILS, f"largest decrease {worst:.2f} s.e. ({where or 'none'})",
        {"largest_drop_se": worst},
    ))
    f2 = _rates(results, "fig2")
    nums, verdicts = {}, []
    for panel, df in f2.groupby("panel"):
        ends = {}
        for alg in ("dp_bai", "dp_od"):
            a = df[df["algorithm"] == alg].sort_values("x")
            lo_x, hi_x = a.iloc[0], a.iloc[-1]
            ends[alg] = (hi_x["rate"] - lo_x["rate"], np.hypot(hi_x["se"], lo_x["se"]))
            nums[f"panel {panel} {alg}"] = f"{lo_x['rate']:.3f} -> {hi_x['rate']:.3f}"
        od_drops = ends["dp_od"][0] < -2 * ends["dp_od"][1]
        bai_flat = abs(ends["dp_bai"][0]) <= max(2 * ends["dp_bai"][1], 0.03)
        verdicts.append(HOLDS if od_drops and bai_flat else FAILS)
    out.append(Claim(
        "chen2024", "Fig2", "When the ratio increases, DP-OD becomes worse; DP-BAI is essentially independent "
        "of the ratio.",
        "in every panel DP-OD's success at the largest ratio is below its value at the smallest beyond 2 s.e., "
        "and DP-BAI's changes by at most max(2 s.e., 0.03)",
        FAILS if FAILS in verdicts else HOLDS, "success at the smallest -> largest ratio", nums,
    ))
    sens = _rates(results, "sensitivity")
    nums, verdicts = {}, []
    for variant in ("", "one_shot", "halving"):
        for alg in ("baseline_bai", "dp_od"):
            w, t, lost = _pairwise(sens, "dp_bai", alg, variant)
            nums[f"{variant or 'dexp'} vs {alg}"] = f"{w}/{t}/{lost}"
            verdicts.append(_dominance((w, t, lost)))
    out.append(Claim(
        "chen2024", "C1-sensitivity", "C1 under the alternative reconstructed schedules (dexp, one_shot, halving).",
        "C1's criterion on the sensitivity figure, for each schedule of DP-BAI",
        FAILS if FAILS in verdicts else (HOLDS if all(v == HOLDS for v in verdicts) else INCONCLUSIVE),
        "points won / tied / lost by DP-BAI per schedule", nums,
    ))
    return out


PAPERS = {"tossou2016": tossou2016, "chen2024": chen2024}


def ledger(results: str | Path, papers=None) -> pd.DataFrame:
    """All claims of ``papers`` (default: all) as one table."""
    rows = []
    for name in papers or PAPERS:
        rows.extend(c.row() for c in PAPERS[name](results))
    return pd.DataFrame(rows)
