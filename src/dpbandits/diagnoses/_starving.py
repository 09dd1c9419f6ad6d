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
    releases = {"literal": means.size * (horizon + 1), "scheduled": means.size * (horizon // f + 2)}
    releases = releases.get(update, horizon // f + means.size + 1)
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


# --- the release readings side by side -------------------------------------------------------------------------------

READING_HORIZONS = (100_000, 1_000_000)  # T of Figure 2, and ten times it
READING_RUNS = {100_000: 500, 1_000_000: 200}  # replayed runs per reading (2 arms: ~4 ms and ~40 ms a run)
COUNT_RUNS = 3  # twin runs per reading whose releases are counted (T = 1e5: under a second each)


def release_stats(releases, v: float) -> tuple[float, float, float]:
    """(releases per interval, eps spent, its multiple of one release per interval) of a release log [(t, arm, n)].

    An interval is one (arm, count n) released at; a release at count n is n^(-v/2)-DP for the arm's rewards it
    reads (Lemma 3.1). eps spent: by simple composition on the reward every release of its arm reads (the arm's
    first), the largest over arms: sum of n^(-v/2) over the arm's releases; priced once per interval: over its
    distinct n."""
    if not releases:
        raise ValueError("release_stats: the release log is empty")
    arms = {a for _, a, _ in releases}
    spent = {a: sum(n ** (-v / 2) for _, b, n in releases if b == a) for a in arms}
    priced = {a: sum(n ** (-v / 2) for n in {n for _, b, n in releases if b == a}) for a in arms}
    worst = max(arms, key=spent.get)
    per = len(releases) / len({(a, n) for _, a, n in releases})
    return per, spent[worst], spent[worst] / priced[worst]


def count_releases(means, epsilon: float, horizon: int, runs: int, seed: int, update: str) -> tuple[float, ...]:
    """Mean :func:`release_stats` over ``runs`` runs of DP-UCB-INT's reference twin (reading ``update``), whose
    release log counts every Laplace release."""
    from ..reference.tossou import DPUCBInt

    params = {**default_params(), "int_update": update}
    means, stats = np.asarray(means, dtype=float), []
    for i in range(runs):
        rng = np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(zlib.crc32(update.encode()), i)))
        twin = DPUCBInt(means.size, horizon, epsilon, rng, params)
        for t in range(1, horizon + 1):
            a = twin.select(t)
            twin.update(a, float(rng.random() < means[a]))
        stats.append(release_stats(twin.releases, params["v"]))
    return tuple(np.mean(stats, axis=0))


def reading_table(means, epsilon: float, seed: int, cap_runs, cap_horizon) -> pd.DataFrame:
    """One row per (reading of ``int_update``, horizon T in :data:`READING_HORIZONS` under ``cap_horizon``):
    runs, starving runs and their exact 95 % interval (lo, hi), the starving share without the noise (``quiet``, at
    the first T), mean final regret and half-width, Theorem 3.5's bound at T and the ratio, and the release counts
    of :func:`count_releases` (at the first T). ``cap_runs``/``cap_horizon``: a Context's caps."""
    from scipy.stats import binomtest

    from ..bandits.dp_ucb_int import UPDATES
    from ..drawing.theory import dp_ucb_int_thm35

    means, rows = np.asarray(means, dtype=float), []
    horizons = sorted({cap_horizon(h) for h in READING_HORIZONS})
    for update in UPDATES:
        counts = count_releases(means, epsilon, horizons[0], cap_runs(COUNT_RUNS), seed, update)
        for h in horizons:
            n = cap_runs(READING_RUNS.get(h, READING_RUNS[READING_HORIZONS[0]]))
            factors = (NO_NOISE, 1.0) if h == horizons[0] else (1.0,)
            out = ablation(means, epsilon, h, n, factors, seed, f"readings:{h}", update)
            k = int(out[1.0]["starving"].sum())
            ci = binomtest(k, n).proportion_ci()
            m, hw = mean_hw(out[1.0]["final_regret"])
            bound = float(dp_ucb_int_thm35(means, [h], epsilon, default_params())[0])
            quiet = int(out[NO_NOISE]["starving"].sum()) if NO_NOISE in out else math.nan
            rows.append(
                {"reading": update, "horizon": h, "runs": n, "starving": k, "lo": ci.low, "hi": ci.high}
                | {"quiet": quiet, "mean": m, "hw": hw, "bound": bound, "ratio": m / bound}
                | dict(zip(("per_interval", "eps_spent", "eps_multiple"), counts, strict=True))
            )
    return pd.DataFrame(rows)


def starving_shown(table: pd.DataFrame) -> dict[str, bool]:
    """{reading: whether the noise starves runs}: at the first T, the starving share with the noise above the one
    without by more than 2 binomial s.e. (:func:`share`)."""
    first = table[table["horizon"] == table["horizon"].min()]
    out = {}
    for r in first.itertuples():
        (p1, se1), (p0, se0) = share(r.starving, r.runs), share(int(r.quiet), r.runs)
        out[r.reading] = bool(p1 - p0 > 2 * math.hypot(se1, se0))
    return out


def reading_markdown(table: pd.DataFrame) -> str:
    """The Markdown table of :func:`reading_table`."""
    head = (
        "| reading | T | starving (95 % exact interval) | mean final regret | / Thm 3.5 bound | releases per interval "
        "| ε spent (× one release per interval) |\n|---|---|---|---|---|---|---|\n"
    )
    return head + "\n".join(
        f"| {r.reading} | {r.horizon:.0e} | {r.starving}/{r.runs} ({r.lo:.3f}-{r.hi:.3f}) | {r.mean:.0f} ± {r.hw:.0f} "
        f"| {r.ratio:.2f} | {r.per_interval:.1f} | {r.eps_spent:.2f} (× {r.eps_multiple:.1f}) |"
        for r in table.itertuples()
    )


def support_levels() -> dict[str, str]:
    """{reading of ``int_update``: its support level in the text} (:mod:`dpbandits.pipeline.support`)."""
    from ..pipeline.support import support

    return {r: support("int_update", r).level for r in registry.get(INT).params["int_update"].readings}
