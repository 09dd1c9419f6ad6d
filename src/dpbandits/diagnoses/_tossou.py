"""Tossou & Dimitrakakis 2016 (Figure 2): the panels, algorithms and thresholds its diagnoses share, and the
curves and labelled runs they read (:func:`tables`)."""

from __future__ import annotations

import pandas as pd

from ._core import Context
from ._starving import INT, NO_NOISE, label_runs

FIGS = ("fig2a", "fig2b", "fig2c", "fig2d")
TWO_ARM = ("fig2a", "fig2b")
PRIVATE = ("dp_ucb_bound", "dp_ucb_tossou", "private_ucb")
OURS = ("ucb", INT, "dp_ucb_tossou", "dp_ucb_bound")
FACTORS = (NO_NOISE, 0.5, 1.0, 2.0)
ABLATION_FIGS = ("fig2a", "fig2c")  # epsilon = 1 (f = 16), where starving runs are frequent enough to count
ABLATION_RUNS = 500  # per panel and noise factor: 2 x 4 x 500 replayed runs of T = 1e5, about 40 s
PAPER_RUNS = 100  # "Experimental results with 100 runs" (Figure 2)
SPREAD_OURS, SPREAD_PRIVATE_UCB = 664.5, 15_000.0  # the claims' thresholds (claims/tossou2016.py)
MAX_OUTLIERS = 5  # "a few" of 100 runs
OUTLIER_Z = 6.0  # robust z-score of an outlying run (median +- 6 x 1.4826 MAD; a normal sample of 100 has none)
METRICS = {"pseudo": "final_regret", "realised": "final_realised_regret"}
SECTION4 = "Section 4, Experiments"


def tables(ctx: Context, figures=FIGS) -> tuple[pd.DataFrame, pd.DataFrame]:
    """(curves, runs labelled by :func:`label_runs`) of ``figures``."""
    curves = pd.concat([ctx.curves(f) for f in figures], ignore_index=True)
    curves["variant"] = curves["variant"].fillna("")
    runs = pd.concat([ctx.runs(f) for f in figures], ignore_index=True)
    return curves, label_runs(runs, curves)


def bound_at_horizon(curves: pd.DataFrame, figure: str, curve: str) -> float:
    rows = curves[(curves["figure"] == figure) & (curves["curve"] == curve)]
    return float(rows.loc[rows["t"].idxmax(), "bound"])
