"""Claims of Tossou & Dimitrakakis 2016 (spec tossou2016-dpucb.md §6.1)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from ._core import FAILS, HOLDS, Claim, at, compare, load_tables, ordering_verdict

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
