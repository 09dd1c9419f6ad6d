"""Cross-paper summary: final regret of every algorithm on every instance, normalised and ranked."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from . import registry


def final_regret(curve_tables) -> pd.DataFrame:
    """Final mean regret (and s.e.) per (instance, epsilon, algorithm) from crosspaper curve tables.

    Non-private algorithms (epsilon NaN) are repeated for every epsilon of their panel.
    """
    rows = []
    for path in curve_tables:
        df = pd.read_csv(path)
        last = df[df["t"] == df.groupby(["panel", "curve"])["t"].transform("max")]
        for _, panel in last.groupby("panel"):
            eps = panel["epsilon"].dropna().unique()
            for r in panel.itertuples():
                rows.append({"instance": r.figure, "epsilon": float(eps[0]) if len(eps) else np.nan,
                             "algorithm": r.algorithm, "label": r.curve.split(" (ε")[0],
                             "final_regret": r.mean, "sem": r.sem, "horizon": r.t})
    return pd.DataFrame(rows)


def normalised(finals: pd.DataFrame) -> pd.DataFrame:
    """Final regret divided by the best *private* algorithm's in the same (instance, epsilon) cell."""
    private = finals["algorithm"].map(lambda a: registry.ALGORITHMS[a].private)
    best = finals[private].groupby(["instance", "epsilon"])["final_regret"].min().rename("best_private")
    out = finals.join(best, on=["instance", "epsilon"])
    out["ratio_to_best_private"] = out["final_regret"] / out["best_private"]
    return out


def ranking(norm: pd.DataFrame) -> pd.DataFrame:
    """Private algorithms ranked by their mean rank over all (instance, epsilon) cells (1 = best)."""
    private = norm[norm["algorithm"].map(lambda a: registry.ALGORITHMS[a].private)].copy()
    private["rank"] = private.groupby(["instance", "epsilon"])["final_regret"].rank(method="average")
    table = private.groupby("label").agg(
        mean_rank=("rank", "mean"), wins=("rank", lambda r: int((r == 1).sum())),
        median_ratio=("ratio_to_best_private", "median"), worst_ratio=("ratio_to_best_private", "max"),
        cells=("rank", "size"),
    )
    return table.sort_values("mean_rank").reset_index()


def write_summary(curve_tables, heatmap_pdf: str, heatmap_png: str, ranking_csv: str, finals_csv: str) -> None:
    """Heat-map of log10(final regret / best private) and the ranking table."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import seaborn as sns

    norm = normalised(final_regret(curve_tables))
    Path(ranking_csv).parent.mkdir(parents=True, exist_ok=True)
    norm.to_csv(finals_csv, index=False)
    rank = ranking(norm)
    rank.to_csv(ranking_csv, index=False)
    grid = norm.pivot_table(index="label", columns=["instance", "epsilon"], values="ratio_to_best_private")
    grid = grid.loc[[lbl for lbl in list(rank["label"]) + ["UCB"] if lbl in grid.index]]
    fig, ax = plt.subplots(figsize=(1.0 + 0.42 * grid.shape[1], 1.2 + 0.42 * grid.shape[0]))
    sns.heatmap(np.log10(grid), ax=ax, cmap="viridis", cbar_kws={"label": "log10(final regret / best private)"},
                annot=grid.round(1).astype(str).to_numpy(), fmt="", annot_kws={"fontsize": 5})
    ax.set_xlabel("instance, ε")
    ax.set_ylabel("")
    ax.set_title("Final regret at T relative to the best private algorithm of each cell "
                 "(rows ordered by mean rank)", fontsize=9)
    fig.tight_layout()
    fig.savefig(heatmap_pdf)
    fig.savefig(heatmap_png, dpi=130)
    plt.close(fig)
