"""The claims ledger: every claim of a paper under the default reading and under each alternative reading.

One row per (claim, reading). The default reading's row carries the verdict's robustness:

- ``robust``: every reading gives the default's verdict;
- ``depends``: some reading reaches the opposite definite verdict (``holds`` <-> ``fails``), or the default is
  ``inconclusive`` and the readings reach both ``holds`` and ``fails``;
- ``unsettled``: no reading reaches the opposite verdict, but some differ by being (or by making the default
  look) inconclusive, e.g. because a reading was simulated with fewer runs;
- ``no readings``: the paper has no alternative reading in this run.

``changed_by`` names each reading whose verdict differs, with that verdict. A per-paper diagnostic says
which reading agrees with the most of the paper's empirical claims (sentences of the paper: not the
structural, check or theory rows); it sits beside the default verdicts and never replaces them.
"""

from __future__ import annotations

import json
from dataclasses import fields
from pathlib import Path

import pandas as pd

from ..drawing.notebook import scale_note
from ._core import EMPIRICAL, FAILS, HOLDS, INCONCLUSIVE, Claim
from .bound_check import theory

DEFAULT = "default"
COLUMNS = [*(f.name for f in fields(Claim)), "reading", "reading_runs"]  # a paper without claims: header only
OPPOSITE = {HOLDS: FAILS, FAILS: HOLDS}


def _runs_text(runs: dict) -> str:
    return ", ".join(f"{alg}: {n}" for alg, n in sorted(runs.items()))


def paper_claims(results: str | Path, paper: str, readings=()) -> pd.DataFrame:
    """Rows (claim, reading) of ``paper``: its claims and theory check on the default tables under
    ``results/figures/<paper>/`` and on each reading's tables under ``results/readings/<slug>/``.

    ``readings``: slugs of the readings to evaluate (each directory holds a ``reading.json`` manifest).
    """
    from . import PAPERS

    sources = [(DEFAULT, Path(results), "")]
    for slug in readings:
        base = Path(results, "readings", slug)
        manifest = json.loads((base / "figures" / paper / "reading.json").read_text())
        sources.append((manifest["reading"], base, _runs_text(manifest["runs"])))
    rows = []
    for reading, base, runs in sources:
        claims = (PAPERS[paper](base) if paper in PAPERS else []) + theory(base, paper)
        for claim in claims:
            rows.append({**claim.row(), "reading": reading, "reading_runs": runs})
    return with_robustness(pd.DataFrame(rows, columns=COLUMNS))


def with_robustness(df: pd.DataFrame) -> pd.DataFrame:
    """``df`` (rows per claim and reading) with ``robustness`` and ``changed_by`` on the default rows."""
    df = df.copy()
    df["robustness"], df["changed_by"] = "", ""
    if df.empty:
        return df
    for _, group in df.groupby(["paper", "claim_id"], sort=False):
        default = group[group["reading"] == DEFAULT]
        if default.empty:
            continue
        idx = default.index[0]
        verdict = df.at[idx, "verdict"]
        others = group[group["reading"] != DEFAULT]
        differ = others[others["verdict"] != verdict]
        if others.empty:
            label = "no readings"
        elif differ.empty:
            label = "robust"
        elif OPPOSITE.get(verdict) in set(differ["verdict"]) or {HOLDS, FAILS} <= set(differ["verdict"]):
            label = "depends"
        else:
            label = "unsettled"
        df.at[idx, "robustness"] = label
        df.at[idx, "changed_by"] = "; ".join(f"{r.reading} -> {r.verdict}" for r in differ.itertuples())
    return df


def empirical(df: pd.DataFrame) -> pd.DataFrame:
    """Rows of the papers' empirical claims: sentences of a paper (not the structural, check or theory rows)."""
    return df[df["kind"] == EMPIRICAL]


