"""Synthetic results folders in the layout a diagnosis's Context reads (claims csv, figure csv and _runs.csv,
readings' tables), for the tests of the tossou2016 and crosspaper diagnoses."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd

from dpbandits.diagnoses import Context


def runs_rows(figure, curve, algorithm, finals, best_pulls, k, best, horizon, epsilon, variant="", realised=None):
    """Runs-table rows of one curve: final regrets ``finals``, the best arm's pulls ``best_pulls`` (the rest on the
    next arm)."""
    realised = finals if realised is None else realised
    rows = []
    for i, (reg, bp) in enumerate(zip(finals, best_pulls, strict=True)):
        pulls = np.zeros(k, dtype=int)
        pulls[best] = bp
        pulls[(best + 1) % k] = horizon - bp
        rows.append(
            {
                "figure": figure,
                "panel": 0,
                "curve": curve,
                "algorithm": algorithm,
                "variant": variant,
                "epsilon": epsilon,
                "run": i,
                "horizon": horizon,
                "final_regret": reg,
                "final_realised_regret": realised[i],
                "pulls": " ".join(map(str, pulls)),
            }
        )
    return rows


def curve_rows(figure, instance, curve, algorithm, epsilon, means, sems, bound, ts, variant=""):
    """Curve-table rows: mean and s.e. at checkpoints ``ts``, the bound (a number, NaN for none)."""
    return [
        {
            "figure": figure,
            "panel": 0,
            "instance": instance,
            "curve": curve,
            "algorithm": algorithm,
            "variant": variant,
            "epsilon": epsilon,
            "t": t,
            "mean": m,
            "sem": s,
            "runs": 100,
            "bound": bound,
        }
        for t, m, s in zip(ts, means, sems, strict=True)
    ]


def write_figure(base: Path, figure: str, curves: list[dict], runs: list[dict]) -> None:
    base.mkdir(parents=True, exist_ok=True)
    pd.DataFrame(curves).to_csv(base / f"{figure}.csv", index=False)
    pd.DataFrame(runs).to_csv(base / f"{figure}_runs.csv", index=False)


def write_claims(results: Path, paper: str, rows: list[dict]) -> None:
    """The claims file: rows of claim_id, reading, verdict (numbers and robustness empty unless given)."""
    (results / "claims").mkdir(parents=True, exist_ok=True)
    df = pd.DataFrame([{"numbers": "", "robustness": "", "changed_by": "", **r} for r in rows])
    df.to_csv(results / "claims" / f"{paper}.csv", index=False)


def reading_dir(results: Path, paper: str, reading: str) -> Path:
    """The figure folder of ``reading`` (its manifest written)."""
    base = results / "readings" / reading.replace("=", "_") / "figures" / paper
    base.mkdir(parents=True, exist_ok=True)
    (base / "reading.json").write_text(json.dumps({"reading": reading}))
    return base


def context(results: Path, paper: str, tmp: Path, scale=None) -> Context:
    return Context(results, paper, seed=1, scale=scale or {}, figure_dir=tmp / "png")
