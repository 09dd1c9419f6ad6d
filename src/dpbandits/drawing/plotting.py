"""Figures and tidy summaries of regret curves (one figure file per paper figure)."""

from __future__ import annotations

import textwrap

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

from ..core.instances import instance_label  # noqa: E402
from ..pipeline.catalogue.model import Figure  # noqa: E402
from ..pipeline.catalogue.text import describe  # noqa: E402
from . import style  # noqa: E402
from .theory import bound_for  # noqa: E402

BANDS = {"sem": "±1 s.e. of the mean", "std": "±1 s.d. across runs", "minmax": "min–max over runs", "none": ""}


def curve_table(fig: Figure, results: dict[str, dict]) -> pd.DataFrame:
    """Tidy per-checkpoint summary: one row per (panel, curve, t) with mean, sem, std, median, q90 (the 90th
    percentile over runs: a heavy tail shows as q90 far above the median), growth and growth_sem (the mean regret
    per unit of ln t over the last decade, (R_t - R_t') / ln(t / t') with t' the last checkpoint <= t / 10, and its
    s.e.; NaN before t = 10), min, max, and sem_step
    (the s.e. of the mean increment since the previous checkpoint, which the claims' slope readings need)."""
    rows = []
    for p_idx, panel in enumerate(fig.panels):
        for curve in panel.curves:
            res = results[curve.cid][curve.epsilon]
            reg = res.regret[: fig.runs]
            n = reg.shape[0]
            sd = reg.std(axis=0, ddof=1) if n > 1 else np.zeros(reg.shape[1])
            sd_step = np.diff(reg, axis=1, prepend=0.0).std(axis=0, ddof=1) if n > 1 else np.zeros(reg.shape[1])
            # growth over the last decade: (R_t - R_t') / ln(t / t'), t' the last checkpoint <= t / 10, per run
            t_all = np.asarray(res.checkpoints)
            back = np.searchsorted(t_all, t_all / 10.0, side="right") - 1
            ok = back >= 0
            growth = np.full((n, t_all.size), np.nan)
            growth[:, ok] = (reg[:, ok] - reg[:, back[ok]]) / np.log(t_all[ok] / t_all[back[ok]])
            meta = res.meta
            bound = bound_for(
                curve.algorithm, meta["means"], res.checkpoints, meta["epsilon"], meta["params"], meta["horizon"]
            )
            rows.append(
                pd.DataFrame(
                    {
                        "paper": fig.paper,
                        "figure": fig.name,
                        "panel": p_idx,
                        "panel_title": panel.title,
                        "instance": instance_label(panel.instance),
                        "curve": curve.label,
                        "algorithm": curve.algorithm,
                        "variant": curve.variant,
                        "epsilon": np.nan if curve.epsilon is None else curve.epsilon,
                        "t": res.checkpoints,
                        "mean": reg.mean(axis=0),
                        "sem": sd / np.sqrt(n),
                        "std": sd,
                        "sem_step": sd_step / np.sqrt(n),
                        "median": np.median(reg, axis=0),
                        "q90": np.quantile(reg, 0.9, axis=0),
                        "growth": growth.mean(axis=0),
                        "growth_sem": growth.std(axis=0, ddof=1) / np.sqrt(n) if n > 1 else np.zeros(t_all.size),
                        "min": reg.min(axis=0),
                        "max": reg.max(axis=0),
                        "runs": n,
                        "bound": np.nan if bound is None else bound,
                    }
                )
            )
    return pd.concat(rows, ignore_index=True)


