"""Helpers used by the rendered notebooks: settings tables, figure display, claim tables."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from ..core import registry
from ..pipeline import configfile
from ..pipeline.catalogue.expand import expand
from ..pipeline.catalogue.model import is_diagnostic
from ..pipeline.catalogue.text import paper_settings

CONFIG = Path(__file__).resolve().parents[3] / "config" / "config.yaml"


def scale_note(scale: dict | None) -> str:
    """A warning (Markdown) that results under the config's ``scale`` caps prove nothing; "" at the papers' scale."""
    if not scale:
        return ""
    caps = ", ".join(f"{k} = {v}" for k, v in scale.items())
    return (
        f"**Scaled-down run ({caps}): a quick check that the pipeline works. Horizons and run counts are far "
        "below the papers', so the verdicts and figures here say nothing about the papers' claims.**"
    )


def scale_banner(settings: dict):
    """:func:`scale_note` of a notebook's settings, displayed as Markdown (nothing at the papers' scale)."""
    from IPython.display import Markdown

    note = scale_note(settings.get("scale"))
    return Markdown(note) if note else None


def load_settings(paper: str, settings: dict | None = None) -> dict:
    """The paper's settings passed by the pipeline (:func:`dpbandits.paper_settings`), or those of
    the default ``config/config.yaml`` when the notebook runs on its own."""
    if settings:
        return settings
    config = configfile.load([CONFIG])
    return paper_settings(config, paper, expand(config)[1][paper])


def paper_algorithms(config: dict, paper: str) -> list[str]:
    """The algorithms drawn in ``paper``'s figures (plugins included), in order of first appearance; ``config`` as
    prepared by :func:`dpbandits.pipeline.configfile.prepare`."""
    return list(paper_settings(config, paper, expand(config)[1][paper])["algorithms"])


def study_summary(settings: dict, then: str = ""):
    """Markdown: how many algorithms the figures draw (plugins named), on how many instances, at which epsilons,
    followed by ``then``."""
    from IPython.display import Markdown

    from .. import plugins

    names = list(settings["algorithms"])
    added = [registry.ALGORITHMS[n].label for n in names if n in plugins.PLUGINS]
    kinds = {registry.ALGORITHMS[n].kind for n in names}
    what = f"{len(names)} {' and '.join(sorted(kinds))} algorithms"
    if added:
        plural = "s" * (len(added) > 1)
        what += f" ({len(names) - len(added)} of the papers, plus the plugin{plural} {', '.join(added)})"
    # the frontier has its own grid; the diagnostics are the replication report's
    figures = [row for row in settings["figures"] if not row.get("frontier") and not is_diagnostic(row["figure"])]
    instances = {i for row in figures for i in row["instances"].split("; ")}
    eps = sorted({e for row in figures for e in row["epsilons"]})
    return Markdown(
        f"{what} on {len(instances)} instances, ε ∈ {{{', '.join(f'{e:g}' for e in eps)}}}, one "
        f"package and one root seed: {then}".rstrip()
    )


def settings_table(settings: dict) -> pd.DataFrame:
    """Every parameter of the paper's algorithms as used: value, library default, and its documentation.

    The ``tag`` column shows [RECON] / [CHOICE] where the value is a reconstruction or a choice.
    """
    rows = []
    for name, used in settings["algorithms"].items():
        alg = registry.ALGORITHMS[name]
        for key, spec in alg.params.items():
            tag = ", ".join(t for t in ("[RECON]", "[CHOICE]") if t in spec.doc)
            rows.append(
                {
                    "algorithm": alg.label,
                    "parameter": key,
                    "value": used[key],
                    "default": spec.default,
                    "tag": tag,
                    "meaning": spec.doc,
                }
            )
    return pd.DataFrame(rows).style.hide(axis="index")


def figure_settings(settings: dict) -> pd.DataFrame:
    """One row per figure: instances, epsilons, horizon or budget, runs as simulated, and the scale caps."""
    df = pd.DataFrame(settings["figures"]).drop(columns="caption")
    for col in ("epsilons", "horizon", "budget"):
        if col in df:
            df[col] = df[col].map(lambda v: ", ".join(f"{x:g}" for x in v) if isinstance(v, list) else "")
    scale = settings.get("scale") or {}
    df["scale caps"] = ", ".join(f"{k} = {v}" for k, v in scale.items()) or "none (the paper's scale)"
    df = df.loc[:, (df != "").any()]  # e.g. no swept values in a regret paper
    return df.style.hide(axis="index")


VERDICT_COLOURS = {"holds": "#d7eedf", "fails": "#f6d5cc", "inconclusive": "#eeeeee"}
SMOKE = "smoke scale: not a result"  # what a verdict or conclusion reads under a config's scale caps
SMOKE_COLOUR = "#e0e0e0"  # its neutral background


def verdict_summary(
    results: str | Path, paper: str, settings: dict | None = None, width: int = 110
) -> pd.io.formats.style.Styler:
    """The paper's claims at a glance, one row per sentence of the paper: claim, headline verdict, robustness and
    the paper's sentence (shortened). Under a config's scale caps (``settings["scale"]``) every verdict reads
    "smoke scale: not a result" on a neutral background."""
    from ..claims import ledger
    from ..claims.page import shown

    df = pd.read_csv(Path(results, "claims", f"{paper}.csv"), dtype=str, keep_default_na=False)
    sent = ledger.sentence_rows(df)
    sent = sent[sent["reading"] == ledger.DEFAULT]
    scale = (settings or {}).get("scale")
    short = sent["statement"].map(lambda s: s if len(s) <= width else s[: width - 1].rstrip() + "…")
    out = pd.DataFrame(
        {
            "claim": sent["sentence"],
            "verdict": [shown(v, scale) for v in sent["headline"]],
            "robustness": sent["robustness"],
            "what is checked": short,
        }
    )
    return (
        out.style.hide(axis="index")
        .map(lambda v: f"background-color: {VERDICT_COLOURS.get(v, SMOKE_COLOUR)}", subset=["verdict"])
        .set_properties(**{"text-align": "left"})
        .set_table_styles(
            [
                {"selector": "th", "props": "text-align: left; padding: 1px 6px"},
                {"selector": "td", "props": "padding: 1px 6px; font-size: 0.95em"},
            ]
        )
    )


def show_figures(results: str | Path, paper: str, figures, px_per_inch: int = 120):
    """The figures' PNGs side by side where they fit (one-column figures two to a row), at a fixed scale."""
    import base64

    from IPython.display import HTML
    from PIL import Image

    items = []
    for name in figures:
        path = figure_path(results, paper, name)
        with Image.open(path) as img:
            width = img.width / img.info.get("dpi", (100, 100))[0] * px_per_inch
        data = base64.b64encode(path.read_bytes()).decode()
        items.append(
            f'<img src="data:image/png;base64,{data}" alt="{paper} {name}" '
            f'style="width:{width:.0f}px;max-width:100%;margin:0 8px 8px 0">'
        )
    return HTML('<div style="display:flex;flex-wrap:wrap;align-items:flex-start">' + "".join(items) + "</div>")