def diagnostic(df: pd.DataFrame) -> pd.DataFrame:
    """Per paper and reading: how many empirical claims hold / fail / are inconclusive, best readings first.

    ``agrees_with_all``: every empirical claim of the paper holds under that reading.
    """
    emp = empirical(df)
    if emp.empty:
        return pd.DataFrame(columns=["paper", "reading", "claims", HOLDS, FAILS, INCONCLUSIVE, "agrees_with_all"])
    counts = emp.pivot_table(
        index=["paper", "reading"], columns="verdict", values="claim_id", aggfunc="count", fill_value=0
    )
    counts = counts.reindex(columns=[HOLDS, FAILS, INCONCLUSIVE], fill_value=0).reset_index()
    counts.columns.name = None
    counts["claims"] = counts[[HOLDS, FAILS, INCONCLUSIVE]].sum(axis=1)
    counts["agrees_with_all"] = counts[HOLDS] == counts["claims"]
    counts["is_default"] = counts["reading"] == DEFAULT
    counts = counts.sort_values(["paper", HOLDS, FAILS, "is_default"], ascending=[True, False, True, False])
    return counts[["paper", "reading", "claims", HOLDS, FAILS, INCONCLUSIVE, "agrees_with_all"]].reset_index(drop=True)


def _cell(text) -> str:
    return str(text).replace("|", "/").replace("\n", " ")


def _table(header: list[str], rows) -> list[str]:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(_cell(c) for c in row) + " |" for row in rows]
    return lines


SYMBOL = {HOLDS: "holds", FAILS: "**fails**", INCONCLUSIVE: "?"}


def markdown(df: pd.DataFrame, made_with: str = "", scale: dict | None = None) -> str:
    """``results/claims.md``: default verdicts with robustness, each paper's verdicts per reading, diagnostic;
    ``made_with`` (e.g. :func:`dpbandits.core.provenance.made_with`) is stated under the title, and a run scaled down
    by the config's ``scale`` caps opens with a warning."""
    default = df[df["reading"] == DEFAULT]
    counts = default["verdict"].value_counts().to_dict()
    robust = default["robustness"].value_counts().to_dict()
    lines = [
        "# Claims ledger",
        "",
        *([note, ""] if (note := scale_note(scale)) else []),
        *([f"Made with {made_with}.", ""] if made_with else []),
        "Every empirical claim of the papers, with a verdict computed from this run's simulations under the "
        "default reading of the reconstructed values "
        f"({', '.join(f'{v}: {n}' for v, n in counts.items())}), and the same claim under every alternative "
        "reading (docs/reconstructions.md). Robustness of the default verdict: "
        f"{', '.join(f'{v}: {n}' for v, n in robust.items())}.",
        "",
        "`robust`: every reading gives the same verdict. `depends`: some reading reaches the opposite verdict "
        "(holds <-> fails), or the default is inconclusive and the readings reach both; the readings are named. "
        "`unsettled`: readings differ only through `inconclusive` (e.g. fewer runs), never the opposite verdict.",
        "",
        "A difference counts when it lies beyond its Student-t interval: the critical value for the estimate's "
        "degrees of freedom (runs - 1, Welch-Satterthwaite for two curves) at the one-sided tail of 2 normal "
        "standard errors, so 2 s.e. with many runs and 3.3 s.e. with 4.",
        "",
        "## Default verdicts",
        "",
    ]
    lines += _table(
        ["paper", "claim", "verdict", "robustness", "changed by", "statement", "criterion", "numbers"],
        (
            [r.paper, r.claim_id, f"**{r.verdict}**", r.robustness, r.changed_by, r.statement, r.criterion, r.numbers]
            for r in default.itertuples()
        ),
    )
    for paper, group in df.groupby("paper", sort=False):
        names = list(dict.fromkeys(group["reading"]))
        if len(names) < 2:
            continue
        runs = dict(zip(group["reading"], group["reading_runs"], strict=False))
        grid = group.pivot_table(index="claim_id", columns="reading", values="verdict", aggfunc="first", sort=False)
        lines += ["", f"## {paper}: every claim under every reading", ""]
        lines += [
            "Runs of the curves a reading changes (where fewer than the figure's): "
            + "; ".join(f"{n}: {runs[n]}" for n in names if runs.get(n))
            + ".",
            "",
        ]
        lines += _table(
            ["claim", *names],
            ([claim, *(SYMBOL.get(grid.at[claim, n], grid.at[claim, n]) for n in names)] for claim in grid.index),
        )
    diag = diagnostic(df)
    lines += [
        "",
        "## Which reading agrees with the most claims (a diagnostic, not a verdict)",
        "",
        "Counts of each paper's empirical claims (sentences of the paper; structural, check and theory rows "
        "left out) per reading, best first. The default verdicts above "
        "stay the ledger's answer: a reading that agrees with more claims is a hint about how the paper's "
        "lost formula may have been meant, not evidence that the paper replicates.",
        "",
    ]
    lines += _table(
        ["paper", "reading", "claims", "hold", "fail", "inconclusive", "all hold"],
        (
            [r.paper, r.reading, r.claims, r.holds, r.fails, r.inconclusive, "yes" if r.agrees_with_all else "no"]
            for r in diag.itertuples()
        ),
    )
    return "\n".join(lines) + "\n"


