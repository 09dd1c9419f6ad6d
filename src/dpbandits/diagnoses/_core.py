"""The pieces of a diagnosis: what it explains, the context it reads, and the finding it returns.

A :class:`Diagnosis` explains why one or more claims of a paper fail (or depend on a reading): its ``analyse``
function reads the pipeline's tables and simulations through a :class:`Context` (the paper's figures, its
diagnostic figures ``diagnostics/<name>`` simulated by the ``simulate`` rule, the readings' tables) and, where
it needs per-step traces, runs the algorithms' reference twins itself, seeded from the config's root seed. It
returns a :class:`Finding`: whether the experiment showed the suspected mechanism (``confirmed``, computed from
the data, so it can come out either way) and what follows (``conclusion``, one of :data:`CONCLUSIONS`), chosen by
:func:`decide` from the experiment's outcome under each reading and the text's support for that reading.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path

import numpy as np
import pandas as pd

from ..pipeline.support import SUPPORT_LEVELS

PUBLISHED = "published"  # the published algorithm does this: the paper's claim or theorem fails for it as printed
TEXT_OPEN = "text open"  # the paper's text leaves it open: which readings matter is stated
RECONSTRUCTION = "reconstruction suspect"  # something in our reconstruction may be off: what would settle it
UNEXPLAINED = "not explained"  # the experiment does not show the suspected mechanism under any supported reading
CONCLUSIONS = {
    PUBLISHED: "the published algorithm does this",
    TEXT_OPEN: "the text leaves it open",
    RECONSTRUCTION: "our reconstruction is suspect",
    UNEXPLAINED: "the experiment does not show the suspected mechanism",
}


def _names(readings) -> str:
    return ", ".join(f"`{r}`" for r in readings) or "none"


def decide(shown: dict[str, bool], support: dict[str, str], discrepancy: str | None = None) -> tuple[str, str]:
    """The conclusion of a diagnosis and one sentence stating the rule that chose it.

    shown       : reading name ("default" included) -> whether the experiment shows the mechanism under it
    support     : reading name -> one of :data:`SUPPORT_LEVELS` (a reading missing from it is "consistent")
    discrepancy : a named mismatch with something the paper reports (a number, a figure's shape), or None

    In order: a discrepancy -> RECONSTRUCTION; shown under every reading the text supports (not "contradicted")
    -> PUBLISHED; shown under some supported readings only -> TEXT_OPEN; under none -> UNEXPLAINED.
    """
    if not shown:
        raise ValueError("decide: shown is empty (give at least the default reading's outcome)")
    for reading, level in support.items():
        if level not in SUPPORT_LEVELS:
            raise ValueError(f"decide: support[{reading!r}]={level!r} is not one of {list(SUPPORT_LEVELS)}")
    if discrepancy:
        return (
            RECONSTRUCTION,
            f"Our data disagree with what the paper reports ({discrepancy}), so the rule stops there.",
        )
    level = {r: support.get(r, "consistent") for r in shown}
    kept = [r for r in shown if level[r] != "contradicted"]
    dropped = [r for r in shown if level[r] == "contradicted"]
    aside = f"; set aside as contradicted by the text: {_names(dropped)}" if dropped else ""
    yes, no = [r for r in kept if shown[r]], [r for r in kept if not shown[r]]
    if yes and not no:
        return PUBLISHED, f"Shown under every reading the text supports ({_names(yes)}){aside}."
    if yes:
        return (
            TEXT_OPEN,
            f"Among the readings the text supports, shown under {_names(yes)}, not under {_names(no)}{aside}.",
        )
    if not kept:
        return UNEXPLAINED, f"No reading the text supports was tried{aside}."
    return UNEXPLAINED, f"Not shown under any reading the text supports ({_names(no)}){aside}."


@dataclass(frozen=True)
class Quote:
    """A sentence of the paper and where it stands (section, equation, line)."""

    text: str
    where: str


@dataclass
class Finding:
    """What a diagnosis found.

    mechanism  : Markdown, the suspected mechanism as the experiment tests it
    experiment : Markdown, what was run (settings, runs, the command's target)
    result     : Markdown, what came out, with numbers
    confirmed  : whether the experiment shows the mechanism (computed from the data)
    conclusion : one of :data:`CONCLUSIONS`
    summary    : one line: the conclusion in words (the closing line of the diagnosis)
    quotes     : the paper's own words on the matter
    numbers    : the numbers behind ``result`` (name -> value), written to the findings table
    figure     : file name of a PNG the diagnosis drew in :attr:`Context.figure_dir`, or None
    rule       : the sentence of :func:`decide` that chose ``conclusion`` (the readings on each side)
    smoke      : set by :func:`~dpbandits.diagnoses.diagnose` when the run is under a smoke config's scale caps
    """

    mechanism: str
    experiment: str
    result: str
    confirmed: bool
    conclusion: str
    summary: str
    quotes: tuple[Quote, ...] = ()
    numbers: dict = field(default_factory=dict)
    figure: str | None = None
    rule: str = ""
    smoke: bool = False

    def __post_init__(self):
        if self.conclusion not in CONCLUSIONS:
            raise ValueError(f"Finding.conclusion={self.conclusion!r} is not one of {list(CONCLUSIONS)}")


@dataclass(frozen=True)
class Diagnosis:
    """One diagnosis of one paper.

    claims   : the claim ids it explains (``claim_id`` of ``results/claims/<paper>.csv``)
    title    : a short heading (the failure, in words)
    figures  : the paper's figures it reads (tables and simulations become the report rule's inputs),
               ``diagnostics/<name>`` for a diagnostic figure of the paper's ``diagnostics`` block
    readings : True if it reads the readings' tables (``results/readings/``)
    analyse  : ``analyse(ctx) -> Finding``
    """

    paper: str
    name: str
    claims: tuple[str, ...]
    title: str
    analyse: Callable[[Context], Finding]
    figures: tuple[str, ...] = ()
    readings: bool = False


class Context:
    """What a diagnosis reads: one paper's results under ``results`` (as the pipeline writes them).

    ``sims``   : {figure: {cid: [job files]}} of the figures whose simulations the diagnosis may load
    ``seed``   : the config's root seed (twins run by a diagnosis are seeded from it)
    ``scale``  : the config's scale caps ({} at the papers' scale); twin experiments honour ``max_runs``
    ``figure_dir``: where the diagnosis draws its PNGs
    """

    def __init__(self, results, paper: str, sims=None, seed: int = 0, scale=None, figure_dir=None):
        self.results, self.paper = Path(results), paper
        self.sims_files = sims or {}
        self.seed, self.scale = int(seed), dict(scale or {})
        self.figure_dir = Path(figure_dir) if figure_dir else self.results / "report" / paper
        self.figure_dir.mkdir(parents=True, exist_ok=True)

    @cached_property
    def ledger(self) -> pd.DataFrame:
        """Every (claim, reading) row of the paper's claims file."""
        return pd.read_csv(self.results / "claims" / f"{self.paper}.csv", dtype=str, keep_default_na=False)

    @property
    def claims(self) -> pd.DataFrame:
        """The default reading's rows, indexed by claim id."""
        return self.ledger[self.ledger["reading"] == "default"].set_index("claim_id")

    def verdict(self, claim_id: str) -> str:
        return self.claims.loc[claim_id, "verdict"]

    def numbers(self, claim_id: str, reading: str = "default") -> dict[str, str]:
        """The ``numbers`` text of a claim's ledger row as {name: value text}. A name may hold "=" (the value is
        what follows the last one); a value holding "=" or "; " (the theory check's ``where``) is not recoverable
        this way: read it from the claims module (:mod:`dpbandits.claims`) instead."""
        row = self.ledger[(self.ledger["claim_id"] == claim_id) & (self.ledger["reading"] == reading)]
        text = row["numbers"].iloc[0] if len(row) else ""
        return dict(part.rsplit("=", 1) for part in text.split("; ") if "=" in part)

    def curves(self, figure: str, reading: str | None = None) -> pd.DataFrame:
        """A figure's curve table (default, or under reading ``reading``: its slug directory's table)."""
        return pd.read_csv(self._base(reading) / f"{figure}.csv", dtype={"variant": str})

    def runs(self, figure: str, reading: str | None = None) -> pd.DataFrame:
        """A figure's per-run finals, with the pull counts as an int array column ``pulls``."""
        df = pd.read_csv(self._base(reading) / f"{figure}_runs.csv", dtype={"variant": str})
        if "pulls" in df:
            df["pulls"] = [np.array(s.split(), dtype=np.int64) for s in df["pulls"]]
        return df

    def reading_slugs(self) -> dict[str, str]:
        """{reading name: slug directory} of the readings simulated for this paper."""
        out = {}
        for manifest in sorted(self.results.glob(f"readings/*/figures/{self.paper}/reading.json")):
            out[json.loads(manifest.read_text())["reading"]] = manifest.parents[2].name
        return out

    def reading_support(self) -> dict[str, str]:
        """{reading name: support level} in this paper's text, from the ``support`` entry ({paper: {"level": ...,
        ...}}) of each reading's ``reading.json``; a manifest without it is "consistent", and "default" counts as
        "stated" (no axis's default is one the text contradicts: tests/test_support.py)."""
        out = {"default": "stated"}
        for manifest in sorted(self.results.glob(f"readings/*/figures/{self.paper}/reading.json")):
            meta = json.loads(manifest.read_text())
            entry = meta.get("support", {}).get(self.paper)
            level = entry.get("level", "consistent") if isinstance(entry, dict) else (entry or "consistent")
            if level not in SUPPORT_LEVELS:
                raise ValueError(f"{manifest}: support level {level!r} is not one of {list(SUPPORT_LEVELS)}")
            out[meta["reading"]] = level
        return out

    def _base(self, reading: str | None) -> Path:
        if reading in (None, "default"):
            return self.results / "figures" / self.paper
        return self.results / "readings" / self.reading_slugs()[reading] / "figures" / self.paper

    def sims(self, figure: str) -> dict[str, dict]:
        """{cid: {epsilon: SimulationResult}} of a figure's regret configurations (all runs)."""
        from ..pipeline.io import load_groups

        return {cid: load_groups(paths, cid) for cid, paths in self.sims_files[figure].items()}

    def save(self, fig, name: str, dpi: int = 150) -> str:
        """Lay out, write and close the matplotlib figure ``fig`` as ``figure_dir/name``; returns ``name`` (what
        :attr:`Finding.figure` takes)."""
        import matplotlib.pyplot as plt

        fig.tight_layout()
        fig.savefig(self.figure_dir / name, dpi=dpi)
        plt.close(fig)
        return name

    def cap_runs(self, runs: int) -> int:
        """``runs`` under the config's ``max_runs`` cap (a smoke run's twin experiments stay small)."""
        return min(runs, self.scale.get("max_runs", runs))

    def cap_horizon(self, horizon: int) -> int:
        return min(horizon, self.scale.get("max_horizon", horizon))
