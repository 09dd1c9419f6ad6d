"""Theory check of the replication: no curve's mean regret exceeds the explicit bound of its paper.

Three-valued: every checkpoint's interval below its bound (holds), some mean above its bound beyond its
interval under Holm's correction over the paper's checkpoints (fails), or neither (inconclusive)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from ..core import registry
from ._core import THEORY, Claim, Family, halfwidth, holm, pvalue


def theory(results: str | Path, paper: str | None = None) -> list[Claim]:
    """One claim per paper (``paper`` only, if given) whose figures carry bounds (``bound`` column)."""
    out = []
    for paper_dir in sorted(Path(results, "figures").glob(paper or "*")):
        tables = [pd.read_csv(f) for f in sorted(paper_dir.glob("*.csv")) if not f.stem.endswith("_runs")]
        tables = [t for t in tables if "bound" in t and t["bound"].notna().any()]
        if not tables:
            continue
        df = pd.concat(tables, ignore_index=True)
        df = df[df["bound"].notna()]
        hw = halfwidth(df["sem"].fillna(0), df["runs"] - 1)
        tests = Family(
            pvalue(df["bound"] - df["mean"], df["sem"].fillna(0), df["runs"] - 1),
            pvalue(df["mean"] - df["bound"], df["sem"].fillna(0), df["runs"] - 1),
        )
        bad = df[holm(tests.fail)]
        k = int(np.argmax((df["mean"].to_numpy() + hw) / df["bound"].to_numpy()))
        worst, w_hw = df.iloc[k], float(hw[k])
        nums = {
            "curves checked": df.groupby(["figure", "panel", "curve"]).ngroups,
            "checkpoints checked": len(df),
            "largest mean/bound": float((df["mean"] / df["bound"]).max()),
            "worst checkpoint": f"{worst['figure']} {worst['curve']} t={int(worst['t'])}: "
            f"{worst['mean']:.4g} ± {w_hw:.4g} against {worst['bound']:.4g}",
        }
        if len(bad):
            nums["violations"] = "; ".join(sorted({f"{r.figure} {r.curve}" for r in bad.itertuples()}))
        bounds = "; ".join(
            f"{alg.label}: {alg.bound.label}"
            for alg in registry.ALGORITHMS.values()
            if alg.name in set(df["algorithm"]) and alg.bound is not None
        )
        out.append(
            Claim(
                paper_dir.name,
                "theory",
                "Mean regret stays below the papers' explicit upper bounds.",
                f"holds if mean + t half-width (Student t, runs - 1 df) <= bound at every checkpoint of every curve "
                f"with a bound; fails if some mean lies above its bound beyond the t half-width, under Holm's "
                f"correction over all of the paper's bounded checkpoints; else inconclusive ({bounds})",
                tests.verdict(),
                f"{len(bad)} checkpoints above their bound under Holm; worst checkpoint: largest (mean + half-width) "
                "/ bound",
                nums,
                THEORY,
            )
        )
    return out


__all__ = ["theory"]
