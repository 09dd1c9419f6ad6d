"""The privacy-utility frontier: final regret against epsilon, beside the known lower bounds.

A frontier figure is a regret figure with ``x: epsilon`` (one panel per reward law of one instance). Its
curve table (:func:`dpbandits.drawing.plotting.curve_table`) gives the mean regret at the horizon of every
(algorithm, epsilon); :func:`frontier_rows` adds the lower bounds of the cell, :func:`frontier_figure` draws
one instance and :func:`write_frontier` the tidy table of every instance with a one-page summary: which private
algorithm is best in each (instance, epsilon) cell and how far it is from the lower bound.

Lower bounds, natural logarithms, Bernoulli arms with means mu and gaps Delta_a = mu* - mu_a:

- ``lai_robbins``: sum over suboptimal a of Delta_a ln T / kl(mu_a, mu*) (Lai & Robbins 1985), the
  non-private bound, which Sajed & Sheffet (ICML 2019, Section 1) cite in its coarser form
  Omega(sum_a ln T / Delta_a). Its constant is exact, but only as T -> infinity (lim inf of regret / ln T).
- ``shariff_sheffet``: K ln T / epsilon, the private lower bound of Shariff & Sheffet (NeurIPS 2018) as Sajed &
  Sheffet (Section 1) state it, "an added pseudo regret of Omega(K log(T)/epsilon)". Order only: drawn with
  constant 1.
- ``azize_basu``: sum over suboptimal a of Delta_a ln T / min(kl(mu_a, mu*), epsilon Delta_a) (Azize & Basu,
  NeurIPS 2022: the KL term of Lai & Robbins, or epsilon times the total-variation distance, Delta_a between
  Bernoulli arms, whichever is smaller). It is the tightest of the three; its constant was not checked
  against their text here, so it is drawn with constant 1 and marked order only.

The bounds are stated for Bernoulli arms only: other reward laws (the instance's ``rewards`` key) have other
divergences, and their panels show no bound. ``uniform_play`` (T times the mean gap) is not a bound: it is the
regret of pulling arms uniformly at random, the ceiling of an algorithm that learns nothing.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from ..core import registry
from ..core.instances import instance_label, means_for
from ..mechanisms.klucb import kl_bernoulli
from ..pipeline.catalogue.model import Figure

#: bound column -> (legend label, what its constant means)
BOUNDS = {
    "lai_robbins": ("Lai & Robbins (non-private)", "exact constant, asymptotic"),
    "azize_basu": ("Azize & Basu 2022 (ε-DP)", "order only"),
    "shariff_sheffet": ("K ln T / ε, Shariff & Sheffet 2018", "order only"),
}
REFERENCE = ("uniform_play", "uniform random play (no learning)")
BOUND_COLOUR = "#8c8c8c"  # grey: the non-private reference (UCB) is black
CLEAR = 2.0  # a cell's best is a clear win when the runner-up is at least this many s.e. of the difference behind
BERNOULLI = "bernoulli"


def law(instance: dict) -> str:
    """The reward law of a regret instance (its ``rewards`` key; Bernoulli when absent)."""
    return instance.get("rewards", BERNOULLI) if isinstance(instance, dict) else BERNOULLI


def lower_bounds(means, horizon: int, epsilon: float | None) -> dict[str, float]:
    """{bound: value} at horizon T (see the module docstring) for Bernoulli arms ``means`` (float[K]).

    ``epsilon`` None (a non-private algorithm) gives NaN for the private bounds.
    """
    means = np.asarray(means, dtype=float)
    best = means.max()
    gaps = best - means
    sub = gaps > 0
    log_t = np.log(horizon)
    kl = np.array([kl_bernoulli(float(m), float(best)) for m in means[sub]])
    out = {"lai_robbins": float(np.sum(gaps[sub] / kl) * log_t)}
    if epsilon is None:
        out.update(azize_basu=np.nan, shariff_sheffet=np.nan)
    else:
        out["azize_basu"] = float(np.sum(gaps[sub] / np.minimum(kl, epsilon * gaps[sub])) * log_t)
        out["shariff_sheffet"] = float(means.size * log_t / epsilon)
    out[REFERENCE[0]] = float(horizon * gaps.mean())
    return out


def frontier_rows(fig: Figure, table: pd.DataFrame) -> pd.DataFrame:
    """One row per (panel, curve) of a frontier figure: the mean regret at the horizon with its s.e. and runs,
    the reward law, the lower bounds of the cell (Bernoulli panels only) and ``ratio_to_bound``, final regret
    over the largest bound (NaN without bounds or for a non-private algorithm)."""
    last = table[table["t"] == table.groupby(["panel", "curve"])["t"].transform("max")]
    rows = []
    for r in last.itertuples():
        panel = fig.panels[r.panel]
        eps = None if pd.isna(r.epsilon) else float(r.epsilon)
        private = registry.ALGORITHMS[r.algorithm].private
        bernoulli = law(panel.instance) == BERNOULLI
        bounds = lower_bounds(means_for(panel.instance), int(r.t), eps if private else None)
        if not bernoulli:
            bounds = dict.fromkeys(BOUNDS, np.nan) | {REFERENCE[0]: bounds[REFERENCE[0]]}
        largest = max((bounds[b] for b in BOUNDS if np.isfinite(bounds[b])), default=np.nan)
        rows.append(
            {
                "instance": instance_label({k: v for k, v in panel.instance.items() if k != "rewards"}),
                "law": law(panel.instance),
                "epsilon": np.nan if eps is None else eps,
                "algorithm": r.algorithm,
                "label": registry.ALGORITHMS[r.algorithm].label,
                "private": private,
                "horizon": int(r.t),
                "runs": int(r.runs),
                "final_regret": r.mean,
                "sem": r.sem,
                **bounds,
                "ratio_to_bound": r.mean / largest if private and np.isfinite(largest) else np.nan,
            }
        )
    return pd.DataFrame(rows)


def best_private(rows: pd.DataFrame) -> pd.DataFrame:
    """The private algorithm of least final regret in each (law, instance, epsilon) cell, one row per cell, with
    ``runner_up`` (the next private algorithm) and ``margin``: the runner-up's final regret minus the best's, in
    standard errors of that difference (inf for a cell with one private algorithm)."""
    private = rows[rows["private"] & rows["epsilon"].notna()].sort_values("final_regret", kind="stable")
    out = []
    for _, cell in private.groupby(["law", "instance", "epsilon"], sort=False):
        best = cell.iloc[0].copy()
        if len(cell) > 1:
            second = cell.iloc[1]
            best["runner_up"] = second["algorithm"]
            spread = np.hypot(best["sem"], second["sem"])
            gap = second["final_regret"] - best["final_regret"]
            best["margin"] = gap / spread if spread > 0 else (np.inf if gap > 0 else 0.0)
        else:
            best["runner_up"], best["margin"] = "", np.inf
        out.append(best)
    return pd.DataFrame(out).sort_values(["law", "instance", "epsilon"]).reset_index(drop=True)


def ranking(rows: pd.DataFrame) -> pd.DataFrame:
    """Private algorithms ranked per reward law by their mean rank over the (instance, epsilon) cells that every
    law has (so the laws are compared on the same cells; 1 = best): columns law, algorithm, label, mean_rank,
    wins, cells; best first within each law."""
    private = rows[rows["private"] & rows["epsilon"].notna()].copy()
    laws = private.groupby(["instance", "epsilon"])["law"].nunique()
    common = laws[laws == private["law"].nunique()].index
    private = private[private.set_index(["instance", "epsilon"]).index.isin(common)]
    private["rank"] = private.groupby(["law", "instance", "epsilon"])["final_regret"].rank(method="average")
    table = private.groupby(["law", "algorithm", "label"], sort=False).agg(
        mean_rank=("rank", "mean"), wins=("rank", lambda r: int((r == 1).sum())), cells=("rank", "size")
    )
    return table.reset_index().sort_values(["law", "mean_rank"], kind="stable").reset_index(drop=True)


def _ticks(ax, epsilons) -> None:
    """Log x-axis: labelled ticks at the powers of ten within the grid, unlabelled ones at every grid value."""
    ax.set_xscale("log")
    decades = [10.0**d for d in range(-6, 7) if min(epsilons) * 0.999 <= 10.0**d <= max(epsilons) * 1.001]
    ax.set_xticks(decades, [f"{e:g}" for e in decades])
    ax.set_xticks(epsilons, minor=True)
    ax.tick_params(axis="x", which="minor", labelbottom=False)


def frontier_figure(fig: Figure, table: pd.DataFrame):
    """Final regret against epsilon, one panel per reward law, from :func:`dpbandits.drawing.plotting.curve_table`'s
    output; the bounds as grey lines (Bernoulli panels). Returns a matplotlib Figure."""
    import matplotlib.pyplot as plt
    from matplotlib.lines import Line2D

    from . import plotting, style

    rows = frontier_rows(fig, table)
    bound_styles = {"lai_robbins": "-", "azize_basu": "--", "shariff_sheffet": ":", REFERENCE[0]: "-."}
    with plt.rc_context(style.RC):
        mfig, axes, cols = plotting._panels(fig)
        for p_idx, panel in enumerate(fig.panels):
            ax = axes.flat[p_idx]
            sub = rows[rows["law"] == law(panel.instance)]
            epsilons = sorted(sub["epsilon"].dropna().unique())
            for name, df in sub.groupby("algorithm", sort=False):
                ident = style.identity(name)
                if df["epsilon"].isna().all():  # non-private: one value for every epsilon
                    ax.axhline(df["final_regret"].iloc[0], color=ident.colour, ls=(0, (4, 2)), lw=0.9)
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
                )
            grid = np.geomspace(min(epsilons), max(epsilons), 60)
            means, horizon = means_for(panel.instance), int(sub["horizon"].max())
            for bound, ls in bound_styles.items():
                if bound != REFERENCE[0] and law(panel.instance) != BERNOULLI:
                    continue
                ax.plot(grid, [lower_bounds(means, horizon, e)[bound] for e in grid], color=BOUND_COLOUR, lw=0.9, ls=ls)
            ax.set_yscale("log")
            _ticks(ax, epsilons)
            ax.set_title(panel.title or f"{law(panel.instance).capitalize()} rewards")
        plotting._label_axes(axes, cols, len(fig.panels), "ε", "final pseudo-regret")
        handles = plotting._legend_handles(dict.fromkeys(rows["algorithm"]), {}, False)
        labels = {**{b: lbl for b, (lbl, _) in BOUNDS.items()}, REFERENCE[0]: REFERENCE[1]}
        handles += [
            Line2D([], [], color=BOUND_COLOUR, ls=ls, lw=0.9, label=labels[b]) for b, ls in bound_styles.items()
        ]
        runs = ", ".join(str(n) for n in sorted(rows["runs"].unique()))
        text = (
            f"{plotting._scaled_note(fig)}{fig.spec.get('caption', fig.name)} Mean pseudo-regret at "
            f"T = {rows['horizon'].max():g} over {runs} runs against ε; bars: ±1 s.e. of the mean; non-private "
            f"algorithms as dashed horizontal lines. Grey: lower bounds for Bernoulli arms (Lai & Robbins: exact "
            f"constant, asymptotic; Azize & Basu and K ln T / ε: order only, constant 1), and uniform random play "
            f"(not a bound). Settings: {plotting.describe(fig)}."
        )
        plotting._layout(mfig, handles, text, cols)
    return mfig


def summary_figure(rows: pd.DataFrame):
    """One page: for each reward law, a grid of instances x epsilons whose cell takes the colour and letter of the
    best private algorithm (pale where the runner-up is within ``CLEAR`` standard errors), annotated with its final
    regret over the largest lower bound (Bernoulli) or, for the other laws, with = where the best algorithm is the
    Bernoulli cell's best. Returns a matplotlib Figure."""
    import matplotlib.pyplot as plt
    from matplotlib.colors import to_rgb
    from matplotlib.patches import Patch

    from . import style

    best = best_private(rows)
    laws = list(dict.fromkeys(best["law"]))
    epsilons = sorted(best["epsilon"].unique())
    bern = best[best["law"] == BERNOULLI].set_index(["instance", "epsilon"])["algorithm"]
    # a letter per winner as well as its colour: the palette repeats colours (with other markers) past nine
    codes = {name: chr(ord("A") + i) for i, name in enumerate(dict.fromkeys(best["algorithm"]))}
    with plt.rc_context(style.RC):
        # each law's grid holds the instances drawn under it
        order = list(dict.fromkeys(rows["instance"]))  # the config's order
        grids = {name: [i for i in order if i in set(best.loc[best["law"] == name, "instance"])] for name in laws}
        rows_in = [len(instances) for instances in grids.values()]
        height = 0.22 * sum(rows_in) + 0.6 * len(laws) + 1.1
        mfig, axes = plt.subplots(
            len(laws), 1, figsize=(style.TWO_COLUMN, height), squeeze=False, height_ratios=rows_in
        )
        for ax, name in zip(axes.flat, laws, strict=True):
            instances = grids[name]
            cells = best[best["law"] == name].set_index(["instance", "epsilon"])
            image = np.ones((len(instances), len(epsilons), 3))
            for (inst, eps), r in cells.iterrows():
                i, j = instances.index(inst), epsilons.index(eps)
                colour = np.array(to_rgb(style.identity(r["algorithm"]).colour))
                image[i, j] = colour if r["margin"] >= CLEAR else 0.45 * colour + 0.55  # pale: not a clear win
                if name == BERNOULLI:
                    note = f"{r['ratio_to_bound']:.2g}" if np.isfinite(r["ratio_to_bound"]) else ""
                else:
                    note = "=" if bern.get((inst, eps)) == r["algorithm"] else ""
                ink = "white" if r["margin"] >= CLEAR else "black"
                ax.text(j, i, f"{codes[r['algorithm']]} {note}", ha="center", va="center", fontsize=5.5, color=ink)
            ax.imshow(image, aspect="auto", interpolation="nearest")
            ax.set_xticks(range(len(epsilons)), [f"{e:g}" for e in epsilons])
            ax.set_yticks(range(len(instances)), instances)
            ax.tick_params(length=0)
            ax.grid(False)
            what = "its final regret / the largest lower bound" if name == BERNOULLI else "=: the Bernoulli cell's best"
            ax.set_title(f"{name.capitalize()} rewards: the best private algorithm per cell ({what})")
        axes.flat[-1].set_xlabel("ε")
        handles = [
            Patch(color=style.identity(a).colour, label=f"{c}  {style.identity(a).label}") for a, c in codes.items()
        ]
        mfig.legend(
            handles=handles,
            loc="lower center",
            bbox_to_anchor=(0.5, 0.18 / height),
            ncol=min(len(handles), 5),
            frameon=False,
        )
        mfig.text(
            0.5,
            0.04 / height,
            f"Pale cells: the runner-up is within {CLEAR:g} standard errors of the best (no clear winner).",
            ha="center",
            fontsize=6,
        )
        mfig.subplots_adjust(left=0.14, right=0.98, top=1 - 0.3 / height, bottom=0.95 / height, hspace=0.6)
    return mfig


def write_frontier(figures: list[tuple[Figure, str]], csv: str, ranking_csv: str, pdf: str, png: str) -> pd.DataFrame:
    """Tidy table of every frontier figure ((Figure, its curve table's path) pairs) to ``csv``, the ranking per
    reward law (:func:`ranking`) to ``ranking_csv``, and the summary figure (:func:`summary_figure`) to
    ``pdf``/``png``; returns the table."""
    from . import style

    rows = pd.concat([frontier_rows(fig, pd.read_csv(path)) for fig, path in figures], ignore_index=True)
    Path(csv).parent.mkdir(parents=True, exist_ok=True)
    rows.to_csv(csv, index=False)
    ranking(rows).to_csv(ranking_csv, index=False)
    mfig = summary_figure(rows)
    style.save(mfig, pdf, png)
    import matplotlib.pyplot as plt

    plt.close(mfig)
    return rows
