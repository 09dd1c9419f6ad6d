"""The figure and reading rules' entry points: a figure's tidy tables from its simulation chunks, and its drawing."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from ..pipeline.catalogue.model import Figure
from ..pipeline.io import check_bai_shapes, load_groups, load_member
from . import plotting, style


def load_bai(paths, cid: str) -> dict[str, np.ndarray]:
    """``success`` and ``recommended`` arrays [V, R] of BAI curve ``cid``, runs concatenated in file order."""
    parts = []
    for path in paths:
        meta, part = load_member(path, cid)
        check_bai_shapes(path, cid, meta, part)
        parts.append(part)
    return {key: np.concatenate([part[key] for part in parts], axis=1) for key in ("success", "recommended")}


def write_tables(fig: Figure, sims: dict[str, list[str]], csv: str, runs_csv: str):
    """Load a figure's configurations ({cid: job files in run order}) and write its tidy tables.

    Returns the curve table (regret: one row per checkpoint; BAI: one row per swept value).
    """
    Path(csv).parent.mkdir(parents=True, exist_ok=True)
    if fig.spec["kind"] == "bai":
        data = {cid: load_bai(paths, cid) for cid, paths in sims.items()}
        table = plotting.success_table(fig, {cid: d["success"] for cid, d in data.items()})
        runs = plotting.recommendation_table(fig, {cid: d["recommended"] for cid, d in data.items()})
    else:
        results = {cid: load_groups(paths, cid) for cid, paths in sims.items()}
        table = plotting.curve_table(fig, results)
        runs = plotting.run_table(fig, results)
    table.to_csv(csv, index=False)
    runs.to_csv(runs_csv, index=False)
    return table


def privacy_note(fig: Figure, spent) -> str:
    """The caption's warning for the curves of ``fig`` whose algorithm spends more privacy than it promises, from
    ``spent``, a paper's ``results/privacy/<paper>.csv`` as a DataFrame (:func:`dpbandits.privacy.table`; its
    default reading's rows)."""
    drawn = {c.algorithm for p in fig.panels for c in p.curves}
    over = spent[(spent["reading"] == "default") & (spent["exceeds"] == "yes") & spent["algorithm"].isin(drawn)]
    if over.empty:
        return ""
    items = "; ".join(f"{r.label} {r.spent:.3g} at eps={r.epsilon:g}" for r in over.itertuples())
    return f"Spends more privacy than promised (worst reward, T={over['horizon'].max():g}): {items}."


def make_figure(fig: Figure, sims: dict[str, list[str]], pdf: str, png: str, csv: str, runs_csv: str) -> None:
    """Write a figure's tidy tables (:func:`write_tables`) and draw it."""
    import matplotlib.pyplot as plt

    table = write_tables(fig, sims, csv, runs_csv)
    if fig.spec["kind"] == "bai":
        draw = plotting.success_figure
    elif fig.frontier:
        from .frontier import frontier_figure as draw
    else:
        draw = plotting.regret_figure
    mfig = draw(fig, table)
    style.save(mfig, pdf, png)
    plt.close(mfig)
