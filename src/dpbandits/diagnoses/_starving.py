"""Starving runs of DP-UCB-INT (Tossou & Dimitrakakis 2016, Algorithm 3), shared by the tossou2016 and crosspaper
diagnoses (docs/findings.md).

A run *starves* its best arm when that arm gets fewer than half of the horizon's pulls. Under the default reading
(``int_update="frozen"``, docs/reconstructions.md) an arm's index is refreshed only at the first decision after
each f-th pull of it, so one release whose Laplace draw lands far below the confidence bonus can hold the best
arm's index under the others' for good. :func:`ablation` reruns DP-UCB-INT's fast kernel on given draws (its
``replay`` loop, pull for pull the reference twin's decisions, as the contract checks) with every standard Laplace
draw times a noise factor: the same reward deciders and the same noise, only its scale changed.
"""

from __future__ import annotations

import math
import zlib

import numpy as np
import pandas as pd

from ..claims._core import halfwidth
from ..core import registry
from ..core.instances import NAMED, means_for

STARVING_SHARE = 0.5  # a run starves its best arm below this share of the horizon's pulls
NO_NOISE = 1e-6  # noise factor of the non-private ablation (a tiny noise keeps ties at probability zero)
INT = "dp_ucb_int"


def means_of(instance: str) -> np.ndarray:
    """float64[K] means of a curve table's instance label ('tossou_2arm', 'C2, K=5')."""
    name, _, k = instance.partition(", K=")
    return np.asarray(NAMED[name], dtype=float) if name in NAMED else means_for({"name": name, "k": int(k)})


def interval(epsilon: float, params: dict | None = None) -> int:
    """DP-UCB-INT's release interval f = ceil(1/eps') (Corollary 3.2) at target ``epsilon``."""
    from ..bandits.dp_ucb_int import interval as eps_and_f

    return eps_and_f(epsilon, {**default_params(), **(params or {})})[1]


def default_params() -> dict:
    return {k: p.default for k, p in registry.get(INT).params.items()}


def label_runs(runs: pd.DataFrame, curves: pd.DataFrame) -> pd.DataFrame:
    """``runs`` with the best arm's pulls (``best_pulls``), ``starving`` and the release interval ``f`` (INT only)."""
    inst = curves.drop_duplicates(["figure", "panel"]).set_index(["figure", "panel"])["instance"]
    out = runs.copy()
    out["variant"] = out["variant"].fillna("")
    best = [int(np.argmax(means_of(inst[(f, p)]))) for f, p in zip(out["figure"], out["panel"], strict=True)]
    out["best_pulls"] = [int(pulls[b]) for pulls, b in zip(out["pulls"], best, strict=True)]
    out["starving"] = out["best_pulls"] < STARVING_SHARE * out["horizon"]
    out["f"] = [interval(e) if a == INT else 0 for a, e in zip(out["algorithm"], out["epsilon"], strict=True)]
    return out


def share(hits: int, n: int) -> tuple[float, float]:
    """(proportion, binomial s.e.) of ``hits`` in ``n`` (s.e. from p(1-p)/n, and from 1/n when p is 0 or 1)."""
    p = hits / n
    return p, float(np.sqrt(max(p * (1 - p), 1.0 / n) / n))


def ablation(
    means, epsilon: float, horizon: int, runs: int, factors, seed: int, tag: str, update: str = "frozen"
) -> dict[float, pd.DataFrame]:
    """{factor: DataFrame(final_regret, best_pulls, starving) over ``runs``} of DP-UCB-INT (reading ``update`` of
    ``int_update``) with every Laplace draw times ``factor``, on the same draws for every factor (run i:
    SeedSequence(seed, (tag, i)))."""
    means = np.asarray(means, dtype=float)
    params, replay = {**default_params(), "int_update": update}, registry.get(INT).replay_function()
    f, best = interval(epsilon), int(np.argmax(means))
    releases = means.size * (horizon + 1) if update == "literal" else horizon // f + means.size + 1
    ckpt = np.array([horizon], dtype=np.int64)
    rows = {c: [] for c in factors}
    for i in range(runs):
        rng = np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(zlib.crc32(tag.encode()), i)))
        u, eta = rng.random(horizon), rng.laplace(size=releases)
        for c in factors:
            regret, pulls, _ = replay(means, epsilon, ckpt, params, u, eta * c, np.zeros(0, np.int64))
            rows[c].append((regret[-1], pulls[best]))
    out = {}
    for c, r in rows.items():
        df = pd.DataFrame(r, columns=["final_regret", "best_pulls"])
        df["starving"] = df["best_pulls"] < STARVING_SHARE * horizon
        out[c] = df
    return out


def mean_hw(x) -> tuple[float, float]:
    """(mean, Student-t 95 % half-width) of ``x`` (half-width inf below two values)."""
    x = np.asarray(x, dtype=float)
    if x.size < 2:
        return float(x.mean()) if x.size else math.nan, math.inf
    return float(x.mean()), float(halfwidth(x.std(ddof=1) / math.sqrt(x.size), x.size - 1))


def starving_summary(g: pd.DataFrame) -> dict:
    """Runs, starving runs and the mean final regret (95 % half-width) with and without them, of rows ``g`` of a
    runs table labelled by :func:`label_runs`."""
    m, hw = mean_hw(g["final_regret"])
    mk, hwk = mean_hw(g.loc[~g["starving"], "final_regret"])
    return {"runs": len(g), "starving": int(g["starving"].sum()), "mean": m, "hw": hw, "mean_kept": mk, "hw_kept": hwk}


def theory_violations(ctx) -> str:
    """The curves the claims ledger's theory check found above their bound ("none"; "n/a" before the ledger).

    Read from the row's text: the curve labels hold "=" and the list "; ", which :meth:`Context.numbers` splits.
    """
    if not (ctx.results / "claims" / f"{ctx.paper}.csv").exists():
        return "n/a"
    rows = ctx.ledger[(ctx.ledger["claim_id"] == "theory") & (ctx.ledger["reading"] == "default")]
    text = rows["numbers"].iloc[0] if len(rows) else ""
    return text.split("violations=", 1)[1] if "violations=" in text else "none"
