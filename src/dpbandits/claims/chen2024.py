"""Claims of Chen, Karthik, Chee & Tan 2024 (spec chen2024-dpbai.md §3.2-3.3)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from ._core import FAILS, HOLDS, INCONCLUSIVE, Claim


def _rates(results, figure: str) -> pd.DataFrame:
    df = pd.read_csv(Path(results) / "figures" / "chen2024" / f"{figure}.csv", dtype={"variant": str})
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
