"""The claims ledger: every claim of a paper under the default reading and under each alternative reading.

One row per (claim, reading). Each reading carries its textual support (``reading.json``'s ``support``, from
:func:`dpbandits.pipeline.readings.manifest`): ``support`` is the sum over the axes it sets of the rank of its value
minus that of the axis's default (stated > implied > consistent > contradicted; the default reading is 0) and
``support_level`` the weakest level among its values. The default reading's row carries the claim's *headline*:

- ``headline``: the verdict under the best-supported readings (the highest ``support``, the default first among
  equals), ``headline_by`` the reading it comes from;
- ``robustness`` of the headline over the readings the text does not contradict: ``robust`` (every one gives
  it), ``depends`` (one reaches the opposite definite verdict, holds <-> fails, or the headline is
  ``inconclusive`` and they reach both), ``unsettled`` (they differ only through ``inconclusive``), ``no
  readings``;
- ``changed_by``: each reading whose verdict differs, with that verdict and its support; readings the text
  contradicts are named there too, marked so, and never make a verdict ``depends``.

Rows are typed (``kind``: paper claim, structural, project check, theory check) and grouped by the sentence of the
paper they test (``sentence``, ``role``; :mod:`dpbandits.claims.sentences`): counts of the papers' claims count
sentences. A per-paper diagnostic says which reading agrees with the most of the paper's claims; it sits beside the
headline verdicts and never replaces them.
"""

from __future__ import annotations

import json
from dataclasses import fields
from pathlib import Path

import pandas as pd

from ._core import EMPIRICAL, FAILS, HOLDS, INCONCLUSIVE, KINDS, Claim
from .bound_check import theory
from .sentences import sentence_of, sentence_verdict

DEFAULT = "default"
CONTRADICTED = "contradicted"
READING_COLUMNS = ["reading", "reading_runs", "support", "support_level", "support_text", "privacy", "privacy_exceeds"]
# a paper without claims: header only
COLUMNS = [*(f.name for f in fields(Claim)), "sentence", "role", *READING_COLUMNS]
OPPOSITE = {HOLDS: FAILS, FAILS: HOLDS}


def _runs_text(runs: dict) -> str:
    return ", ".join(f"{alg}: {n}" for alg, n in sorted(runs.items()))


def spent_privacy(results: str | Path, paper: str) -> dict[str, tuple[str, str]]:
    """{reading: (what its private algorithms spend, "yes" if one spends more than promised)} from
    ``results/privacy/<paper>.csv`` (:func:`dpbandits.privacy.table`; empty if absent). A reading that changes no
    algorithm's parameters spends what the default does (it has no rows of its own)."""
    path = Path(results, "privacy", f"{paper}.csv")
    if not path.exists():
        return {}
    df = pd.read_csv(path, keep_default_na=False)
    out = {}
    for reading, group in df.groupby("reading", sort=False):
        parts = []
        for r in group.itertuples():
            at = f"eps={r.epsilon:g}" + (f", delta={r.delta:.2g}" if r.delta else "")
            parts.append(f"{r.label} {r.spent:.3g} at {at}" + (" (EXCEEDS)" if r.exceeds == "yes" else ""))
        out[reading] = ("; ".join(parts), "yes" if (group["exceeds"] == "yes").any() else "")
    return out


def paper_claims(results: str | Path, paper: str, readings=()) -> pd.DataFrame:
    """Rows (claim, reading) of ``paper``: its claims and theory check on the default tables under
    ``results/figures/<paper>/`` and on each reading's tables under ``results/readings/<slug>/``, with the
    privacy each reading spends (:func:`spent_privacy`).

    ``readings``: slugs of the readings to evaluate (each directory holds a ``reading.json`` manifest).
    """
    from . import PAPERS

    spent = spent_privacy(results, paper)
    default_spent = spent.get(DEFAULT, ("", ""))
    first = (DEFAULT, "", 0, "default", "", *default_spent)
    sources = [(Path(results), dict(zip(READING_COLUMNS, first, strict=True)))]
    for slug in readings:
        base = Path(results, "readings", slug)
        manifest = json.loads((base / "figures" / paper / "reading.json").read_text())
        support = manifest.get("support", {}).get(paper, {})
        sources.append(
            (
                base,
                {
                    "reading": manifest["reading"],
                    "reading_runs": _runs_text(manifest["runs"]),
                    "support": int(support.get("relative", 0)),
                    "support_level": support.get("level", "consistent"),
                    "support_text": support.get("text", ""),
                    "privacy": spent.get(manifest["reading"], default_spent)[0],
                    "privacy_exceeds": spent.get(manifest["reading"], default_spent)[1],
                },
            )
        )
    rows = []
    for base, reading in sources:
        claims = (PAPERS[paper](base) if paper in PAPERS else []) + theory(base, paper)
        for claim in claims:
            sentence, role = sentence_of(paper, claim.claim_id)
            rows.append({**claim.row(), "sentence": sentence, "role": role, **reading})
    return with_robustness(pd.DataFrame(rows, columns=COLUMNS))


