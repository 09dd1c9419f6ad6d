"""Tossou & Dimitrakakis 2016, the best-worst spreads: what carries ours past 664.5 (C5), and why Private-UCB's
stays far from 30,000 (C6)."""

from __future__ import annotations

import math

import pandas as pd

from ._core import PUBLISHED, RECONSTRUCTION, TEXT_OPEN, Context, Finding, Quote, decide
from ._starving import means_of
from ._tossou import (
    MAX_OUTLIERS,
    METRICS,
    OURS,
    OUTLIER_Z,
    PAPER_RUNS,
    SECTION4,
    SPREAD_OURS,
    SPREAD_PRIVATE_UCB,
    TWO_ARM,
    tables,
)

# --- C5: the best-worst spreads of our algorithms ----------------------------------------------------------------


def _outliers(x: pd.Series) -> pd.Series:
    """Runs beyond median +- OUTLIER_Z robust s.d. (1.4826 MAD; the s.d. where the MAD is 0), if they are a few
    (at most MAX_OUTLIERS: more is a wide or lumpy distribution, not a few outlying runs)."""
    scale = 1.4826 * (x - x.median()).abs().median() or x.std(ddof=1) or 1.0
    out = (x - x.median()).abs() > OUTLIER_Z * scale
    return out if out.sum() <= MAX_OUTLIERS else out & False


def spread_table(runs: pd.DataFrame, algorithms, threshold: float) -> pd.DataFrame:
    """Per (2-arm figure, algorithm, metric) over the first 100 runs: spread, outlying runs, spread without them,
    the outliers' and the median run's best-arm share of the pulls, and whether the spread reaches ``threshold``."""
    rows = []
    sel = runs[runs["figure"].isin(TWO_ARM) & runs["algorithm"].isin(algorithms) & (runs["variant"] == "")]
    for (fig, alg), g in sel.groupby(["figure", "algorithm"]):
        g = g.sort_values("run").head(PAPER_RUNS)
        shares = g["best_pulls"] / g["horizon"]
        for metric, col in METRICS.items():
            out = _outliers(g[col])
            kept = g.loc[~out, col]
            rows.append(
                {
                    "figure": fig,
                    "algorithm": alg,
                    "metric": metric,
                    "runs": len(g),
                    "spread": float(g[col].max() - g[col].min()),
                    "outliers": int(out.sum()),
                    "spread_kept": float(kept.max() - kept.min()),
                    "sd_kept": float(kept.std(ddof=1)),
                    "outlier_share": float(shares[out].mean()) if out.any() else math.nan,
                    "median_share": float(shares.median()),
                }
            )
    df = pd.DataFrame(rows)
    df["over"] = df["spread"] >= threshold
    df["over_kept"] = df["spread_kept"] >= threshold
    return df


