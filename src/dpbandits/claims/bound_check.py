"""Theory check of the replication: no curve's mean regret exceeds the explicit bound of its paper."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from ..core import registry
from ._core import CHECK, FAILS, HOLDS, Claim, halfwidth


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
        excess = df["mean"] - halfwidth(df["sem"].fillna(0), df["runs"] - 1) - df["bound"]
        bad = df[excess > 0]
        worst = df.loc[(df["mean"] / df["bound"]).idxmax()]
        nums = {
            "curves checked": df.groupby(["figure", "panel", "curve"]).ngroups,
            "checkpoints checked": len(df),
            "largest mean/bound": float(worst["mean"] / worst["bound"]),
            "where": f"{worst['figure']} {worst['curve']} t={int(worst['t'])}",
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
                f"at every checkpoint, mean - t half-width (Student t, runs - 1 df) <= bound for every curve with a "
                f"bound ({bounds})",
                FAILS if len(bad) else HOLDS,
                f"{len(bad)} checkpoints above their bound",
                nums,
                CHECK,
            )
        )
    return out


__all__ = ["theory"]
