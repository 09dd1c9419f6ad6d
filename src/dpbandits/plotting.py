"""Figures and tidy summaries of regret curves (one figure file per paper figure)."""

from __future__ import annotations

import textwrap

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

from .catalogue import Figure, describe  # noqa: E402
from .instances import instance_label  # noqa: E402
from .theory import bound_for  # noqa: E402

BANDS = {"sem": "±1 s.e. of the mean", "std": "±1 s.d. across runs", "minmax": "min–max over runs", "none": ""}


def curve_table(fig: Figure, results: dict[str, dict]) -> pd.DataFrame:
    """Tidy per-checkpoint summary: one row per (panel, curve, t) with mean, sem, std, min, max."""
    rows = []
    for p_idx, panel in enumerate(fig.panels):
        for curve in panel.curves:
            res = results[curve.cid][curve.epsilon]
            reg = res.regret[: fig.runs]
            n = reg.shape[0]
            sd = reg.std(axis=0, ddof=1) if n > 1 else np.zeros(reg.shape[1])
            meta = res.meta
            bound = bound_for(curve.algorithm, meta["means"], res.checkpoints, meta["epsilon"], meta["params"],
                              meta["horizon"])
            rows.append(pd.DataFrame({
                "paper": fig.paper, "figure": fig.name, "panel": p_idx, "panel_title": panel.title,
                "instance": instance_label(panel.instance), "curve": curve.label,
                "algorithm": curve.algorithm, "variant": curve.variant,
                "epsilon": np.nan if curve.epsilon is None else curve.epsilon,
                "t": res.checkpoints, "mean": reg.mean(axis=0), "sem": sd / np.sqrt(n), "std": sd,
                "min": reg.min(axis=0), "max": reg.max(axis=0), "runs": n,
                "bound": np.nan if bound is None else bound,
            }))
    return pd.concat(rows, ignore_index=True)


def run_table(fig: Figure, results: dict[str, dict]) -> pd.DataFrame:
    """Per-run final values: pseudo-regret, realised regret and pull counts at the horizon."""
    rows = []
    for p_idx, panel in enumerate(fig.panels):
        for curve in panel.curves:
            res = results[curve.cid][curve.epsilon]
            real = res.realised_regret
            for j in range(min(fig.runs, res.regret.shape[0])):
                rows.append({
                    "paper": fig.paper, "figure": fig.name, "panel": p_idx, "curve": curve.label,
                    "algorithm": curve.algorithm, "variant": curve.variant,
                    "epsilon": np.nan if curve.epsilon is None else curve.epsilon,
                    "run": res.meta["run_ids"][j], "horizon": int(res.checkpoints[-1]),
                    "final_regret": res.regret[j, -1], "final_realised_regret": real[j],
                    "pulls": " ".join(map(str, res.pulls[j])),
                })
    return pd.DataFrame(rows)