def run_table(fig: Figure, results: dict[str, dict]) -> pd.DataFrame:
    """Per-run final values: pseudo-regret, realised regret and pull counts at the horizon."""
    rows = []
    for p_idx, panel in enumerate(fig.panels):
        for curve in panel.curves:
            res = results[curve.cid][curve.epsilon]
            real = res.realised_regret
            for j in range(min(fig.runs, res.regret.shape[0])):
                rows.append(
                    {
                        "paper": fig.paper,
                        "figure": fig.name,
                        "panel": p_idx,
                        "curve": curve.label,
                        "algorithm": curve.algorithm,
                        "variant": curve.variant,
                        "epsilon": np.nan if curve.epsilon is None else curve.epsilon,
                        "run": res.meta["run_ids"][j],
                        "horizon": int(res.checkpoints[-1]),
                        "final_regret": res.regret[j, -1],
                        "final_realised_regret": real[j],
                        "pulls": " ".join(map(str, res.pulls[j])),
                    }
                )
    return pd.DataFrame(rows)


def _grid(n: int) -> tuple[int, int]:
    return (1, n) if n <= 3 else (2, (n + 1) // 2)


def _scaled_note(fig: Figure) -> str:
    """Opening of the caption of a figure simulated under the ``scale`` caps."""
    return "[Scaled-down run: the settings at the end are what ran, not the ones stated.] " if fig.scaled else ""


def caption(fig: Figure) -> str:
    """Caption: what the figure shows and with which settings."""
    band = BANDS[fig.spec["band"]]
    text = _scaled_note(fig) + fig.spec.get("caption", f"{fig.paper} {fig.name}")
    shade = f" Shaded: {band}." if band else ""
    bounds = " Dotted: the theory bound of the curve in the same colour." if fig.theory else ""
    spends = f" {fig.spec['privacy_note']}" if fig.spec.get("privacy_note") else ""
    return f"{text} Mean cumulative pseudo-regret over runs.{shade}{bounds}{spends} Settings: {describe(fig)}."


def _style_keys(table: pd.DataFrame) -> pd.Series:
    """Per row: what tells the curve apart from the other curves of its algorithm (line style key).

    The variant, and epsilon where a panel holds one algorithm at several epsilons (Sajed & Sheffet 2019).
    """
    variant = table["variant"].fillna("").astype(str)
    eps = table["epsilon"]
    multi = (table[eps.notna()].groupby(["panel", "algorithm", "variant"], dropna=False)["epsilon"].nunique() > 1).any()
    if not multi:
        return variant
    eps_text = eps.map(lambda e: "" if pd.isna(e) else f"ε = {e:g}")
    return (variant + ", " + eps_text).str.strip(", ")


def _panels(fig: Figure):
    """A figure of ``fig``'s panels: one-column width for one panel, two-column width for more."""
    rows, cols = _grid(len(fig.panels))
    width = style.ONE_COLUMN if cols == 1 else style.TWO_COLUMN
    mfig, axes = plt.subplots(rows, cols, figsize=(width, 2.4 * rows), squeeze=False)
    for ax in list(axes.flat)[len(fig.panels) :]:
        ax.set_visible(False)
    return mfig, axes, cols


def _legend_handles(algorithms, styles: dict, bound: bool) -> list:
    """Legend entries: one per algorithm (colour and marker), one per line style, one for all theory bounds."""
    from matplotlib.lines import Line2D

    handles = []
    for name in algorithms:
        ident = style.identity(name)
        handles.append(Line2D([], [], color=ident.colour, marker=ident.marker, label=ident.label))
    grey = "#555555"
    handles += [Line2D([], [], color=grey, ls=ls, label=key) for key, ls in styles.items() if key]
    if bound:
        handles.append(Line2D([], [], color=grey, ls=style.BOUND, label="theory bound of the same colour"))
    return handles


def _layout(mfig, handles: list, text: str, cols: int) -> None:
    """Lay out panels, one legend for the whole figure (below the panels) and the caption, margins in inches.

    The legend takes as many columns as fit the figure's width; the figure grows to hold legend and caption.
    """
    renderer = mfig.canvas.get_renderer()
    width, height = mfig.get_size_inches()
    for ncol in range(len(handles), 0, -1):  # the widest legend that fits
        legend = mfig.legend(
            handles=handles, loc="upper center", ncol=ncol, frameon=False, handlelength=2.6, columnspacing=1.2
        )
        if ncol == 1 or legend.get_window_extent(renderer).width / mfig.dpi <= width - 0.1:
            break
        legend.remove()
    legend_h = legend.get_window_extent(renderer).height / mfig.dpi
    fontsize = 6
    lines = textwrap.wrap(text, int(width * 72 / (0.6 * fontsize)))  # ~0.6 em per character
    caption_h = len(lines) * fontsize * 1.25 / 72 + 0.08
    rows = -(-sum(ax.get_visible() for ax in mfig.axes) // cols)
    left, right, top, hgap, vgap, xlabel = 0.55, 0.12, 0.22, 0.5, 0.6, 0.42
    height += legend_h + caption_h + xlabel
    mfig.set_size_inches(width, height)
    bottom = legend_h + caption_h + xlabel
    panel_w = (width - left - right - (cols - 1) * hgap) / cols
    panel_h = (height - bottom - top - (rows - 1) * vgap) / rows
    mfig.subplots_adjust(
        left=left / width,
        right=1 - right / width,
        bottom=bottom / height,
        top=1 - top / height,
        wspace=hgap / panel_w,
        hspace=vgap / panel_h,
    )
    legend.set_bbox_to_anchor((0.5, (legend_h + caption_h) / height), transform=mfig.transFigure)
    mfig.text(0.01, 0.01, "\n".join(lines), fontsize=fontsize, va="bottom", color="#333333")


def _label_axes(axes, cols: int, n: int, xlabel: str | None, ylabel: str) -> None:
    """Axis labels on the outer panels only."""
    for i, ax in enumerate(list(axes.flat)[:n]):
        if i % cols == 0:
            ax.set_ylabel(ylabel)
        if xlabel and i + cols >= n:
            ax.set_xlabel(xlabel)


def regret_figure(fig: Figure, table: pd.DataFrame):
    """Draw the figure from :func:`curve_table`'s output; returns a matplotlib Figure."""
    with plt.rc_context(style.RC):
        mfig, axes, cols = _panels(fig)
        band = fig.spec["band"]
        table = table.assign(style_key=_style_keys(table).to_numpy())
        styles = style.line_styles(table["style_key"])
        bounds = False
        for p_idx, panel in enumerate(fig.panels):
            ax = axes.flat[p_idx]
            sub = table[table["panel"] == p_idx]
            for _, df in sub.groupby("curve", sort=False):
                ident = style.identity(df["algorithm"].iloc[0])
                t, m = df["t"].to_numpy(), df["mean"].to_numpy()
                ax.plot(
                    t,
                    m,
                    ls=styles[df["style_key"].iloc[0]],
                    color=ident.colour,
                    marker=ident.marker,
                    markevery=0.12,
                    markersize=3,
                )
                if band != "none":
                    lo, hi = (df["min"], df["max"]) if band == "minmax" else (m - df[band], m + df[band])
                    ax.fill_between(t, lo, hi, color=ident.colour, alpha=0.15, lw=0)
                if fig.theory and df["bound"].notna().all():
                    ax.plot(t, df["bound"], ls=style.BOUND, color=ident.colour, lw=0.9)
                    bounds = True
            ax.set_xscale(fig.spec["xscale"])
            ax.set_yscale(fig.spec["yscale"])
            top = (sub["max"] if band == "minmax" else sub["mean"] + sub["sem" if band == "none" else band]).max()
            if fig.spec["yscale"] == "linear":
                if np.isfinite(top) and top > 0:
                    ax.set_ylim(0, 1.15 * top)  # bounds may lie far above the data: clip them
                # 5-digit and longer tick labels as a x 10^k offset, so they fit the fixed left margin
                ax.ticklabel_format(axis="y", style="sci", scilimits=(-3, 4), useMathText=True)
            ax.set_title(panel.title or instance_label(panel.instance))
        _label_axes(axes, cols, len(fig.panels), "t", "cumulative pseudo-regret")
        handles = _legend_handles(dict.fromkeys(table["algorithm"]), styles, bounds)
        _layout(mfig, handles, caption(fig), cols)
    return mfig


def success_table(fig: Figure, success: dict[str, np.ndarray]) -> pd.DataFrame:
    """Tidy BAI summary: one row per (panel, curve, x) with successes, trials, rate and 95% Wilson CI.

    ``success[cid]`` is bool[V, R]: V swept values of the curve, R trials.
    """
    from ..bai import wilson_interval

    rows = []
    for p_idx, panel in enumerate(fig.panels):
        for curve in panel.curves:
            for x, s in zip(curve.x, success[curve.cid][:, : fig.runs], strict=True):
                lo, hi = wilson_interval(int(s.sum()), s.size)
                eps = x if panel.x == "epsilon" and curve.epsilon is None else curve.epsilon
                rows.append(
                    {
                        "paper": fig.paper,
                        "figure": fig.name,
                        "panel": p_idx,
                        "panel_title": panel.title,
                        "x_name": panel.x,
                        "x": x,
                        "curve": curve.label,
                        "algorithm": curve.algorithm,
                        "variant": curve.variant,
                        "epsilon": np.nan if eps is None else eps,
                        "successes": int(s.sum()),
                        "trials": s.size,
                        "rate": s.mean(),
                        "lo": lo,
                        "hi": hi,
                    }
                )
    return pd.DataFrame(rows)


def recommendation_table(fig: Figure, recommended: dict[str, np.ndarray]) -> pd.DataFrame:
    """How often each arm was recommended, per (panel, curve, x); ``recommended[cid]`` is int[V, R]."""
    rows = []
    for p_idx, panel in enumerate(fig.panels):
        for curve in panel.curves:
            for x, rec in zip(curve.x, recommended[curve.cid][:, : fig.runs], strict=True):
                arms, counts = np.unique(rec, return_counts=True)
                rows.extend(
                    {"figure": fig.name, "panel": p_idx, "curve": curve.label, "x": x, "arm": int(a), "count": int(c)}
                    for a, c in zip(arms, counts, strict=True)
                )
    return pd.DataFrame(rows)


def success_figure(fig: Figure, table: pd.DataFrame):
    """Success rate vs the swept value, one panel per config panel, 95% Wilson intervals as bars."""
    with plt.rc_context(style.RC):
        mfig, axes, cols = _panels(fig)
        table = table.assign(style_key=table["variant"].fillna("").astype(str))
        styles = style.line_styles(table["style_key"])
        for p_idx, panel in enumerate(fig.panels):
            ax = axes.flat[p_idx]
            for _, df in table[table["panel"] == p_idx].groupby("curve", sort=False):
                df = df.sort_values("x")
                ident = style.identity(df["algorithm"].iloc[0])
                err = np.vstack([df["rate"] - df["lo"], df["hi"] - df["rate"]])
                ax.errorbar(
                    df["x"],
                    df["rate"],
                    yerr=err,
                    marker=ident.marker,
                    ls=styles[df["style_key"].iloc[0]],
                    capsize=1.5,
                    color=ident.colour,
                    elinewidth=0.7,
                )
            ax.set_xscale(panel.xscale)
            ax.set_ylim(-0.02, 1.02)
            ax.set_title(panel.title)
            ax.set_xlabel({"budget": "budget T", "epsilon": "ε", "ratio": "ratio r"}[panel.x])
        _label_axes(axes, cols, len(fig.panels), None, "success rate")
        handles = _legend_handles(dict.fromkeys(table["algorithm"]), styles, False)
        text = (
            f"{_scaled_note(fig)}{fig.spec.get('caption', fig.name)} Success rate over {fig.runs} trials; "
            f"bars: 95% Wilson intervals. Settings: {describe(fig)}."
        )
        _layout(mfig, handles, text, cols)
    return mfig