def with_robustness(df: pd.DataFrame, key: str = "claim_id") -> pd.DataFrame:
    """``df`` (rows per ``key`` and reading, with ``support`` and ``support_level``) with ``headline``,
    ``headline_by``, ``robustness`` and ``changed_by`` on the default rows (see the module docstring)."""
    df = df.copy()
    for col in ("headline", "headline_by", "robustness", "changed_by"):
        df[col] = ""
    if df.empty:
        return df
    df["support"] = pd.to_numeric(df["support"]).astype(int)
    for _, group in df.groupby(["paper", key], sort=False):
        default = group[group["reading"] == DEFAULT]
        if default.empty:
            continue
        idx = default.index[0]
        # the best-supported reading; among equals the default, then the first listed (a stable sort)
        later = group["reading"] != DEFAULT
        ranked = group.assign(later=later).sort_values(["support", "later"], ascending=[False, True], kind="stable")
        best = ranked.iloc[0]
        verdict = best["verdict"]
        weighed = group[(group.index != best.name) & (group["support_level"] != CONTRADICTED)]
        differ = weighed[weighed["verdict"] != verdict]
        if len(group) == 1:
            label = "no readings"
        elif differ.empty:
            label = "robust"
        elif OPPOSITE.get(verdict) in set(differ["verdict"]) or {HOLDS, FAILS} <= set(differ["verdict"]):
            label = "depends"
        else:
            label = "unsettled"
        changed = group[(group.index != best.name) & (group["verdict"] != verdict)]
        df.loc[idx, ["headline", "headline_by", "robustness"]] = [verdict, best["reading"], label]
        df.at[idx, "changed_by"] = "; ".join(_changed(r) for r in changed.itertuples())
    return df


def _changed(row) -> str:
    """ "reading -> verdict" with the reading's support (and "text contradicts it" where it does)."""
    spends = "; spends more privacy than promised" if getattr(row, "privacy_exceeds", "") == "yes" else ""
    if row.reading == DEFAULT:
        return f"{row.reading} -> {row.verdict}" + (f" ({spends[2:]})" if spends else "")
    note = "the text contradicts it" if row.support_level == CONTRADICTED else (row.support_text or row.support_level)
    return f"{row.reading} -> {row.verdict} ({note}{spends})"


def sentence_rows(df: pd.DataFrame) -> pd.DataFrame:
    """The papers' claims, one row per (sentence, reading): each sentence's verdict under each reading from its
    rows' (:func:`dpbandits.claims.sentences.sentence_verdict`), with the headline and robustness of
    :func:`with_robustness` (keyed by ``sentence``) and ``rows``, its sub-checks under the default reading."""
    emp = df[df["kind"] == EMPIRICAL]
    rows = []
    for (paper, sid, _), g in emp.groupby(["paper", "sentence", "reading"], sort=False):
        first = g.iloc[0]
        roles = dict(zip(g["claim_id"], g["role"], strict=True))
        rows.append(
            {
                "paper": paper,
                "sentence": sid,
                "statement": first["statement"],
                "verdict": sentence_verdict(dict(zip(g["claim_id"], g["verdict"], strict=True)), roles),
                "rows": "; ".join(f"{r.claim_id} ({r.role}): {r.verdict}" for r in g.itertuples())
                if len(g) > 1
                else "",
                **{c: first.get(c, "") for c in READING_COLUMNS},  # a ledger without privacy columns: ""
            }
        )
    cols = ["paper", "sentence", "statement", "verdict", "rows", *READING_COLUMNS]
    return with_robustness(pd.DataFrame(rows, columns=cols), key="sentence")


