"""Claims of Chen, Karthik, Chee & Tan 2024: Section 5 (Figure 1) and Appendix E.2 (Figure 2)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from ._core import FAILS, HOLDS, INCONCLUSIVE, Claim, combine, threshold_verdict

SECTION5, APPENDIX_E2 = "Chen et al. 2024, Section 5", "Chen et al. 2024, Appendix E.2"
# "similar" / "essentially independent" success rates: within 0.05, about three binomial standard errors of one
# point at the paper's 1000 trials (<= 0.016), the smallest difference its plots can show as one
SIMILAR = 0.05
MONOTONE_SE = 4.0
C1_QUOTE = ("\"As the results demonstrate, the DP-BAI policy significantly outperforms Baseline and DP-OD, "
            "demonstrating that the utility of the Max-Det collection in exploiting the linear structure of the arm "
            "means\"")


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


def _curve(df: pd.DataFrame, algorithm: str) -> pd.DataFrame:
    return df[(df["algorithm"] == algorithm) & (df["variant"] == "")].set_index("x").sort_index()


def _closing_gap(panel: pd.DataFrame) -> tuple[str, dict]:
    """C2 in one ε panel: OD-LinBAI - DP-BAI shrinks from the smallest to the largest ε and ends within SIMILAR."""
    bai, od = _curve(panel, "dp_bai"), _curve(panel, "od_linbai")
    x = bai.index.intersection(od.index)
    gap = od.loc[x, "rate"] - bai.loc[x, "rate"]
    se = np.hypot(od.loc[x, "se"], bai.loc[x, "se"])
    closing, closing_se = gap.iloc[0] - gap.iloc[-1], np.hypot(se.iloc[0], se.iloc[-1])
    similar = threshold_verdict(gap.iloc[-1], se.iloc[-1], -SIMILAR, SIMILAR)
    if similar == FAILS or closing < -2 * closing_se:
        verdict = FAILS
    elif similar == HOLDS and closing > 2 * closing_se:
        verdict = HOLDS
    else:
        verdict = INCONCLUSIVE
    return verdict, {f"ε={x[0]:g}": f"{gap.iloc[0]:.3f} ± {se.iloc[0]:.3f}",
                     f"ε={x[-1]:g}": f"{gap.iloc[-1]:.3f} ± {se.iloc[-1]:.3f}"}


def _ratio_panel(panel: pd.DataFrame) -> tuple[str, str]:
    """Figure 2 in one panel: (DP-OD's drop beyond SIMILAR?, DP-BAI within SIMILAR of its first point?)."""
    od, bai = _curve(panel, "dp_od"), _curve(panel, "dp_bai")
    drop = od["rate"].iloc[-1] - od["rate"].iloc[0]
    worse = threshold_verdict(drop, np.hypot(od["se"].iloc[-1], od["se"].iloc[0]), high=-SIMILAR)
    moves = bai["rate"].iloc[1:] - bai["rate"].iloc[0]
    flat = threshold_verdict(moves, np.hypot(bai["se"].iloc[1:], bai["se"].iloc[0]), -SIMILAR, SIMILAR)
    return worse, flat


def chen2024(results: str | Path) -> list[Claim]:
    out = []
    f1 = _rates(results, "fig1")
    wtl = {alg: _pairwise(f1, "dp_bai", alg) for alg in ("baseline_bai", "dp_od")}
    out.append(Claim(
        "chen2024", "C1", f"{C1_QUOTE} ({SECTION5}).",
        "DP-BAI's success rate above Baseline's and DP-OD's at every point of Figure 1 (a) and (b), "
        "beyond 2 s.e. (binomial); 'fails' if the other wins anywhere beyond 2 s.e.",
        combine(_dominance(v) for v in wtl.values()), "points won / tied / lost by DP-BAI",
        {f"vs {alg}": f"{w}/{t}/{lost}" for alg, (w, t, lost) in wtl.items()},
    ))
    verdicts, nums = [], {}
    for panel, df in f1[f1["x_name"] == "epsilon"].groupby("panel"):
        v, n = _closing_gap(df)
        verdicts.append(v)
        nums.update({f"panel {panel} gap at {k}": x for k, x in n.items()})
    out.append(Claim(
        "chen2024", "C2", "\"We also observe that as [ε → ∞] (i.e., privacy requirement vanishes), the performances "
        f"of DP-BAI and the non-private state-of-the-art OD-LinBAI algorithm are similar\" ({SECTION5}).",
        "the trend as ε grows, in every ε panel: the success-rate gap OD-LinBAI - DP-BAI shrinks from the smallest "
        f"to the largest ε beyond 2 s.e. and at the largest ε lies within ±{SIMILAR:g} with its 2-s.e. interval "
        f"(equivalence). 'Fails' if the gap at the largest ε lies outside ±{SIMILAR:g} beyond 2 s.e. or widens "
        f"beyond 2 s.e.; inconclusive otherwise, e.g. when the two are already within ±{SIMILAR:g} at the smallest "
        f"ε (no trend to see). Margin {SIMILAR:g}: about three binomial s.e. of one point at the paper's 1000 trials",
        combine(verdicts), "gap OD-LinBAI - DP-BAI ± s.e. at the smallest and the largest ε", nums,
    ))
    worst, where = 0.0, ""
    for (panel, curve), df in f1.groupby(["panel", "curve"]):
        df = df.sort_values("x")
        drop = (df["rate"].shift() - df["rate"]) / np.hypot(df["se"], df["se"].shift())
        if drop.max() > worst:
            worst, where = float(drop.max()), f"panel {panel}, {curve}"
    out.append(Claim(
        "chen2024", "C3", f"Implicit in Figure 1 ({SECTION5}): success does not decrease as the budget T or ε grows.",
        f"no decrease between neighbouring points larger than {MONOTONE_SE:g} s.e.: under a non-decreasing truth a "
        "drop that large has probability 3e-5 per pair, so a false 'fails' over the figure's ~100 pairs has "
        "probability < 0.5%; no inconclusive outcome (smaller drops are expected by chance)",
        HOLDS if worst <= MONOTONE_SE else FAILS, f"largest decrease {worst:.2f} s.e. ({where or 'none'})",
        {"largest_drop_se": worst},
    ))
    f2 = _rates(results, "fig2")
    nums, verdicts = {}, []
    for panel, df in f2.groupby("panel"):
        worse, flat = _ratio_panel(df)
        verdicts += [worse, flat]
        od, bai = _curve(df, "dp_od")["rate"], _curve(df, "dp_bai")["rate"]
        nums[f"panel {panel}"] = (f"DP-OD {od.iloc[0]:.3f} -> {od.iloc[-1]:.3f} ({worse}), DP-BAI {bai.min():.3f} .. "
                                  f"{bai.max():.3f} ({flat})")
    out.append(Claim(
        "chen2024", "Fig2", "\"We observe that when the ratio increases, the performance of DP-OD becomes worse. "
        "However, the performance of DP-BAI is essentially independent of this ratio as the theory suggests\" "
        f"({APPENDIX_E2}).",
        "in every panel: DP-OD's success at the largest ratio below its value at the smallest by more than "
        f"{SIMILAR:g} beyond 2 s.e., and DP-BAI's success at every ratio within ±{SIMILAR:g} of its value at the "
        f"smallest, with 2-s.e. intervals (equivalence); 'fails' if DP-OD's drop is below {SIMILAR:g} or some DP-BAI "
        f"change beyond {SIMILAR:g}, beyond 2 s.e.; the same margin as C2",
        combine(verdicts), "success at the smallest -> largest ratio", nums,
    ))
    sens = _rates(results, "sensitivity")
    nums, verdicts = {}, []
    for variant in ("", "one_shot", "halving"):
        for alg in ("baseline_bai", "dp_od"):
            w, t, lost = _pairwise(sens, "dp_bai", alg, variant)
            nums[f"{variant or 'dexp'} vs {alg}"] = f"{w}/{t}/{lost}"
            verdicts.append(_dominance((w, t, lost)))
    out.append(Claim(
        "chen2024", "C1-sensitivity", f"{C1_QUOTE} ({SECTION5}), with DP-BAI under each reconstructed phase "
        "schedule (dexp, one_shot, halving).",
        "C1's criterion on the sensitivity figure, for each schedule of DP-BAI",
        combine(verdicts), "points won / tied / lost by DP-BAI per schedule", nums,
    ))
    return out