def _grid(n: int) -> tuple[int, int]:
    return (1, n) if n <= 3 else (2, (n + 1) // 2)


def caption(fig: Figure) -> str:
    """Caption: what the figure shows and with which settings."""
    band = BANDS[fig.spec.get("band", "sem")]
    text = fig.spec.get("caption", f"{fig.paper} {fig.name}")
    shade = f" Shaded: {band}." if band else ""
    bounds = " Dotted: the papers' regret upper bounds (theory overlays)." if fig.theory else ""
    return f"{text} Mean cumulative pseudo-regret over runs.{shade}{bounds} Settings: {describe(fig)}."


def _palette(labels: list) -> dict:
    """{label: colour}: matplotlib's tab10 (tab20 beyond ten curves)."""
    cmap = plt.get_cmap("tab10" if len(labels) <= 10 else "tab20")
    return {label: cmap(i % cmap.N) for i, label in enumerate(labels)}


def _caption_strip(mfig, text: str, cols: int) -> None:
    """Write the caption under the panels and set fixed margins in inches (much cheaper than tight_layout)."""
    lines = textwrap.wrap(text, int(15 * 4.6 * cols))
    mfig.text(0.01, 0.005, "\n".join(lines), fontsize=7, va="bottom")
    width, height = mfig.get_size_inches()
    rows = -(-len(mfig.axes) // cols)
    left, right, top, gap = 0.75, 0.15, 0.35, 0.85  # gap: room for a title, tick labels and an axis label
    bottom = 0.1 * len(lines) + 0.65
    panel_w = (width - left - right - (cols - 1) * gap) / cols
    panel_h = (height - bottom - top - (rows - 1) * gap) / rows
    mfig.subplots_adjust(left=left / width, right=1 - right / width, bottom=bottom / height, top=1 - top / height,
                         wspace=gap / panel_w, hspace=gap / panel_h)


def regret_figure(fig: Figure, table: pd.DataFrame):
    """Draw the figure from :func:`curve_table`'s output; returns a matplotlib Figure."""
    rows, cols = _grid(len(fig.panels))
    mfig, axes = plt.subplots(rows, cols, figsize=(4.6 * cols, 3.6 * rows + 0.9), squeeze=False)
    band = fig.spec.get("band", "sem")
    labels = list(dict.fromkeys(table["curve"]))
    palette = _palette(labels)
    for p_idx, panel in enumerate(fig.panels):
        ax = axes.flat[p_idx]
        sub = table[table["panel"] == p_idx]
        for label, df in sub.groupby("curve", sort=False):
            t, m = df["t"].to_numpy(), df["mean"].to_numpy()
            style = "--" if df["variant"].iloc[0] else "-"
            ax.plot(t, m, style, color=palette[label], label=label, lw=1.4)
            if band != "none":
                lo, hi = (df["min"], df["max"]) if band == "minmax" else (m - df[band], m + df[band])
                ax.fill_between(t, lo, hi, color=palette[label], alpha=0.18, lw=0)
            if fig.theory and df["bound"].notna().all():
                ax.plot(t, df["bound"], ":", color=palette[label], lw=1.0, label=f"bound: {label}")
        ax.set_xscale(fig.spec.get("xscale", "linear"))
        ax.set_yscale(fig.spec.get("yscale", "linear"))
        top = (sub["max"] if band == "minmax" else sub["mean"] + sub["sem" if band == "none" else band]).max()
        if fig.spec.get("yscale", "linear") == "linear" and np.isfinite(top) and top > 0:
            ax.set_ylim(0, 1.15 * top)  # bounds may lie far above the data: clip them
        ax.set_title(panel.title or instance_label(panel.instance), fontsize=10)
        ax.set_xlabel("t")
        ax.set_ylabel("cumulative pseudo-regret")
        ax.grid(alpha=0.3)
        ax.legend(fontsize=7, loc="upper left")  # regret grows to the right: a fixed corner, no costly "best" search
    for ax in list(axes.flat)[len(fig.panels):]:
        ax.set_visible(False)
    _caption_strip(mfig, caption(fig), cols)
    return mfig


def success_table(fig: Figure, success: dict[str, np.ndarray]) -> pd.DataFrame:
    """Tidy BAI summary: one row per (panel, curve, x) with successes, trials, rate and 95% Wilson CI.

    ``success[cid]`` is bool[V, R]: V swept values of the curve, R trials.
    """
    from .bai import wilson_interval

    rows = []
    for p_idx, panel in enumerate(fig.panels):
        for curve in panel.curves:
            for x, s in zip(curve.x, success[curve.cid][:, : fig.runs], strict=True):
                lo, hi = wilson_interval(int(s.sum()), s.size)
                eps = x if panel.x == "epsilon" and curve.epsilon is None else curve.epsilon
                rows.append({
                    "paper": fig.paper, "figure": fig.name, "panel": p_idx, "panel_title": panel.title,
                    "x_name": panel.x, "x": x, "curve": curve.label, "algorithm": curve.algorithm,
                    "variant": curve.variant, "epsilon": np.nan if eps is None else eps,
                    "successes": int(s.sum()), "trials": s.size, "rate": s.mean(), "lo": lo, "hi": hi,
                })
    return pd.DataFrame(rows)


def recommendation_table(fig: Figure, recommended: dict[str, np.ndarray]) -> pd.DataFrame:
    """How often each arm was recommended, per (panel, curve, x); ``recommended[cid]`` is int[V, R]."""
    rows = []
    for p_idx, panel in enumerate(fig.panels):
        for curve in panel.curves:
            for x, rec in zip(curve.x, recommended[curve.cid][:, : fig.runs], strict=True):
                arms, counts = np.unique(rec, return_counts=True)
                rows.extend({"figure": fig.name, "panel": p_idx, "curve": curve.label, "x": x,
                             "arm": int(a), "count": int(c)} for a, c in zip(arms, counts, strict=True))
    return pd.DataFrame(rows)


def success_figure(fig: Figure, table: pd.DataFrame):
    """Success rate vs the swept value, one panel per config panel, 95% Wilson intervals as bars."""
    rows, cols = _grid(len(fig.panels))
    mfig, axes = plt.subplots(rows, cols, figsize=(4.6 * cols, 3.6 * rows + 0.9), squeeze=False)
    labels = list(dict.fromkeys(table["curve"]))
    palette = _palette(labels)
    for p_idx, panel in enumerate(fig.panels):
        ax = axes.flat[p_idx]
        for label, df in table[table["panel"] == p_idx].groupby("curve", sort=False):
            df = df.sort_values("x")
            err = np.vstack([df["rate"] - df["lo"], df["hi"] - df["rate"]])
            style = "--" if df["variant"].iloc[0] else "-"
            ax.errorbar(df["x"], df["rate"], yerr=err, fmt="o" + style, ms=3, capsize=2,
                        color=palette[label], label=label, lw=1.2)
        ax.set_xscale(panel.xscale)
        ax.set_ylim(-0.02, 1.02)
        ax.set_title(panel.title, fontsize=10)
        ax.set_xlabel({"budget": "budget T", "epsilon": "ε", "ratio": "ratio r"}[panel.x])
        ax.set_ylabel("success rate")
        ax.grid(alpha=0.3)
        ax.legend(fontsize=7)
    for ax in list(axes.flat)[len(fig.panels):]:
        ax.set_visible(False)
    text = (f"{fig.spec.get('caption', fig.name)} Success rate over {fig.runs} trials; bars: 95% Wilson "
            f"intervals. Settings: {describe(fig)}.")
    _caption_strip(mfig, text, cols)
    return mfig
