"""The audit's power table (:func:`power_table`): per private algorithm, the largest under-noising factor whose
audit is flagged, the trials that took, and what halving the noise would need where it is not flagged.

Per algorithm, on its twin (BAI: ``run_on_table``), at its audit epsilon and one seed, the factors of
``factors`` (default x0.5, x0.25, x0.1: hardest to detect first) are tried in turn; each is audited at the
trials of ``ladder`` in turn until it is flagged or the projected trials exceed the ladder's top. The first
factor flagged ends the algorithm's row (detection is taken to rise as the noise shrinks). Nothing here
depends on timing: the same seed gives the same table, which :mod:`dpbandits.audit.baseline` compares.

Projection (:func:`needed_trials`): the gap between the event's estimated loss and its lower confidence
bound shrinks as 1/sqrt(trials), so a lower bound of ``lower`` at ``trials`` with estimate ``estimate`` >
epsilon reaches epsilon near ``trials * ((estimate - lower) / (estimate - epsilon))**2`` trials; with
``estimate <= epsilon`` more trials of the same event never suffice.
"""

from __future__ import annotations

import math
import time

import pandas as pd

from .loss import DEFAULT_ALPHA, audit_algorithm
from .runners import default_algorithms, lookup

TABLE_FACTORS = (0.5, 0.25, 0.1)  # under-noisings tried, hardest first
LADDER = (2000, 8000, 32000)  # trials per table tried per factor


def needed_trials(trials: int, estimate: float, lower: float, epsilon: float) -> float:
    """Trials at which the lower bound would reach ``epsilon`` (inf if ``estimate <= epsilon``), see above."""
    if estimate <= epsilon:
        return math.inf
    return trials * ((estimate - lower) / (estimate - epsilon)) ** 2


def _factor(f: float) -> str:
    return f"x{f:g}"


def algorithm_power(name, epsilon=1.0, seed=0, alpha=DEFAULT_ALPHA, factors=TABLE_FACTORS, ladder=LADDER) -> dict:
    """One row of :func:`power_table` for ``name`` (audited at its ``Audit.epsilon`` where set)."""
    alg = lookup(name)
    eps = epsilon if alg.audit.epsilon is None else alg.audit.epsilon
    row = {"algorithm": name, "epsilon": eps, "flagged": "none", "trials": 0, "audits": 0}
    start = time.perf_counter()
    for f in factors:
        for n in ladder:
            r = audit_algorithm(name, eps, n, seed, f, alpha=alpha)
            row["audits"] += 1
            row[f"{_factor(f)} trials"], row[f"{_factor(f)} lower"] = n, r.loss_lower
            row[f"{_factor(f)} estimate"] = r.loss_estimate
            need = needed_trials(n, r.loss_estimate, r.loss_lower, eps)
            row[f"{_factor(f)} needs"] = n if r.verdict == "violation" else need
            if r.verdict == "violation" or need > ladder[-1]:
                break
        if r.verdict == "violation":
            row["flagged"], row["trials"] = _factor(f), n
            break
    row["seconds"] = time.perf_counter() - start
    return row


def power_table(algorithms=None, epsilon=1.0, seed=0, alpha=DEFAULT_ALPHA, factors=TABLE_FACTORS, ladder=LADDER):
    """DataFrame, one row per private algorithm (default every one): ``flagged`` (largest factor flagged, or
    ``none``), ``trials`` (per table, of the flagging audit), ``audits``, ``seconds`` (wall) and per factor tried
    its last audit's ``trials``, ``lower`` and ``estimate`` (loss bounds) and ``needs`` (trials, projected where
    not flagged; inf: out of reach of this event)."""
    factors, ladder = [float(f) for f in factors], [int(n) for n in ladder]
    if not factors or any(not 0 < f < 1 for f in factors) or factors != sorted(factors, reverse=True):
        raise ValueError(f"factors must descend strictly within (0, 1), got {factors}")
    if not ladder or ladder != sorted(set(ladder)) or ladder[0] < 10:
        raise ValueError(f"ladder must ascend strictly from at least 10 trials, got {ladder}")
    names = [n for n in (default_algorithms() if algorithms is None else algorithms) if lookup(n).private]
    return pd.DataFrame([algorithm_power(n, epsilon, seed, alpha, factors, ladder) for n in names])


def _needs(v) -> str:
    return "out of reach" if v == math.inf else f"~{int(math.ceil(v / 1000.0)) * 1000:,}"


def power_markdown(df: pd.DataFrame, factors=TABLE_FACTORS) -> str:
    """The power table as markdown: per algorithm the factor flagged, trials, time and, per factor, the lower
    bound reached and the trials it needs."""
    head = ["algorithm", "epsilon", "flagged", "trials", "seconds"]
    head += [f"{_factor(f)}: lower (trials needed)" for f in factors]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for r in df.to_dict("records"):
        cells = [r["algorithm"], f"{r['epsilon']:g}", r["flagged"], f"{r['trials']:,}", f"{r['seconds']:.0f}"]
        for f in factors:
            lower = r.get(f"{_factor(f)} lower")
            if lower is None or (isinstance(lower, float) and math.isnan(lower)):
                cells.append("not run")
            else:
                cells.append(f"{lower:.2f} ({_needs(r[f'{_factor(f)} needs'])})")
        lines.append("| " + " | ".join(cells) + " |")
    total = df["seconds"].sum() if len(df) else 0.0
    return "\n".join([*lines, "", f"Total: {total:.0f} s wall for {int(df['audits'].sum())} audits."]) + "\n"