def spreads(ctx: Context) -> Finding:
    _, runs = tables(ctx, TWO_ARM)
    df = spread_table(runs, OURS, SPREAD_OURS)
    over = df[df["over"]]
    left = over[over["over_kept"]]
    confirmed = bool(len(over) and left.empty)
    metric_gap = (
        df.pivot_table(index=["figure", "algorithm"], columns="metric", values="spread").diff(axis=1).iloc[:, -1].abs()
    )
    table = "\n".join(
        f"| {r.figure} | {r.algorithm} | {r.metric} | {r.spread:.1f} | {r.outliers} | {r.spread_kept:.1f} | "
        f"{r.outlier_share:.3f} | {r.median_share:.3f} |"
        for r in df.itertuples()
    )
    sd_needed = SPREAD_OURS / 5.0  # the range of 100 normal draws is about 5 s.d.
    result = (
        f"{len(over)} (panel, algorithm, metric) spreads reach {SPREAD_OURS:g}; {len(over) - len(left)} of them fall "
        f"below it once their outlying runs are set aside. Pseudo- and realised-regret spreads differ by at most "
        f"{metric_gap.max():.1f} (the realised regret adds each run's Bernoulli scatter).\n\n| panel | algorithm | "
        f"metric | spread | outlying runs | spread without them | outliers' best-arm share | median run's share |\n"
        f"|---|---|---|---|---|---|---|---|\n{table}"
        + (
            "\n\nStill above without outliers (ordinary scatter; the range of 100 runs is about 5 s.d., so "
            f"{SPREAD_OURS:g} needs a per-run s.d. near {sd_needed:.0f}): "
            + ", ".join(f"{r.figure} {r.algorithm} {r.metric} (s.d. {r.sd_kept:.0f})" for r in left.itertuples())
            + "."
            if len(left)
            else ""
        )
    )
    # which 2-arm panels "the 2 arms scenario" covers: both (as printed), or one privacy level only
    scopes = {"default": set(TWO_ARM), "ε = 1 panel only": {"fig2a"}, "ε = 0.1 panel only": {"fig2b"}}
    shown = {name: bool(len(over)) and not left["figure"].isin(figs).any() for name, figs in scopes.items()}
    clash = (
        f"the paper reports every spread of our algorithms under {SPREAD_OURS:g} in the 2-arm scenario; ours stay "
        f"above it without outlying runs in both 2-arm panels"
        if set(left["figure"]) >= set(TWO_ARM)
        else None
    )
    conclusion, rule = decide(shown, {"default": "stated"}, clash)
    summary = {
        PUBLISHED: "The spreads pass 664.5 only through a few outlying runs that starve the best arm (the "
        "algorithms' own behaviour, see the diagnosis `starving`), not through the choice of pseudo- or realised "
        "regret.",
        TEXT_OPEN: "In one 2-arm panel every spread stays under 664.5 once the starving runs are set aside, in the "
        "other the ordinary scatter passes it: the text does not say which privacy level its 664.5 covers.",
        RECONSTRUCTION: "Some spreads pass 664.5 through their ordinary run-to-run scatter in both 2-arm panels, where "
        "our reconstruction gives the algorithms a larger s.d. than the paper's number allows; the paper's per-run "
        "regrets of Figure 2 would settle it.",
    }.get(conclusion, "No spread reaches 664.5 here: the mechanism has nothing to explain in these data.")
    return Finding(
        "A spread is the range of 100 final regrets. A few runs that starve the best arm (for good, or for a "
        "stretch of the horizon) sit far above the others and set the maximum alone; the metric (pseudo- or "
        "realised regret, which the text does not name) only adds each run's Bernoulli scatter.",
        f"Per 2-arm panel, algorithm and metric, over the first {PAPER_RUNS} runs of the pipeline's runs tables: the "
        f"spread, the runs beyond median ± {OUTLIER_Z:g} robust s.d. (1.4826 MAD; a normal sample of 100 has none), "
        "the spread without them, and the best arm's share of the pulls in those runs and in the median run. "
        f"Criterion: every spread that reaches {SPREAD_OURS:g} falls below it without its outlying runs (at most "
        f"{MAX_OUTLIERS}), under each reading of which 2-arm panels the 664.5 covers (both, ε = 1 only, ε = 0.1 "
        "only).",
        result,
        confirmed,
        conclusion,
        summary,
        (
            Quote(
                "Moreover, we noticed that the difference between the best regret (after 100 runs) and worst regret "
                "is very consistent for all our algorithms and the non private UCB (it is under 664.5 for the 2 arms "
                "scenario).",
                SECTION4,
            ),
        ),
        {
            "spreads reaching 664.5": len(over),
            "below without outliers": len(over) - len(left),
            "largest pseudo/realised difference": float(metric_gap.max()),
            **{f"{r.figure}:{r.algorithm}:{r.metric}": f"{r.spread:.1f} ({r.outliers} out)" for r in over.itertuples()},
        },
        rule=rule,
    )


# --- C6: Private-UCB's spread --------------------------------------------------------------------------------------


def _private_ucb_bonus(k: int, horizon: int, epsilon: float, n: float) -> float:
    """c_T / n of the reconstructed Private-UCB at t = T (docs/reconstructions.md): c_t = K (ln T)^2 (ln(K T ln T) +
    4 ln t) / eps."""
    ln_t = math.log(horizon)
    return k * ln_t**2 * (math.log(k * horizon * ln_t) + 4 * ln_t) / epsilon / n