def write_paper(results: str | Path, paper: str, readings, csv: str | Path) -> pd.DataFrame:
    """Evaluate ``paper``'s claims under every reading (:func:`paper_claims`) and write them to ``csv``."""
    df = paper_claims(results, paper, readings)
    Path(csv).parent.mkdir(parents=True, exist_ok=True)
    df.to_csv(csv, index=False)
    return df


def write_ledger(
    paper_csvs,
    csv: str | Path,
    md: str | Path,
    diagnostic_csv: str | Path,
    made_with: str = "",
    scale: dict | None = None,
) -> pd.DataFrame:
    """Gather the per-paper ledgers into ``claims.csv``, ``claims.md`` (stating ``made_with``, warning when
    ``scale`` caps apply) and the reading diagnostic."""
    df = pd.concat([pd.read_csv(p, dtype=str, keep_default_na=False) for p in paper_csvs], ignore_index=True)
    df.to_csv(csv, index=False)
    Path(md).write_text(markdown(df, made_with, scale))
    diagnostic(df).to_csv(diagnostic_csv, index=False)
    return df


def verdicts(results: str | Path, paper: str) -> pd.DataFrame:
    """A paper's default verdicts with their robustness (from ``results/claims/<paper>.csv``), for notebooks."""
    df = pd.read_csv(Path(results, "claims", f"{paper}.csv"), dtype=str, keep_default_na=False)
    cols = ["claim_id", "verdict", "robustness", "changed_by", "statement", "criterion", "evidence", "numbers"]
    return df[df["reading"] == DEFAULT][[c for c in cols if c in df]].reset_index(drop=True)


def reading_grid(results: str | Path, paper: str) -> pd.DataFrame:
    """Claim x reading table of verdicts of ``paper`` (default reading first)."""
    df = pd.read_csv(Path(results, "claims", f"{paper}.csv"), dtype=str, keep_default_na=False)
    grid = df.pivot_table(index="claim_id", columns="reading", values="verdict", aggfunc="first", sort=False)
    return grid[list(dict.fromkeys(df["reading"]))]


def runs_by_reading(results: str | Path, paper: str, figure: str) -> pd.DataFrame:
    """Per-run finals (``<figure>_runs.csv``) of ``figure`` under the default and every reading, with a
    ``reading`` column: how a reading changes single runs (e.g. runs stuck on a suboptimal arm)."""
    tables = [pd.read_csv(Path(results, "figures", paper, f"{figure}_runs.csv")).assign(reading=DEFAULT)]
    for manifest in sorted(Path(results, "readings").glob(f"*/figures/{paper}/reading.json")):
        name = json.loads(manifest.read_text())["reading"]
        tables.append(pd.read_csv(manifest.parent / f"{figure}_runs.csv").assign(reading=name))
    return pd.concat(tables, ignore_index=True)


__all__ = [
    "DEFAULT",
    "diagnostic",
    "markdown",
    "paper_claims",
    "reading_grid",
    "runs_by_reading",
    "verdicts",
    "with_robustness",
    "write_ledger",
    "write_paper",
]
