"""Theory check of the replication: no curve's mean regret exceeds its spec's explicit bound."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from ._core import FAILS, HOLDS, Claim


def theory(results: str | Path) -> list[Claim]:
    """One claim per paper whose figures carry bounds (``bound`` column of the curve tables)."""
    out = []
    for paper_dir in sorted(Path(results, "figures").glob("*")):
        tables = [pd.read_csv(f) for f in sorted(paper_dir.glob("*.csv")) if not f.stem.endswith("_runs")]
        tables = [t for t in tables if "bound" in t and t["bound"].notna().any()]
        if not tables:
            continue
        df = pd.concat(tables, ignore_index=True)
        df = df[df["bound"].notna()]
        excess = df["mean"] - 2 * df["sem"].fillna(0) - df["bound"]
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
        out.append(Claim(
            paper_dir.name, "theory", "Mean regret stays below the spec's explicit upper bounds.",
            "at every checkpoint, mean - 2 s.e. <= bound for every curve with a bound (UCB1; Tossou Thm 3.2, 3.3, "
            "3.5; DP-SE Lemma 4.2 w.p. 1 - beta)",
            FAILS if len(bad) else HOLDS, f"{len(bad)} checkpoints above their bound", nums,
        ))
    return out


def write_ledger(results: str | Path, csv: str | Path, md: str | Path) -> pd.DataFrame:
    """Evaluate every paper's claims whose figures exist, plus the theory checks; write CSV and Markdown."""
    from . import PAPERS

    rows = []
    for paper, fn in PAPERS.items():
        if Path(results, "figures", paper).is_dir():
            rows.extend(c.row() for c in fn(results))
    rows.extend(c.row() for c in theory(results))
    df = pd.DataFrame(rows)
    df.to_csv(csv, index=False)
    counts = df["verdict"].value_counts().to_dict()
    lines = [
        "# Claims ledger",
        "",
        "Every empirical claim of the papers, with a verdict computed from this run's simulations "
        f"({', '.join(f'{v}: {n}' for v, n in counts.items())}).",
        "",
        "| paper | claim | verdict | statement | criterion | numbers |",
        "|---|---|---|---|---|---|",
    ]
    for r in df.itertuples():
        cells = [r.paper, r.claim_id, f"**{r.verdict}**", r.statement, r.criterion, r.numbers]
        lines.append("| " + " | ".join(str(c).replace("|", "/").replace("\n", " ") for c in cells) + " |")
    Path(md).write_text("\n".join(lines) + "\n")
    return df


__all__ = ["theory", "write_ledger"]
