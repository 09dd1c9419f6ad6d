"""Cross-paper summary: final regret of every algorithm on every instance, normalised and ranked."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from ..core import registry


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
                rows.append(
                    {
                        "instance": r.figure,
                        "epsilon": float(eps[0]) if len(eps) else np.nan,
                        "algorithm": r.algorithm,
                        "label": r.curve.split(" (ε")[0],
                        "final_regret": r.mean,
                        "sem": r.sem,
                        "horizon": r.t,
                    }
                )
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
        mean_rank=("rank", "mean"),
        wins=("rank", lambda r: int((r == 1).sum())),
        median_ratio=("ratio_to_best_private", "median"),
        worst_ratio=("ratio_to_best_private", "max"),
        cells=("rank", "size"),
    )
    return table.sort_values("mean_rank").reset_index()


def _annotation(ratio: float) -> str:
    """A cell's ratio in two significant digits (1.3, 12, 240)."""
    if not np.isfinite(ratio):
        return ""
    return f"{ratio:.1f}" if ratio < 9.95 else f"{ratio:.0f}"


def heatmap(norm: pd.DataFrame, rank: pd.DataFrame):
    """One heat-map per epsilon: rows are the algorithms, best mean rank first (numbered), the non-private
    reference last; columns the instances; each cell annotated with final regret / best private's."""
    import matplotlib.pyplot as plt
    import seaborn as sns
    from matplotlib.transforms import blended_transform_factory

    from . import style

    labels = {registry.ALGORITHMS[a].label: a for a in norm["algorithm"]}
    order = list(rank["label"]) + sorted(lbl for lbl in labels if lbl not in set(rank["label"]))
    names = {lbl: f"{i}. {lbl}" if i <= len(rank) else f"{lbl} (non-private)" for i, lbl in enumerate(order, 1)}
    norm = norm.assign(label=norm["algorithm"].map(lambda a: registry.ALGORITHMS[a].label))
    instances = list(dict.fromkeys(norm["instance"]))
    epsilons = sorted(norm["epsilon"].dropna().unique())
    log_ratio = np.log10(norm["ratio_to_best_private"])
    vmax = max(1.0, float(np.nanmax(log_ratio)))
    with plt.rc_context(style.RC):
        cols = 2 if len(epsilons) > 1 else 1
        grid_rows = -(-len(epsilons) // cols)
        height = grid_rows * (0.2 * len(order) + 0.3) + 1.0
        fig, axes = plt.subplots(
            grid_rows, cols, figsize=(style.TWO_COLUMN, height), squeeze=False, sharey=True, sharex=True
        )
        cbar_ax = fig.add_axes((0.93, 0.2, 0.012, 0.6))
        for i, (ax, eps) in enumerate(zip(axes.flat, epsilons, strict=False)):
            cell = norm[norm["epsilon"] == eps].pivot_table(
                index="label", columns="instance", values="ratio_to_best_private"
            )
            cell = cell.reindex(index=order, columns=instances)
            sns.heatmap(
                np.log10(cell),
                ax=ax,
                cmap="rocket_r",
                vmin=0,
                vmax=vmax,
                cbar=i == 0,
                cbar_ax=cbar_ax,
                cbar_kws={"label": "log10(final regret / best private)"},
                annot=np.vectorize(_annotation)(cell.to_numpy()),
                fmt="",
                annot_kws={"fontsize": 6},
                linewidths=0.5,
                linecolor="white",
            )
            ax.axhline(len(rank), color="black", lw=1.0)  # private algorithms above, the reference below
            ax.set_title(f"ε = {eps:g}")
            ax.set(xlabel="", ylabel="")
            ax.tick_params(length=0)
            ax.grid(False)
        for i, ax in enumerate(axes.flat):  # after every heat-map: they share their tick labels
            ax.set_xticks(np.arange(len(instances)) + 0.5, instances, rotation=30, ha="right")
            if i % cols == 0:
                ax.set_yticks(np.arange(len(order)) + 0.5, [names[lbl] for lbl in order], rotation=0)
                ax.tick_params(axis="y", pad=9)
                mark = blended_transform_factory(ax.transAxes, ax.transData)
                for y, lbl in enumerate(order):
                    ident = style.identity(labels[lbl])
                    ax.plot(
                        -0.025, y + 0.5, marker=ident.marker, color=ident.colour, ms=4, transform=mark, clip_on=False
                    )
        for ax in list(axes.flat)[len(epsilons) :]:
            ax.set_visible(False)
        fig.suptitle(
            "Final regret at T over the best private algorithm's in each cell; rows by mean rank "
            "(1 = best) over all cells",
            fontsize=8,
        )
        fig.subplots_adjust(left=0.2, right=0.9, top=1 - 0.45 / height, bottom=0.55 / height, hspace=0.15, wspace=0.05)
    return fig


def write_summary(curve_tables, heatmap_pdf: str, heatmap_png: str, ranking_csv: str, finals_csv: str):
    """Heat-map of final regret / best private (see :func:`heatmap`) and the ranking table; returns the figure."""
    from . import style

    norm = normalised(final_regret(curve_tables))
    Path(ranking_csv).parent.mkdir(parents=True, exist_ok=True)
    norm.to_csv(finals_csv, index=False)
    rank = ranking(norm)
    rank.to_csv(ranking_csv, index=False)
    fig = heatmap(norm, rank)
    style.save(fig, heatmap_pdf, heatmap_png)
    return fig
