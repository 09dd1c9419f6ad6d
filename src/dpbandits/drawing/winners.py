"""Who wins a frontier cell, with its uncertainty: the set of algorithms not significantly worse than the best.

A *cell* is one (reward law, privacy model, instance, epsilon): algorithms are compared only within one privacy
model (:mod:`.bounds`), never an (eps, delta)-DP or a local one against a central eps-DP one. In a cell the best
is the algorithm of least mean final regret; every other algorithm j is tested for "j is worse than the best" by a
one-sided Welch t-test (difference of means over its standard error, Welch-Satterthwaite degrees of freedom), and
Holm's step-down keeps the family-wise error over the cell's comparisons at ``ALPHA``. The *winners* are the best
and every algorithm the test does not show worse: one winner is a clear win, several are a tie.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..claims._core import TAIL, holm, pvalue, satterthwaite

#: family-wise level of a cell's comparisons (one-sided, the project's: the normal tail beyond 2)
ALPHA = TAIL
CELL = ["law", "model", "instance", "epsilon"]


def cell_winners(cell: pd.DataFrame, alpha: float = ALPHA) -> pd.DataFrame:
    """``cell`` (one row per algorithm: final_regret, sem, runs) sorted best first, with ``p_worse`` (the raw
    one-sided Welch p-value of "worse than the best"; NaN for the best), ``worse`` (Holm's step-down rejects it at
    ``alpha``) and ``winner`` (not shown worse)."""
    cell = cell.sort_values("final_regret", kind="stable").copy()
    best = cell.iloc[0]
    rest = cell.iloc[1:]
    diff = rest["final_regret"].to_numpy() - best["final_regret"]
    se = np.hypot(rest["sem"].to_numpy(), best["sem"])
    df = satterthwaite([rest["sem"].to_numpy(), best["sem"]], [rest["runs"].to_numpy() - 1, best["runs"] - 1])
    p = pvalue(diff, se, df) if len(rest) else np.zeros(0)
    worse = holm(p, alpha) if len(rest) else np.zeros(0, dtype=bool)
    cell["p_worse"] = np.concatenate([[np.nan], p])
    cell["worse"] = np.concatenate([[False], worse])
    cell["winner"] = ~cell["worse"]
    return cell


def winners(rows: pd.DataFrame, alpha: float = ALPHA) -> pd.DataFrame:
    """One row per cell (``CELL`` columns) of the private algorithms in ``rows`` (frontier rows with ``model``):
    ``best`` (least mean), ``winners`` (names joined by "+", best first), ``size``, ``tie`` (size > 1) and, for
    Bernoulli cells, the best's ``ratio_to_bound``."""
    private = rows[rows["model"] != "none"]
    out = []
    for key, cell in private.groupby(CELL, sort=False):
        ranked = cell_winners(cell, alpha)
        names = ranked.loc[ranked["winner"], "algorithm"].tolist()
        best = ranked.iloc[0]
        out.append(
            dict(zip(CELL, key, strict=True))
            | {
                "best": best["algorithm"],
                "label": best["label"],
                "winners": "+".join(names),
                "size": len(names),
                "tie": len(names) > 1,
                "algorithms": len(ranked),
                "final_regret": best["final_regret"],
                "ratio_to_bound": best.get("ratio_to_bound", np.nan),
            }
        )
    cols = CELL + ["best", "label", "winners", "size", "tie", "algorithms", "final_regret", "ratio_to_bound"]
    return pd.DataFrame(out, columns=cols).sort_values(CELL).reset_index(drop=True)


def ranking(rows: pd.DataFrame, alpha: float = ALPHA) -> pd.DataFrame:
    """Per reward law and privacy model, each private algorithm's mean rank (1 = best) over the (instance,
    epsilon) cells every law covers (so laws are compared on the same cells), with ``wins`` (the cells it wins
    alone), ``ties`` (the cells whose winners it shares with others) and ``cells``; best first."""
    private = rows[rows["model"] != "none"].copy()
    laws = private.groupby(["instance", "epsilon"])["law"].nunique()
    common = laws[laws == private["law"].nunique()].index
    private = private[private.set_index(["instance", "epsilon"]).index.isin(common)]
    parts = []
    for _, cell in private.groupby(CELL, sort=False):
        ranked = cell_winners(cell, alpha)
        ranked["rank"] = ranked["final_regret"].rank(method="average")
        alone = ranked["winner"].sum() == 1
        ranked["win"] = ranked["winner"] & alone
        ranked["tie"] = ranked["winner"] & ~alone
        parts.append(ranked)
    if not parts:
        return pd.DataFrame(columns=["law", "model", "algorithm", "label", "mean_rank", "wins", "ties", "cells"])
    table = pd.concat(parts).groupby(["law", "model", "algorithm", "label"], sort=False)
    table = table.agg(
        mean_rank=("rank", "mean"), wins=("win", "sum"), ties=("tie", "sum"), cells=("rank", "size")
    ).reset_index()
    table[["wins", "ties"]] = table[["wins", "ties"]].astype(int)
    return table.sort_values(["law", "model", "mean_rank"], kind="stable").reset_index(drop=True)
