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
    """Markdown: what the privacy-utility frontier shows, read from ``frontier/frontier.csv``: per reward law,
    the private algorithms that are best in the most (instance, epsilon) cells at low and at high epsilon and,
    for Bernoulli rewards, how far the best is from the largest lower bound."""
    from IPython.display import Markdown

    from .frontier import BERNOULLI, CLEAR, best_private

    rows = pd.read_csv(figure_path(results, paper, "frontier/frontier", "csv"))
    best = best_private(rows)
    middle = float(np.sqrt(best["epsilon"].min() * best["epsilon"].max()))  # the grid's middle, log scale
    lines = []
    for law, cells in best.groupby("law", sort=False):
        parts = []
        for name, part in (
            (f"ε < {middle:.2g}", cells[cells["epsilon"] < middle]),
            (f"ε ≥ {middle:.2g}", cells[cells["epsilon"] >= middle]),
        ):
            wins = part["label"].value_counts()
            top = ", ".join(f"{lbl} ({n} of {len(part)} cells)" for lbl, n in wins.head(3).items())
            parts.append(f"at {name} the best is {top}")
        clear = int((cells["margin"] >= CLEAR).sum())
        text = f"- **{law.capitalize()} rewards**: " + "; ".join(parts)
        text += f". The best is a clear win (runner-up ≥ {CLEAR:g} s.e. behind) in {clear} of {len(cells)} cells"
        if law == BERNOULLI and cells["ratio_to_bound"].notna().any():
            ratio = cells["ratio_to_bound"]
            text += (
                f". The best algorithm's final regret is {ratio.median():.2g} times the largest lower bound in the "
                f"median cell (from {ratio.min():.2g} to {ratio.max():.2g})"
            )
        lines.append(text + ".")
    horizon = int(rows["horizon"].max())
    return Markdown(
        f"Computed from `frontier.csv` (T = {horizon:,}; the bounds are asymptotic or order-only, so a ratio below 1 "
        "at this horizon is possible and says the bound's constant or its limit, not the algorithm, is loose):\n\n"
        + "\n".join(lines)
    )


def frontier_ranking(results: str | Path, paper: str = "crosspaper") -> pd.DataFrame:
    """Mean rank of each private algorithm over the frontier's (instance, epsilon) cells that every reward law
    covers, one column per law (1 = best), best under the first law first."""
    df = pd.read_csv(figure_path(results, paper, "frontier/ranking", "csv"))
    laws = list(dict.fromkeys(df["law"]))
    table = df.pivot_table(index="label", columns="law", values="mean_rank")[laws]
    return table.sort_values(laws[0]).rename(columns=lambda law: f"{law} (mean rank)")


def figure_path(results: str | Path, paper: str, figure: str, ext: str = "png") -> Path:
    return Path(results) / "figures" / paper / f"{figure}.{ext}"


def claims_table(claims) -> pd.DataFrame:
    """Claims as a table (verdict first)."""
    df = pd.DataFrame([c.row() for c in claims])
    return df[["claim_id", "verdict", "statement", "criterion", "evidence", "numbers"]]