def paper_counts(df: pd.DataFrame) -> pd.DataFrame:
    """Per paper: the number of its claims (sentences) by headline verdict and by robustness, and the number of
    rows of each other kind (structural, project check, theory check) beside them."""
    sent = sentence_rows(df)
    sent = sent[sent["reading"] == DEFAULT]
    out = []
    for paper in dict.fromkeys(df["paper"]):
        s = sent[sent["paper"] == paper]
        row = {"paper": paper, "claims": len(s)}
        row |= {v: int((s["headline"] == v).sum()) for v in (HOLDS, FAILS, INCONCLUSIVE)}
        row |= {r: int((s["robustness"] == r).sum()) for r in ("robust", "depends", "unsettled", "no readings")}
        others = df[(df["paper"] == paper) & (df["reading"] == DEFAULT) & (df["kind"] != EMPIRICAL)]
        row |= {KINDS[k]: int((others["kind"] == k).sum()) for k in KINDS if k != EMPIRICAL}
        out.append(row)
    return pd.DataFrame(out)


def empirical(df: pd.DataFrame) -> pd.DataFrame:
    """Rows of the papers' claims: sentences of a paper (not the structural, project-check or theory rows)."""
    return df[df["kind"] == EMPIRICAL]


def diagnostic(df: pd.DataFrame) -> pd.DataFrame:
    """Per paper and reading: how many of the paper's claims (sentences) hold / fail / are inconclusive, best
    readings first, with the reading's textual support.

    ``agrees_with_all``: every claim of the paper holds under that reading.
    """
    cols = ["paper", "reading", "support", "claims", HOLDS, FAILS, INCONCLUSIVE, "agrees_with_all"]
    sent = sentence_rows(df)
    if sent.empty:
        return pd.DataFrame(columns=cols)
    counts = sent.pivot_table(
        index=["paper", "reading"], columns="verdict", values="sentence", aggfunc="count", fill_value=0
    )
    counts = counts.reindex(columns=[HOLDS, FAILS, INCONCLUSIVE], fill_value=0).reset_index()
    counts.columns.name = None
    levels = sent.drop_duplicates(["paper", "reading"]).set_index(["paper", "reading"])
    counts["support"] = [
        "default" if r == DEFAULT else (levels.at[(p, r), "support_text"] or levels.at[(p, r), "support_level"])
        for p, r in zip(counts["paper"], counts["reading"], strict=True)
    ]
    counts["claims"] = counts[[HOLDS, FAILS, INCONCLUSIVE]].sum(axis=1)
    counts["agrees_with_all"] = counts[HOLDS] == counts["claims"]
    counts["is_default"] = counts["reading"] == DEFAULT
    counts = counts.sort_values(["paper", HOLDS, FAILS, "is_default"], ascending=[True, False, True, False])
    return counts[cols].reset_index(drop=True)


def write_paper(results: str | Path, paper: str, readings, csv: str | Path) -> pd.DataFrame:
    """Evaluate ``paper``'s claims under every reading (:func:`paper_claims`) and write them to ``csv``."""
    df = paper_claims(results, paper, readings)
    Path(csv).parent.mkdir(parents=True, exist_ok=True)
    df.to_csv(csv, index=False)
    return df


def verdicts(results: str | Path, paper: str) -> pd.DataFrame:
    """A paper's headline verdicts (one row per ledger row of the default reading, from
    ``results/claims/<paper>.csv``), for notebooks and reports: ``verdict`` is the headline (the best-supported
    readings'), ``default_verdict`` the default reading's; ``kind`` and ``sentence`` say what the row is."""
    df = pd.read_csv(Path(results, "claims", f"{paper}.csv"), dtype=str, keep_default_na=False)
    df = df[df["reading"] == DEFAULT].rename(columns={"verdict": "default_verdict", "headline": "verdict"})
    cols = ["claim_id", "kind", "sentence", "role", "verdict", "robustness", "changed_by", "default_verdict"]
    cols += ["headline_by", "statement", "criterion", "evidence", "numbers"]
    return df[[c for c in cols if c in df]].reset_index(drop=True)


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
    "paper_counts",
    "sentence_rows",
    "paper_claims",
    "reading_grid",
    "runs_by_reading",
    "verdicts",
    "with_robustness",
    "write_paper",
]
