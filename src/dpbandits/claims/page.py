"""The claims ledger as pages: ``results/claims.md`` and ``results/claims.csv`` gathered from the papers' ledgers
(:mod:`dpbandits.claims.ledger` computes the rows, headlines and robustness)."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from ..drawing.notebook import SMOKE, scale_note
from ._core import EMPIRICAL, FAILS, HOLDS, INCONCLUSIVE, KINDS
from .ledger import DEFAULT, diagnostic, paper_counts, sentence_rows


def _cell(text) -> str:
    return str(text).replace("|", "/").replace("\n", " ")


def _table(header: list[str], rows) -> list[str]:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(_cell(c) for c in row) + " |" for row in rows]
    return lines


ROBUSTNESS = ("robust", "depends", "unsettled", "no readings")
#: the last row of a paper's reading grid: what each reading's private algorithms spend at the papers' largest
#: horizon (dpbandits.privacy), with EXCEEDS where it is more than they promise
PRIVACY_ROW = "privacy spent (worst reward of one run)"
SYMBOL = {HOLDS: "holds", FAILS: "**fails**", INCONCLUSIVE: "?"}


def shown(verdict: str, scale: dict | None) -> str:
    """A verdict as a page shows it: :data:`SMOKE` (with the computed value in brackets) under a config's scale
    caps, where no verdict is a result."""
    return f"{SMOKE} (computed: {verdict})" if scale else verdict


def _tally(counts: dict, keys) -> str:
    return ", ".join(f"{k}: {counts.get(k, 0)}" for k in keys)


def markdown(df: pd.DataFrame, made_with: str = "", scale: dict | None = None) -> str:
    """``results/claims.md``: the papers' claims (one per sentence) with their headline verdicts and robustness,
    their sub-checks, the project's own checks apart, each paper's claims under every reading and the reading
    diagnostic; ``made_with`` (e.g. :func:`dpbandits.core.provenance.made_with`) is stated under the title, and a
    run scaled down by the config's ``scale`` caps opens with a warning and shows no verdict as a result."""
    default = df[df["reading"] == DEFAULT]
    sent = sentence_rows(df)
    heads = sent[sent["reading"] == DEFAULT]
    verdicts = heads["headline"].value_counts().to_dict()
    robust = heads["robustness"].value_counts().to_dict()
    lines = [
        "# Claims ledger",
        "",
        *([note, ""] if (note := scale_note(scale)) else []),
        *([f"Made with {made_with}.", ""] if made_with else []),
        f"{len(heads)} claims of the papers (one per sentence; a sentence's sub-checks are nested under it), each "
        "with its headline verdict: the verdict under the readings of the reconstructed values that the papers' "
        "text supports best (docs/reconstructions.md gives each reading's support). "
        + (
            "This run is scaled down, so no verdict is a result."
            if scale
            else f"Headline verdicts: {_tally(verdicts, (HOLDS, FAILS, INCONCLUSIVE))}. Robustness over the "
            f"readings the text does not contradict: {_tally(robust, ROBUSTNESS)}."
        ),
        "",
        "`robust`: every reading the text does not contradict gives the headline verdict. `depends`: one reaches "
        "the opposite verdict (holds <-> fails), or the headline is inconclusive and they reach both; the readings "
        "are named with their support. `unsettled`: they differ only through `inconclusive`. A reading the text "
        "contradicts is named but never makes a verdict depend on it.",
        "",
        "A difference counts when it lies beyond its Student-t interval (README, What a verdict needs).",
        "",
    ]
    if not scale:
        counts = paper_counts(df)
        lines += ["Per paper: its claims by headline verdict and robustness, and the project's rows beside them.", ""]
        lines += _table(list(counts.columns), counts.itertuples(index=False))
        lines.append("")
    over = default[default.get("privacy_exceeds", pd.Series("", default.index)) == "yes"].drop_duplicates("paper")
    if not over.empty:
        lines += [
            "Privacy: under the default readings, an algorithm of these papers spends more than it promises "
            "(worst reward of one run at the paper's largest horizon, dpbandits.privacy; docs/privacy.md), so its "
            "curves are not the private algorithm the paper describes: "
            + "; ".join(
                f"{r.paper}: " + ", ".join(part for part in r.privacy.split("; ") if "(EXCEEDS)" in part)
                for r in over.itertuples()
            )
            + ".",
            "",
        ]
    lines += ["## The papers' claims", ""]
    lines += _table(
        ["paper", "claim", "verdict", "robustness", "changed by", "statement", "sub-checks"],
        (
            [r.paper, r.sentence, f"**{shown(r.headline, scale)}**", r.robustness, r.changed_by, r.statement, r.rows]
            for r in heads.itertuples()
        ),
    )
    emp, others = default[default["kind"] == EMPIRICAL], default[default["kind"] != EMPIRICAL]
    lines += ["", "## Every sub-check of the papers' claims", ""]
    lines += _table(
        ["paper", "claim", "row", "role", "verdict", "robustness", "changed by", "criterion", "numbers"],
        (
            [
                r.paper,
                r.sentence,
                r.claim_id,
                r.role,
                shown(r.headline, scale),
                r.robustness,
                r.changed_by,
                r.criterion,
                r.numbers,
            ]
            for r in emp.itertuples()
        ),
    )
    lines += [
        "",
        "## The project's checks (not claims of the papers)",
        "",
        "Structural rows test what an algorithm's construction implies (they guard the implementation); project "
        "checks are anchors and re-readings the project adds; theory checks hold the curves to the papers' "
        "explicit regret bounds.",
        "",
    ]
    lines += _table(
        ["paper", "row", "kind", "verdict", "robustness", "changed by", "statement", "criterion", "numbers"],
        (
            [
                r.paper,
                r.claim_id,
                KINDS[r.kind],
                shown(r.headline, scale),
                r.robustness,
                r.changed_by,
                r.statement,
                r.criterion,
                r.numbers,
            ]
            for r in others.itertuples()
        ),
    )
    for paper, group in sent.groupby("paper", sort=False):
        names = list(dict.fromkeys(group["reading"]))
        if len(names) < 2:
            continue
        info = group.drop_duplicates("reading").set_index("reading")
        grid = group.pivot_table(index="sentence", columns="reading", values="verdict", aggfunc="first", sort=False)
        lines += ["", f"## {paper}: every claim under every reading", ""]
        lines += [
            "Each reading's support and the runs of the curves it changes (where fewer than the figure's): "
            + "; ".join(
                f"{n}: {info.at[n, 'support_text'] or info.at[n, 'support_level']}"
                + (f", runs {info.at[n, 'reading_runs']}" if info.at[n, "reading_runs"] else "")
                for n in names
                if n != DEFAULT
            )
            + ".",
            "",
        ]
        spends = "privacy" in info and info["privacy"].astype(bool).any()
        spent = [[PRIVACY_ROW, *(info.at[n, "privacy"] for n in names)]] if spends else []
        lines += _table(
            ["claim", *names],
            [
                *([claim, *(SYMBOL.get(grid.at[claim, n], grid.at[claim, n]) for n in names)] for claim in grid.index),
                *spent,
            ],
        )
    diag = diagnostic(df)
    lines += [
        "",
        "## Which reading agrees with the most claims (a diagnostic, not a verdict)",
        "",
        "Counts of each paper's claims (sentences; structural, project-check and theory rows left out) per "
        "reading, best first. The headline verdicts above stay the ledger's answer: a reading that agrees with "
        "more claims is a hint about how the paper's lost formula may have been meant, not evidence that the "
        "paper replicates.",
        "",
    ]
    lines += _table(
        ["paper", "reading", "support", "claims", "hold", "fail", "inconclusive", "all hold"],
        (
            [
                r.paper,
                r.reading,
                r.support,
                r.claims,
                r.holds,
                r.fails,
                r.inconclusive,
                "yes" if r.agrees_with_all else "no",
            ]
            for r in diag.itertuples()
        ),
    )
    return "\n".join(lines) + "\n"


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


__all__ = ["markdown", "shown", "write_ledger"]
