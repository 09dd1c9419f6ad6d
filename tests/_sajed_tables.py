"""Small synthetic results folders in the layout :class:`dpbandits.diagnoses.Context` reads, for the Sajed
diagnoses' tests: a claims file, figure tables (curves and per-run finals) and readings' tables."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd

RUNS = 30


def curve_rows(figure, instance, algorithm, epsilon, points, sem=1.0, runs=RUNS, panel=0) -> list[dict]:
    """Rows of a curve table: ``points`` = [(t, mean), ...]."""
    return [
        {
            "figure": figure,
            "panel": panel,
            "instance": instance,
            "algorithm": algorithm,
            "variant": "",
            "epsilon": epsilon,
            "t": t,
            "mean": mean,
            "sem": sem,
            "runs": runs,
        }
        for t, mean in points
    ]


def run_rows(figure, algorithm, epsilon, pulls, horizon, runs=RUNS, panel=0) -> list[dict]:
    """Per-run rows, every run with the same final pull counts ``pulls`` (list of ints)."""
    return [
        {
            "figure": figure,
            "panel": panel,
            "algorithm": algorithm,
            "variant": "",
            "epsilon": epsilon,
            "run": i,
            "horizon": horizon,
            "pulls": " ".join(map(str, pulls)),
        }
        for i in range(runs)
    ]


def write_figure(base: Path, paper: str, figure: str, curves: list[dict], runs: list[dict] = ()) -> None:
    d = base / "figures" / paper
    d.mkdir(parents=True, exist_ok=True)
    pd.DataFrame(curves).to_csv(d / f"{figure}.csv", index=False)
    if runs:
        pd.DataFrame(runs).to_csv(d / f"{figure}_runs.csv", index=False)


def write_reading(base: Path, paper: str, reading: str, figure: str, curves: list[dict]) -> None:
    d = base / "readings" / reading / "figures" / paper
    d.mkdir(parents=True, exist_ok=True)
    (d / "reading.json").write_text(json.dumps({"reading": reading}))
    pd.DataFrame(curves).to_csv(d / f"{figure}.csv", index=False)


def write_claims(base: Path, paper: str, rows: list[dict]) -> None:
    """Claims file; each row: claim_id, verdict and optionally reading, robustness, changed_by, numbers."""
    d = base / "claims"
    d.mkdir(parents=True, exist_ok=True)
    full = [
        {"reading": "default", "robustness": "robust", "changed_by": "", "numbers": "", "paper": paper, **r}
        for r in rows
    ]
    pd.DataFrame(full).to_csv(d / f"{paper}.csv", index=False)
