"""What a researcher reads off the frontier (docs/frontier.md, "Reading the frontier"), from its tidy rows.

- :func:`crossovers`: per (instance, private algorithm), the least epsilon of the grid from which its final regret
  stays within ``WITHIN`` (10 %) of the non-private limit, the least final regret of the non-private algorithms on
  that instance (KL-UCB, Thompson sampling and IMED are asymptotically optimal without privacy).
- :func:`slopes`: per (instance, private algorithm), the weighted least-squares slope of ln(regret) in ln(epsilon)
  over the grid's epsilons in [0.1, 1], with its standard error (the delta method: var ln m ~ (s.e./m)^2), against
  the theory's -1 (central DP: an added regret ~ K ln T / epsilon) or -2 (local DP: ~ K ln T / epsilon^2).
- :func:`gap_slopes`: on the two-arm gap sweep (the figure ``frontier/gaps``), per (algorithm, epsilon), the slope of
  ln(regret) in ln(Delta): near -1 where the KL term decides (regret ~ ln T / Delta), near 0 where privacy does
  (~ ln T / epsilon, whatever the gap).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from .bounds import NON_PRIVATE

WITHIN = 0.10  # "within 10 % of the non-private limit"
SLOPE_RANGE = (0.1, 1.0)
THEORY_SLOPE = {"pure": -1.0, "approx": -1.0, "local": -2.0}
GAPS = "gaps"  # the gap sweep's study name (the figure frontier/gaps)


def _fit(x, y, se) -> tuple[float, float]:
    """Weighted least-squares slope of y on x (weights 1/se^2) and its standard error; (nan, nan) below 2 points."""
    x, y, se = (np.asarray(v, dtype=float) for v in (x, y, se))
    ok = np.isfinite(y) & np.isfinite(se) & (se > 0)
    if ok.sum() < 2:
        return np.nan, np.nan
    w = 1.0 / se[ok] ** 2
    xm = np.sum(w * x[ok]) / w.sum()
    sxx = np.sum(w * (x[ok] - xm) ** 2)
    slope = np.sum(w * (x[ok] - xm) * y[ok]) / sxx
    return float(slope), float(1.0 / np.sqrt(sxx))


def crossovers(rows: pd.DataFrame) -> pd.DataFrame:
    """Per (instance, algorithm) of Bernoulli grid rows: ``limit`` (the least non-private final regret) and its
    ``limit_algorithm``, ``crossover`` (the least grid epsilon from which every larger one is within ``WITHIN`` of
    the limit; NaN if none is) and ``at_largest`` (regret / limit at the largest epsilon)."""
    grid = rows[(rows["law"] == "bernoulli") & (rows["study"] != GAPS)]
    out = []
    for inst, cell in grid.groupby("instance", sort=False):
        public = cell[cell["model"] == NON_PRIVATE]
        if public.empty:
            continue
        top = public.loc[public["final_regret"].idxmin()]
        for name, alg in cell[cell["model"] != NON_PRIVATE].groupby("algorithm", sort=False):
            alg = alg.sort_values("epsilon")
            close = (alg["final_regret"] <= (1 + WITHIN) * top["final_regret"]).to_numpy()
            tail = np.flatnonzero(~close)
            start = 0 if tail.size == 0 else tail[-1] + 1
            out.append(
                {
                    "instance": inst,
                    "algorithm": name,
                    "label": alg["label"].iloc[0],
                    "model": alg["model"].iloc[0],
                    "limit_algorithm": top["algorithm"],
                    "limit": top["final_regret"],
                    "crossover": alg["epsilon"].iloc[start] if start < len(alg) else np.nan,
                    "at_largest": alg["final_regret"].iloc[-1] / top["final_regret"],
                }
            )
    return pd.DataFrame(out)


def slopes(rows: pd.DataFrame) -> pd.DataFrame:
    """Per (instance, private algorithm) of Bernoulli grid rows: ``slope`` of ln regret in ln epsilon over
    ``SLOPE_RANGE``, its ``se``, the ``theory`` slope of its model and ``z`` = (slope - theory) / se."""
    lo, hi = SLOPE_RANGE
    grid = rows[(rows["law"] == "bernoulli") & (rows["study"] != GAPS) & (rows["model"] != NON_PRIVATE)]
    grid = grid[(grid["epsilon"] >= lo * 0.999) & (grid["epsilon"] <= hi * 1.001)]
    out = []
    for (inst, name), alg in grid.groupby(["instance", "algorithm"], sort=False):
        slope, se = _fit(np.log(alg["epsilon"]), np.log(alg["final_regret"]), alg["sem"] / alg["final_regret"])
        theory = THEORY_SLOPE[alg["model"].iloc[0]]
        out.append(
            {
                "instance": inst,
                "algorithm": name,
                "label": alg["label"].iloc[0],
                "model": alg["model"].iloc[0],
                "slope": slope,
                "se": se,
                "theory": theory,
                "z": (slope - theory) / se if se > 0 else np.nan,
            }
        )
    return pd.DataFrame(out)


def gap_slopes(rows: pd.DataFrame) -> pd.DataFrame:
    """Per (algorithm, epsilon) of the gap sweep's rows (``gap`` column): ``slope`` of ln regret in ln Delta over
    the sweep, its ``se``, and the regret at the smallest and largest gap."""
    sweep = rows[rows["study"] == GAPS]
    out = []
    for (name, eps), alg in sweep.groupby(["algorithm", "epsilon"], sort=False, dropna=False):
        alg = alg.sort_values("gap")
        slope, se = _fit(np.log(alg["gap"]), np.log(alg["final_regret"]), alg["sem"] / alg["final_regret"])
        out.append(
            {
                "algorithm": name,
                "label": alg["label"].iloc[0],
                "model": alg["model"].iloc[0],
                "epsilon": eps,
                "slope": slope,
                "se": se,
                "smallest_gap_regret": alg["final_regret"].iloc[0],
                "largest_gap_regret": alg["final_regret"].iloc[-1],
            }
        )
    return pd.DataFrame(out)
