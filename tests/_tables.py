"""Synthetic results folders in the layout the claims and the diagnoses read: figure tables
(``figures/<paper>/<figure>.csv`` and ``<figure>_runs.csv``, or a reading's folder with its manifest) and the
claims file (``claims/<paper>.csv``)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd

from dpbandits.diagnoses import Context


class Tables:
    """Curves of one paper and, per curve, its runs' finals, written by :meth:`write`.

    :meth:`add` takes a curve's checkpoints ``t`` and means ``mean``. ``sem``: absolute standard error (scalar or
    per checkpoint; default 0.5% of the mean); ``sem_step``: that of the increment since the previous checkpoint
    (default 0.01% of the increment); ``bound``: a theory bound (scalar or per checkpoint; default none);
    ``curve``: the legend label (default ``"<algorithm><variant> (ε=<epsilon>)"``). ``finals`` and ``realised``:
    per-run final pseudo- and realised regret (default: the curve's final mean, ``runs`` times). ``pulls``: per-run
    final pull counts, one string for all runs or one per run (see :func:`pulls`); None: no runs rows.
    """

    def __init__(self, paper: str):
        self.paper, self.curves, self.runs = paper, [], []

    def add(
        self,
        figure,
        algorithm,
        epsilon,
        t,
        mean,
        *,
        panel=0,
        instance="C2, K=3",
        variant="",
        curve=None,
        sem=None,
        sem_step=None,
        bound=np.nan,
        runs=4,
        finals=None,
        realised=None,
        pulls="1 2",
    ):
        t, mean = np.asarray(t), np.asarray(mean, dtype=float)
        sem = 0.005 * mean if sem is None else np.broadcast_to(np.asarray(sem, dtype=float), mean.shape)
        step = 1e-4 * np.abs(np.diff(mean, prepend=0.0))
        sem_step = step if sem_step is None else np.broadcast_to(np.asarray(sem_step, dtype=float), mean.shape)
        curve = f"{algorithm}{variant} (ε={epsilon})" if curve is None else curve
        self.curves.append(
            pd.DataFrame(
                {
                    "paper": self.paper,
                    "figure": figure,
                    "panel": panel,
                    "panel_title": f"panel {panel}",
                    "instance": instance,
                    "curve": curve,
                    "algorithm": algorithm,
                    "variant": variant,
                    "epsilon": epsilon,
                    "t": t,
                    "mean": mean,
                    "sem": sem,
                    "std": sem * np.sqrt(runs),
                    "sem_step": sem_step,
                    "min": mean,
                    "max": mean,
                    "runs": runs,
                    "bound": bound,
                }
            )
        )
        if pulls is None:
            return
        finals = np.full(runs, mean[-1]) if finals is None else np.asarray(finals, dtype=float)
        realised = finals if realised is None else np.asarray(realised, dtype=float)
        pulls = [pulls] * len(finals) if isinstance(pulls, str) else pulls
        for run, (final, real, p) in enumerate(zip(finals, realised, pulls, strict=True)):
            self.runs.append(
                {
                    "paper": self.paper,
                    "figure": figure,
                    "panel": panel,
                    "curve": curve,
                    "algorithm": algorithm,
                    "variant": variant,
                    "epsilon": epsilon,
                    "run": run,
                    "horizon": int(t[-1]),
                    "final_regret": final,
                    "final_realised_regret": real,
                    "pulls": p,
                }
            )

    def write(self, results: Path, copies=None, reading: str | None = None, level: str | None = None) -> None:
        """Write every figure under ``results`` (or under ``reading``'s folder, with its manifest, whose support in
        the paper's text is ``level`` if given); ``copies`` {new figure: source figure} duplicates figures under
        other names."""
        base = results / "figures" / self.paper
        if reading is not None:
            base = results / "readings" / reading.replace("=", "_") / "figures" / self.paper
        base.mkdir(parents=True, exist_ok=True)
        if reading is not None:
            meta = {"reading": reading}
            if level is not None:
                meta["support"] = {self.paper: {"level": level, "relative": 0, "text": f"{reading}: {level}"}}
            (base / "reading.json").write_text(json.dumps(meta))
        curves = pd.concat(self.curves, ignore_index=True)
        runs = pd.DataFrame(self.runs) if self.runs else pd.DataFrame({"figure": []})
        for new, src in (copies or {}).items():
            curves = pd.concat([curves, curves[curves["figure"] == src].assign(figure=new)], ignore_index=True)
            runs = pd.concat([runs, runs[runs["figure"] == src].assign(figure=new)], ignore_index=True)
        for fig, df in curves.groupby("figure"):
            df.to_csv(base / f"{fig}.csv", index=False)
            if (runs["figure"] == fig).any():
                runs[runs["figure"] == fig].to_csv(base / f"{fig}_runs.csv", index=False)


def pulls(best_pulls, k: int, best: int, horizon: int) -> list[str]:
    """Per-run pull counts: arm ``best`` pulled ``best_pulls[i]`` times, the next arm the rest of ``horizon``."""
    out = []
    for bp in best_pulls:
        counts = np.zeros(k, dtype=int)
        counts[best] = bp
        counts[(best + 1) % k] = horizon - bp
        out.append(" ".join(map(str, counts)))
    return out


def write_claims(results: Path, paper: str, rows: list[dict]) -> None:
    """The claims file; each row: claim_id, verdict and optionally reading (default "default"), robustness
    (default "robust"), changed_by and numbers."""
    (results / "claims").mkdir(parents=True, exist_ok=True)
    full = [
        {"reading": "default", "robustness": "robust", "changed_by": "", "numbers": "", "paper": paper, **r}
        for r in rows
    ]
    pd.DataFrame(full).to_csv(results / "claims" / f"{paper}.csv", index=False)


def context(results: Path, paper: str, tmp: Path, scale=None) -> Context:
    """The diagnoses' Context of ``paper`` on ``results`` (figures drawn under ``tmp/png``)."""
    return Context(results, paper, seed=1, scale=scale or {}, figure_dir=tmp / "png")