def final_table(results: str | Path, paper: str, figure: str) -> pd.DataFrame:
    """Mean ± s.e. of the final regret of each curve of a figure."""
    df = pd.read_csv(Path(results) / "figures" / paper / f"{figure}.csv")
    last = df[df["t"] == df.groupby(["panel", "curve"])["t"].transform("max")]
    return last[["panel_title", "curve", "t", "mean", "sem", "min", "max", "runs"]].reset_index(drop=True)


def frontier_reading(results: str | Path, paper: str = "crosspaper"):
    """Markdown: what the privacy-utility frontier shows, read from the frontier's tables: per reward law and
    privacy model with a contest, which algorithms are among the winners of the most (instance, epsilon) cells at
    low and at high epsilon (:mod:`.winners`); the rows below a bound that binds them, by cause; then the
    crossovers, the slopes in epsilon and the gap sweep (:mod:`.frontier_study`)."""
    from IPython.display import Markdown

    from .frontier import MODELS

    def table(name):
        return pd.read_csv(figure_path(results, paper, f"frontier/{name}", "csv"))

    rows, cells, below = table("frontier"), table("winners"), table("below")
    label = dict(zip(rows["algorithm"], rows["label"], strict=True))
    middle = float(np.sqrt(cells["epsilon"].min() * cells["epsilon"].max()))  # the grid's middle, log scale
    lines = []
    for (law, model), part in cells.groupby(["law", "model"], sort=False):
        if part["algorithms"].max() < 2:
            lines.append(f"- **{law.capitalize()} rewards, {MODELS[model][0]}**: {label[part['best'].iloc[0]]} alone.")
            continue
        texts = []
        for name, sub in (
            (f"ε < {middle:.2g}", part[part["epsilon"] < middle]),
            (f"ε ≥ {middle:.2g}", part[part["epsilon"] >= middle]),
        ):
            won = sub["winners"].str.split("+").explode().value_counts()
            texts.append(f"at {name}, " + ", ".join(f"{label[a]} in {n} of {len(sub)}" for a, n in won.head(3).items()))
        lines.append(
            f"- **{law.capitalize()} rewards, {MODELS[model][0]}** ({part['algorithms'].max()} algorithms), among "
            f"the winners: {'; '.join(texts)}; {int(part['tie'].sum())} of {len(part)} cells are ties."
        )
    if len(below):
        parts = []
        for cause, sub in below.groupby("cause", sort=False):
            counts = sub["label"].value_counts()
            parts.append(f"{len(sub)} {cause} (" + ", ".join(f"{lbl} {n}" for lbl, n in counts.items()) + ")")
        lines.append(
            f"- **Below a lower bound that binds them** by more than 2 s.e.: {len(below)} rows: {'; '.join(parts)}."
        )
    else:
        lines.append("- **No algorithm lies below a lower bound that binds it** by more than 2 s.e.")
    slopes, cross, gaps = table("slopes"), table("crossovers"), table("gap_slopes")
    if len(slopes):
        med = slopes.groupby("label")["slope"].median().sort_values()
        lines.append(
            "- **Slope of ln regret in ln ε over [0.1, 1]** (median over instances; theory −1 central, −2 local): "
            + ", ".join(f"{lbl} {v:.2f}" for lbl, v in med.items())
            + "."
        )
    if len(cross):
        reached = cross.groupby("label")["crossover"].median().dropna().sort_values()
        near = cross.groupby("label")["at_largest"].median().sort_values().head(3)
        lines.append(
            "- **Crossover** (least ε from which regret stays within 10 % of the best non-private algorithm, median "
            "over instances): "
            + (", ".join(f"{lbl} {v:g}" for lbl, v in reached.items()) or "none on the grid")
            + "; closest at the largest ε: "
            + ", ".join(f"{lbl} {v:.2g} times the limit" for lbl, v in near.items())
            + "."
        )
    if len(gaps):
        public = gaps[gaps["model"] == "none"]["slope"].median()
        private = gaps[gaps["model"] != "none"].groupby("epsilon")["slope"].median()
        lines.append(
            f"- **Gap sweep** (two arms): slope of ln regret in ln Δ, median {public:.2f} for the non-private "
            "algorithms (−1 asymptotically), and for the private ones "
            + ", ".join(f"{v:.2f} at ε = {e:g}" for e, v in private.items())
            + " (near 0 where privacy decides, positive where T is too short to learn)."
        )
    horizon = int(rows["horizon"].max())
    return Markdown(f"Computed from the frontier's tables (T = {horizon:,}):\n\n" + "\n".join(lines))


def frontier_ranking(results: str | Path, paper: str = "crosspaper") -> pd.DataFrame:
    """Mean rank of each private algorithm within its privacy model over the frontier's (instance, epsilon) cells
    that every reward law covers, one column per law (1 = best), with its sole wins and ties under the first law."""
    df = pd.read_csv(figure_path(results, paper, "frontier/ranking", "csv"))
    laws = list(dict.fromkeys(df["law"]))
    table = df.pivot_table(index=["model", "label"], columns="law", values="mean_rank")[laws]
    first = df[df["law"] == laws[0]].set_index(["model", "label"])[["wins", "ties", "cells"]]
    table = table.rename(columns=lambda law: f"{law} (mean rank)").join(first)
    return table.sort_values(["model", f"{laws[0]} (mean rank)"])


def figure_path(results: str | Path, paper: str, figure: str, ext: str = "png") -> Path:
    return Path(results) / "figures" / paper / f"{figure}.{ext}"


def claims_table(claims) -> pd.DataFrame:
    """Claims as a table (verdict first)."""
    df = pd.DataFrame([c.row() for c in claims])
    return df[["claim_id", "verdict", "statement", "criterion", "evidence", "numbers"]]