def private_ucb_spread(ctx: Context) -> Finding:
    curves, runs = tables(ctx, TWO_ARM)
    base = spread_table(runs, ("private_ucb",), SPREAD_PRIVATE_UCB)
    lines, bonus_over, numbers = [], True, {}
    for fig, g in runs[(runs["algorithm"] == "private_ucb") & (runs["variant"] == "")].groupby("figure"):
        first = curves[(curves["figure"] == fig) & (curves["algorithm"] == "private_ucb")].iloc[0]
        means = means_of(first["instance"])
        gap = float(means.max() - means.min())
        worse = (g["horizon"] - g["best_pulls"]).median()
        bonus = _private_ucb_bonus(means.size, int(g["horizon"].max()), float(first["epsilon"]), max(worse, 1.0))
        share_worse = 1 - g["best_pulls"] / g["horizon"]
        bonus_over &= bonus >= gap
        lines.append(f"| {fig} | {share_worse.mean():.3f} ± {share_worse.std(ddof=1):.3f} | {bonus:.3f} | {gap:g} |")
        numbers[f"{fig}: worse arm's share"] = f"{share_worse.mean():.3f} (s.d. {share_worse.std(ddof=1):.3f})"
        numbers[f"{fig}: bonus c_T/n at T"] = round(float(bonus), 3)
    by_reading = {"default": float(base["spread"].max())}
    for reading in ctx.reading_slugs():
        rr = pd.concat([ctx.runs(f, reading) for f in TWO_ARM], ignore_index=True)
        rr = rr[(rr["algorithm"] == "private_ucb") & (rr["variant"].fillna("") == "")]
        by_reading[reading] = max(
            float(g[col].max() - g[col].min()) for _, g in rr.groupby("figure") for col in METRICS.values() if len(g)
        )
    support = ctx.reading_support()
    shown = {r: bool(bonus_over) and v < SPREAD_PRIVATE_UCB for r, v in by_reading.items()}
    kept = {r: v for r, v in by_reading.items() if support.get(r, "consistent") != "contradicted"}
    clash = (
        f"the paper reports a Private-UCB spread of 30,000; ours stays at most {max(kept.values()):,.0f} under every "
        "reading the text supports"
        if kept and max(kept.values()) < SPREAD_PRIVATE_UCB
        else None
    )
    conclusion, rule = decide(shown, support, clash)
    confirmed = all(shown.values())
    numbers.update({f"largest spread ({k})": round(v, 1) for k, v in by_reading.items()})
    readings = "; ".join(f"{k}: {v:.0f}" for k, v in by_reading.items())
    result = (
        "| panel | worse arm's share of the pulls (mean ± s.d. over runs) | bonus c_T/n at T | gap Δ |\n"
        "|---|---|---|---|\n" + "\n".join(lines) + f"\n\nLargest Private-UCB spread (either metric, either 2-arm "
        f"panel) under each reading: {readings}; the claim needs {SPREAD_PRIVATE_UCB:,.0f}."
    )
    return Finding(
        "Our Private-UCB is a reconstruction: the paper gives only its source and its failure probability t^-4. Its "
        "confidence term c_t/n (c_t of order K (ln T)^3/ε) is still at least the gap at the horizon, so every run "
        "keeps sharing its pulls between the arms almost evenly and the final regrets barely differ; a 30,000 spread "
        "needs runs that stay on the worse arm, which such a bonus never allows.",
        "From the pipeline's runs tables of Figure 2 (a, b): the worse arm's share of the pulls per run, the bonus "
        "c_T/n at the horizon for the median run's worse-arm count, and the largest spread under the default and "
        f"every reading. Under a reading the mechanism shows if the bonus is at least Δ in both panels and the "
        f"spread stays under {SPREAD_PRIVATE_UCB:,.0f}.",
        result,
        confirmed,
        conclusion,
        {
            RECONSTRUCTION: "Our reconstructed Private-UCB explores so hard that every run loses about the same "
            "regret, far from the paper's 30,000 under every reading the text supports; Mishra & Thakurta's own "
            "confidence term would settle it.",
            TEXT_OPEN: "Private-UCB's spread reaches the claim's size only under some readings: which one the "
            "authors ran decides C6.",
        }.get(
            conclusion,
            "Private-UCB's spread is not held down by its confidence term under any reading the text supports "
            "(see the criterion).",
        ),
        (Quote("However, this gap reaches 30,000 for Private-UCB.", SECTION4),),
        numbers,
        rule=rule,
    )
