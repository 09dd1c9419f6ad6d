"""The privacy-utility frontier: final regret against epsilon, beside the lower bounds that bind each algorithm.

A frontier figure is a regret figure with ``x: epsilon`` (one panel per reward law of one instance, or, for the gap
sweep ``frontier/gaps``, one panel per two-arm instance). Its curve table
(:func:`dpbandits.drawing.plotting.curve_table`) gives the mean regret at the horizon of every (algorithm,
epsilon); :func:`frontier_rows` adds each algorithm's privacy model, the lower bounds of the cell
(:mod:`.bounds`, Bernoulli panels only) and the check against the largest bound that binds it;
:func:`frontier_figure` draws one instance and :func:`write_frontier` the tidy tables of every instance, the
winners of each cell (:mod:`.winners`), the reading of :mod:`.frontier_study` and a one-page summary.

Privacy models (``Algorithm.privacy``) are kept apart: central eps-DP (solid lines, filled markers), local eps-DP
(dashed), (eps, delta)-DP (dotted, delta in the caption) and non-private (horizontal lines). The eps-DP bounds bind
central and local eps-DP algorithms only; Lai & Robbins binds every algorithm.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from ..core import registry
from ..core.instances import instance_label, means_for
from ..pipeline.catalogue.model import Figure
from .bounds import BOUNDS, NON_PRIVATE, UNIFORM, asymptotic, binding, lower_bounds, pulls_asked
from .winners import ranking, winners

BOUND_COLOUR = "#8c8c8c"  # grey: the non-private reference (UCB) is black
BOUND_STYLES = {"lai_robbins": "-", "azize_basu": "--", "shariff_sheffet": ":", "azize_2025": (0, (5, 1, 1, 1))}
BELOW = 2.0  # a final regret this many standard errors below a binding bound fails the bound's check
BERNOULLI = "bernoulli"
#: privacy model -> (its name in captions, line style of its curves)
MODELS = {
    "pure": ("central ε-DP", "-"),
    "local": ("local ε-DP", (0, (4, 2))),
    "approx": ("(ε, δ)-DP", (0, (1, 1.5))),
    NON_PRIVATE: ("non-private", (0, (4, 2))),
}
#: what :func:`write_frontier` writes, by file name (workflow/rules/common.smk lists the same)
OUTPUTS = (
    "frontier.csv",
    "winners.csv",
    "ranking.csv",
    "below.csv",
    "crossovers.csv",
    "slopes.csv",
    "gap_slopes.csv",
    "summary.pdf",
    "summary.png",
)


def law(instance: dict) -> str:
    """The reward law of a regret instance (its ``rewards`` key; Bernoulli when absent)."""
    return instance.get("rewards", BERNOULLI) if isinstance(instance, dict) else BERNOULLI


def model(name: str) -> str:
    """The privacy model of a registered algorithm: ``Algorithm.privacy``, or "none" for a non-private one."""
    alg = registry.ALGORITHMS[name]
    return alg.privacy if alg.private else NON_PRIVATE


def delta(name: str) -> float:
    """The delta of an (eps, delta)-DP algorithm (its ``delta`` parameter's default), else 0."""
    alg = registry.ALGORITHMS[name]
    return float(alg.params["delta"].default) if model(name) == "approx" else 0.0


def check(row: dict, means) -> dict:
    """The bound check of one frontier row (with its bounds): ``bound`` (the largest bound that binds the row's
    model), ``ratio_to_bound`` (final regret / that bound), ``below`` (the regret lies more than ``BELOW``
    standard errors under it) and ``cause``, "" when not below, else the first that applies:

    - "pre-asymptotic": the bound asks some suboptimal arm for more than T / K pulls
      (:func:`.bounds.pulls_asked`): its lim inf regime is not reached at T;
    - "offset": over the last decade the regret grows per unit of ln t at least at the bound's rate C = bound /
      ln T (``growth`` is not ``BELOW`` s.e. under C): what the lim inf of R_T / ln T constrains is consistent,
      the regret only starts lower (a negative lower-order term of the finite-T regret);
    - "unexplained": the regret also grows slower than the bound allows: a bug, a wrong constant, or an
      algorithm outside the bound's model. A failed check.
    """
    valid = {b: row[b] for b in binding(row["model"]) if np.isfinite(row.get(b, np.nan))}
    if not valid:
        return {"bound": "", "ratio_to_bound": np.nan, "below": False, "cause": ""}
    name = max(valid, key=valid.get)
    value = valid[name]
    below = bool(value - row["final_regret"] > BELOW * row["sem"])
    cause = ""
    if below:
        eps = None if np.isnan(row["epsilon"]) else row["epsilon"]
        rate = asymptotic(means, row["horizon"], eps)[name] / np.log(row["horizon"])
        if pulls_asked(means, row["horizon"], eps, name) > row["horizon"] / len(means):
            cause = "pre-asymptotic"
        elif row["growth"] + BELOW * row["growth_sem"] >= rate:
            cause = "offset"
        else:
            cause = "unexplained"
    return {"bound": name, "ratio_to_bound": row["final_regret"] / value, "below": below, "cause": cause}


def frontier_rows(fig: Figure, table: pd.DataFrame) -> pd.DataFrame:
    """One row per (panel, curve) of a frontier figure: the mean regret at the horizon with its s.e., median,
    90th percentile, growth per unit of ln t over the last decade (with its s.e.) and runs, the algorithm's
    privacy model (and delta), the reward law, the lower bounds of the cell (Bernoulli panels only) and their
    :func:`check`. ``study`` is "gaps" for the gap sweep, else "grid";
    ``gap`` is the instance's largest gap."""
    last = table[table["t"] == table.groupby(["panel", "curve"])["t"].transform("max")]
    rows = []
    for r in last.itertuples():
        panel = fig.panels[r.panel]
        eps = None if pd.isna(r.epsilon) else float(r.epsilon)
        means = means_for(panel.instance)
        bounds = lower_bounds(means, int(r.t), eps)
        if law(panel.instance) != BERNOULLI:
            bounds = dict.fromkeys(BOUNDS, np.nan) | {UNIFORM[0]: bounds[UNIFORM[0]]}
        row = {
            "study": "gaps" if fig.name.endswith("/gaps") else "grid",
            "instance": instance_label({k: v for k, v in panel.instance.items() if k != "rewards"}),
            "gap": float(means.max() - means.min()),
            "law": law(panel.instance),
            "epsilon": np.nan if eps is None else eps,
            "algorithm": r.algorithm,
            "label": registry.ALGORITHMS[r.algorithm].label,
            "model": model(r.algorithm),
            "delta": delta(r.algorithm),
            "horizon": int(r.t),
            "runs": int(r.runs),
            "final_regret": r.mean,
            "sem": r.sem,
            "median": getattr(r, "median", np.nan),
            "q90": getattr(r, "q90", np.nan),
            "growth": getattr(r, "growth", np.nan),
            "growth_sem": getattr(r, "growth_sem", np.nan),
            **bounds,
        }
        rows.append(row | check(row, means))
    return pd.DataFrame(rows)


def _ticks(ax, epsilons) -> None:
    """Log x-axis: labelled ticks at the powers of ten within the grid, unlabelled ones at every grid value."""
    ax.set_xscale("log")
    decades = [10.0**d for d in range(-6, 7) if min(epsilons) * 0.999 <= 10.0**d <= max(epsilons) * 1.001]
    ax.set_xticks(decades, [f"{e:g}" for e in decades])
    ax.set_xticks(epsilons, minor=True)
    ax.tick_params(axis="x", which="minor", labelbottom=False)


def _caption_models(rows: pd.DataFrame) -> str:
    """The caption's sentence on the privacy models the rows draw (line styles, delta)."""
    parts = []
    for name, (what, _) in MODELS.items():
        here = rows[rows["model"] == name]
        if here.empty or name == NON_PRIVATE:
            continue
        labels = ", ".join(dict.fromkeys(here["label"]))
        style = {"pure": "solid", "local": "dashed", "approx": "dotted"}[name]
        extra = ""
        if name == "approx":
            deltas = ", ".join(f"{d:.2g}" for d in sorted(here["delta"].unique()))
            extra = f" with δ = {deltas}, whose ε is not comparable with pure ε-DP's"
        if name == "local":
            extra = " (a stronger trust model: every reward is noised before the learner sees it)"
        parts.append(f"{style}: {what}{extra} ({labels})")
    return "Lines: " + "; ".join(parts) + "; non-private algorithms as black horizontal lines, labelled."


def frontier_figure(fig: Figure, table: pd.DataFrame):
    """Final regret against epsilon, one panel per reward law (or per instance of the gap sweep), from
    :func:`dpbandits.drawing.plotting.curve_table`'s output; line styles by privacy model; the bounds as grey
    lines on Bernoulli panels. Returns a matplotlib Figure."""
    import matplotlib.pyplot as plt
    from matplotlib.lines import Line2D

    from . import plotting, style

    rows = frontier_rows(fig, table)
    with plt.rc_context(style.RC):
        mfig, axes, cols = plotting._panels(fig)
        for p_idx, panel in enumerate(fig.panels):
            ax = axes.flat[p_idx]
            label = instance_label({k: v for k, v in panel.instance.items() if k != "rewards"})
            sub = rows[(rows["law"] == law(panel.instance)) & (rows["instance"] == label)]
            epsilons = sorted(sub["epsilon"].dropna().unique())
            public = 0
            for name, df in sub.groupby("algorithm", sort=False):
                ident = style.identity(name)
                ls = MODELS[df["model"].iloc[0]][1]
                if df["epsilon"].isna().all():  # non-private: one value for every epsilon, labelled at the right
                    value = df["final_regret"].iloc[0]
                    ax.axhline(value, color=ident.colour, ls=style.LINESTYLES[public % len(style.LINESTYLES)], lw=0.8)
                    ax.annotate(
                        ident.label,
                        (1.0, value),
                        xycoords=("axes fraction", "data"),
                        fontsize=5,
                        va="bottom",
                        ha="right",
                        color=ident.colour,
                    )
                    public += 1
                    continue
                df = df.sort_values("epsilon")
                ax.errorbar(
                    df["epsilon"],
                    df["final_regret"],
                    yerr=df["sem"],
                    color=ident.colour,
                    marker=ident.marker,
                    markersize=3,
                    capsize=1.2,
                    elinewidth=0.6,
                    ls=ls,
                    mfc="white" if df["model"].iloc[0] != "pure" else ident.colour,
                )
            grid = np.geomspace(min(epsilons), max(epsilons), 60)
            means, horizon = means_for(panel.instance), int(sub["horizon"].max())
            drawn = {**BOUND_STYLES, UNIFORM[0]: "-."} if law(panel.instance) == BERNOULLI else {UNIFORM[0]: "-."}
            for bound, ls in drawn.items():
                values = [lower_bounds(means, horizon, e)[bound] for e in grid]
                ax.plot(grid, values, color=BOUND_COLOUR, lw=0.9, ls=ls)
            ax.set_yscale("log")
            _ticks(ax, epsilons)
            ax.set_title(panel.title or f"{law(panel.instance).capitalize()} rewards")
        plotting._label_axes(axes, cols, len(fig.panels), "ε", "final pseudo-regret")
        handles = plotting._legend_handles(dict.fromkeys(rows["algorithm"]), {}, False)
        labels = {**{b: spec.label for b, spec in BOUNDS.items()}, UNIFORM[0]: UNIFORM[1]}
        handles += [
            Line2D([], [], color=BOUND_COLOUR, ls=ls, lw=0.9, label=labels[b])
            for b, ls in {**BOUND_STYLES, UNIFORM[0]: "-."}.items()
        ]
        runs = ", ".join(str(n) for n in sorted(rows["runs"].unique()))
        text = (
            f"{plotting._scaled_note(fig)}{fig.spec.get('caption', fig.name)} Mean pseudo-regret at "
            f"T = {rows['horizon'].max():g} over {runs} runs against ε; bars: ±1 s.e. of the mean. "
            f"{_caption_models(rows)} Grey: asymptotic lower bounds for Bernoulli arms with their theorems' "
            f"constants (docs/frontier.md), each capped at T Δ_max; the ε-DP bounds bind central and local ε-DP "
            f"algorithms, not (ε, δ)-DP ones; and uniform random play (not a bound). "
            f"Settings: {plotting.describe(fig)}."
        )
        plotting._layout(mfig, handles, text, cols)
    return mfig


def _grids(cells: pd.DataFrame) -> list[tuple[str, str]]:
    """The (law, model) grids of the summary: every law's central eps-DP grid, and each other model's grid where
    it has two algorithms or more (a model of one algorithm has no contest)."""
    out = []
    for (name, mdl), part in cells.groupby(["law", "model"], sort=False):
        if mdl == "pure" or part["algorithms"].max() > 1:
            out.append((name, mdl))
    order = {m: i for i, m in enumerate(MODELS)}
    laws = list(dict.fromkeys(cells["law"]))
    return sorted(out, key=lambda g: (laws.index(g[0]), order[g[1]]))


def summary_figure(rows: pd.DataFrame):
    """One page: for each (reward law, privacy model) of :func:`_grids`, a grid of instances x epsilons whose cell
    takes the colour and letter of its best private algorithm (:func:`.winners.winners`): a sole winner in full
    colour, a tie pale with "+n", the n other winners (winners.csv names them). Bernoulli cells give the best's
    final regret over the largest bound that binds it. Returns a matplotlib Figure."""
    import matplotlib.pyplot as plt
    from matplotlib.colors import to_rgb
    from matplotlib.patches import Patch

    from . import style

    cells = winners(rows[rows["study"] != "gaps"])
    grids = _grids(cells)
    epsilons = sorted(cells["epsilon"].unique())
    drawn = cells[[g in set(grids) for g in zip(cells["law"], cells["model"], strict=True)]]
    codes = {name: chr(ord("A") + i) for i, name in enumerate(dict.fromkeys(drawn["best"]))}
    order = list(dict.fromkeys(rows["instance"]))
    with plt.rc_context(style.RC):
        sizes = [len(set(cells.loc[(cells["law"] == g[0]) & (cells["model"] == g[1]), "instance"])) for g in grids]
        height = 0.22 * sum(sizes) + 0.6 * len(grids) + 1.3
        mfig, axes = plt.subplots(len(grids), 1, figsize=(style.TWO_COLUMN, height), squeeze=False, height_ratios=sizes)
        for ax, (name, mdl) in zip(axes.flat, grids, strict=True):
            part = cells[(cells["law"] == name) & (cells["model"] == mdl)]
            instances = [i for i in order if i in set(part["instance"])]
            image = np.ones((len(instances), len(epsilons), 3))
            for r in part.itertuples():
                i, j = instances.index(r.instance), epsilons.index(r.epsilon)
                colour = np.array(to_rgb(style.identity(r.best).colour))
                image[i, j] = 0.45 * colour + 0.55 if r.tie else colour
                letters = codes[r.best] + (f"+{r.size - 1}" if r.tie else "")
                note = f" {r.ratio_to_bound:.2g}" if name == BERNOULLI and np.isfinite(r.ratio_to_bound) else ""
                ax.text(j, i, letters + note, ha="center", va="center", fontsize=5, color="black" if r.tie else "white")
            ax.imshow(image, aspect="auto", interpolation="nearest")
            ax.set_xticks(range(len(epsilons)), [f"{e:g}" for e in epsilons])
            ax.set_yticks(range(len(instances)), instances)
            ax.tick_params(length=0)
            ax.grid(False)
            what = ", best's regret / largest binding bound" if name == BERNOULLI else ""
            ax.set_title(f"{name.capitalize()} rewards, {MODELS[mdl][0]}: winners per cell{what}")
        axes.flat[-1].set_xlabel("ε")
        handles = [
            Patch(color=style.identity(a).colour, label=f"{c}  {style.identity(a).label}") for a, c in codes.items()
        ]
        mfig.legend(
            handles=handles,
            loc="lower center",
            bbox_to_anchor=(0.5, 0.3 / height),
            ncol=min(len(handles), 5),
            frameon=False,
        )
        mfig.text(
            0.5,
            0.04 / height,
            "Winners: the best and every algorithm of the same privacy model not shown worse (one-sided Welch tests, "
            "Holm's family-wise control within the cell). Pale cells are ties: +n other winners (winners.csv).",
            ha="center",
            fontsize=6,
            wrap=True,
        )
        mfig.subplots_adjust(left=0.16, right=0.98, top=1 - 0.3 / height, bottom=1.1 / height, hspace=0.7)
    return mfig


def write_frontier(figures: list[tuple[Figure, str]], paths: list[str]) -> pd.DataFrame:
    """Every frontier figure's rows ((Figure, its curve table's path) pairs) and what is read from them, to the
    ``paths`` named as :data:`OUTPUTS` (matched by file name): the tidy table, the winners of each cell, the
    ranking, the rows below a binding bound, the study's crossovers, slopes and gap slopes, and the summary
    figure. Returns the tidy table."""
    import matplotlib.pyplot as plt

    from . import frontier_study, style

    by_name = {Path(p).name: p for p in paths}
    missing = sorted(set(OUTPUTS) - set(by_name))
    if missing:
        raise ValueError(f"write_frontier: paths lack {missing}")
    rows = pd.concat([frontier_rows(fig, pd.read_csv(path)) for fig, path in figures], ignore_index=True)
    Path(by_name["frontier.csv"]).parent.mkdir(parents=True, exist_ok=True)
    rows.to_csv(by_name["frontier.csv"], index=False)
    grid = rows[rows["study"] != "gaps"]
    winners(grid).to_csv(by_name["winners.csv"], index=False)
    ranking(grid).to_csv(by_name["ranking.csv"], index=False)
    rows[rows["below"]].to_csv(by_name["below.csv"], index=False)
    frontier_study.crossovers(rows).to_csv(by_name["crossovers.csv"], index=False)
    frontier_study.slopes(rows).to_csv(by_name["slopes.csv"], index=False)
    frontier_study.gap_slopes(rows).to_csv(by_name["gap_slopes.csv"], index=False)
    mfig = summary_figure(rows)
    style.save(mfig, by_name["summary.pdf"], by_name["summary.png"])
    plt.close(mfig)
    return rows
