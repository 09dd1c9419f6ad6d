"""The privacy audit's report (:mod:`dpbandits.audit`): ``audit.md`` from the table of
:func:`dpbandits.audit.run.audit_all`.

It says what is audited (which code, which tables, which epsilon, which output), lists every audit and
tabulates the audit's power: per private algorithm, which under-noisings of its twin were flagged.
"""

from __future__ import annotations

import pandas as pd

from ..core import registry

_MD_COLUMNS = [
    "algorithm",
    "engine",
    "variant",
    "epsilon",
    "delta",
    "horizon",
    "trials",
    "table",
    "flip",
    "events",
    "loss_estimate",
    "loss_lower",
    "loss_upper",
    "verdict",
]
NOT_RUN = "not run"


def _factor(f: float) -> str:
    return f"x{f:g}"


def power_table(df: pd.DataFrame, factors) -> pd.DataFrame:
    """Per private algorithm: the verdict of its twin's control and power rows at each factor.

    Parameters
    ----------
    df : DataFrame        ``audit_all``'s table (columns algorithm, engine, role, noise_factor, verdict,
                          loss_lower)
    factors : floats      the under-noising factors tried, in the order tried (control first)

    Returns
    -------
    DataFrame indexed by algorithm: one column ``x<factor>`` per factor, each ``flagged (<loss_lower>)``,
    ``not flagged (<loss_lower>)`` or ``not run``, then ``smallest under-noising detected``: the largest
    factor flagged (``x<factor>``), or ``none``.
    """
    rows = df[(df["engine"] == "twin") & df["role"].isin(["control", "power"])]
    out = {}
    for name, group in rows.groupby("algorithm", sort=False):
        by_factor = {float(r.noise_factor): r for r in group.itertuples()}
        cells = {}
        for f in factors:
            r = by_factor.get(float(f))
            if r is None:
                cells[_factor(f)] = NOT_RUN
            else:
                word = "flagged" if r.verdict == "violation" else "not flagged"
                cells[_factor(f)] = f"{word} ({r.loss_lower:.2f})"
        flagged = [f for f, r in by_factor.items() if r.verdict == "violation"]
        cells["smallest under-noising detected"] = _factor(max(flagged)) if flagged else "none"
        out[name] = cells
    return pd.DataFrame.from_dict(out, orient="index").rename_axis("algorithm")


def _table(frame: pd.DataFrame, columns) -> list[str]:
    def cell(v):
        if isinstance(v, float):
            return f"{v:.3g}"
        return str(v).replace("|", "\\|")

    lines = ["| " + " | ".join(columns) + " |", "|" + "---|" * len(columns)]
    for _, row in frame.iterrows():
        lines.append("| " + " | ".join(cell(row[c]) for c in columns) + " |")
    return lines


def _scope(df: pd.DataFrame) -> list[str]:
    names = list(dict.fromkeys(df["algorithm"]))
    kernel = [n for n in names if (df.loc[df["algorithm"] == n, "engine"] == "kernel").any()]
    kinds = {n: registry.ALGORITHMS[n].kind if n in registry.ALGORITHMS else "regret" for n in names}
    bai = [n for n in names if kinds[n] == "bai"]
    fast = [n for n in names if (df.loc[df["algorithm"] == n, "engine"] == "fast").any()]
    twin_only = [n for n in names if n not in kernel and n not in bai and n not in fast]
    eps = df.groupby("algorithm", sort=False)["epsilon"].first()
    other_eps = [f"{n} at {e:g}" for n, e in eps.items() if e != eps.mode().iloc[0]]

    def listed(xs):
        return ", ".join(f"`{x}`" for x in xs) or "none"

    return [
        "## What is audited",
        "",
        "- Output released: the whole action sequence A_1..A_T of one run (BAI: the recommended arm). The",
        "  probability is over the algorithm's own randomness (noise, tie-breaks); the rewards are a fixed",
        "  table x (`table`, K x horizon) and its neighbour x', x with the one entry `flip` = (arm, pull",
        "  index), 0-based, flipped (the papers' neighbouring reward tables).",
        f"- epsilon: {eps.mode().iloc[0]:g}"
        + (f", except {', '.join(other_eps)} (their audit plans say why, Notes)" if other_eps else "")
        + "; delta is subtracted for (epsilon, delta) algorithms.",
        "- Engine `twin`: the per-step reference twin (`dpbandits.reference`), for every regret algorithm;",
        f"  BAI algorithms ({listed(bai)}) run their own simulation code on the table",
        "  (`dpbandits.bai.run_on_table`).",
        "- Engine `kernel`: the fast numba kernel that the simulations use, through its step loop on given",
        "  draws (`Algorithm.replay`): Laplace draws of the package's own block sampler (times the control's",
        "  factor) and uniform tie picks from the audit's generator; the table's rewards are imposed through",
        f"  the reward deciders. Audited this way: {listed(kernel)}.",
        "- Engine `fast`: the fast kernel's own `run` (every draw through its own samplers) on a table x whose",
        "  arms each give a constant 0 or 1 (means 0 and 1), against the twin on x'; the output is the pulls",
        "  per arm at the horizon. A kernel equal in law to its twin stays within epsilon; its noise cannot be",
        f"  scaled from outside, so it has no control. Audited this way: {listed(fast)}.",
        f"- Twin only: {listed(twin_only)}.",
        "",
    ]


def to_markdown(
    df: pd.DataFrame, seed: int | None = None, control_factor: float | None = None, power_factors=()
) -> str:
    """Readable Markdown report of ``audit_all``'s table (with the power table when controls ran)."""
    lines = [
        "# Privacy audit",
        "",
        *(_scope(df) if len(df) else []),
        "## Audits",
        "",
        "`events`: direction (x>x': P(E|x) / P(E|x')) and up to 3 outputs of the best event (arm digits; a",
        "leading … cuts a deterministic prefix). `loss_lower`: simultaneous (1 - alpha)",
        "Clopper-Pearson/Bonferroni lower bound on the privacy loss, measured on a sample independent of the",
        "event selection (delta subtracted for (epsilon, delta) algorithms); `loss_estimate`: smoothed",
        "empirical log ratio of that event; `loss_upper`: largest smoothed empirical log ratio over single",
        "outputs (optimistic). The verdict is `violation` iff loss_lower > epsilon. Variant `control xF`",
        "multiplies every noise scale by F; the control (smallest F) must be flagged unless the algorithm's",
        "audit plan says why it cannot be (Notes).",
        "",
        *_table(df, _MD_COLUMNS),
    ]
    if control_factor is not None and (df["role"] == "control").any():
        factors = [control_factor, *power_factors]
        power = power_table(df, factors).reset_index()
        power_s, total_s = df.loc[df["role"] == "power", "seconds"].sum(), df["seconds"].sum()
        lines += [
            "",
            "## Power: the smallest under-noising the audit detects",
            "",
            f"The twin's noise scales times {', '.join(_factor(f) for f in factors)}, tried in this order while",
            "the previous factor was flagged (`not run`: a smaller under-noising already went unflagged;",
            "detection is taken to fall as the noise grows). Each cell: verdict (loss_lower). Halving the",
            "noise is expected NOT to be flagged for several algorithms: on these tiny tables the papers'",
            "accounting is loose (e.g. the hybrid counter's first release is only epsilon/2-DP), so the true",
            "loss of a mildly under-noised run can stay below epsilon. The table shows what the audit can",
            "see, not a defect.",
            f"Trials per table: {int(df['trials'].iloc[0])} (selection: {int(df['selection_trials'].iloc[0])})"
            + (f"; seed {seed} for every row" if seed is not None else "")
            + f"; the power rows took {power_s:.0f} s of the audit's {total_s:.0f} s.",
            "",
            *_table(power, list(power.columns)),
        ]
    notes = list(
        dict.fromkeys(
            f"* {row['algorithm']}: {row['notes']}"
            for _, row in df.iterrows()
            if isinstance(row["notes"], str) and row["notes"]
        )
    )
    if notes:
        lines += ["", "Notes:", "", *notes]
    if len(df):
        lines += ["", f"alpha = {df['alpha'].iloc[0]:g}; parameters per row are in audit.csv."]
    return "\n".join(lines) + "\n"
