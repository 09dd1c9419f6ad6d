"""Diagnoses of the failing claims of tossou2016 (docs/findings.md).

``starving``: one Laplace release freezes DP-UCB-INT's best arm below the other's (C1). ``literal_bound``: Theorem
3.5 fails under Algorithm 3 read literally (theory). ``spreads``: what carries the best-worst spreads past 664.5 (C5).
``private_ucb_spread``: why Private-UCB's spread stays far from 30,000 (C6). ``round_robin``: Private-UCB is not the
worst while every algorithm still explores uniformly (C4). ``bound_catches``: how the readings move "DP-UCB-BOUND
eventually catches DP-UCB" (C3).
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from ._core import PUBLISHED, RECONSTRUCTION, TEXT_OPEN, Context, Diagnosis, Finding, Quote
from ._starving import (
    INT,
    NO_NOISE,
    ablation,
    interval,
    label_runs,
    mean_hw,
    means_of,
    share,
    starving_summary,
    theory_violations,
)

PAPER = "tossou2016"
FIGS = ("fig2a", "fig2b", "fig2c", "fig2d")
TWO_ARM = ("fig2a", "fig2b")
PRIVATE = ("dp_ucb_bound", "dp_ucb_tossou", "private_ucb")
OURS = ("ucb", INT, "dp_ucb_tossou", "dp_ucb_bound")
FACTORS = (NO_NOISE, 0.5, 1.0, 2.0)
ABLATION_FIGS = ("fig2a", "fig2c")  # epsilon = 1 (f = 16), where starving runs are frequent enough to count
ABLATION_RUNS = 500  # per panel and noise factor: 2 x 4 x 500 replayed runs of T = 1e5, about 40 s
PAPER_RUNS = 100  # "Experimental results with 100 runs" (Figure 2)
SPREAD_OURS, SPREAD_PRIVATE_UCB = 664.5, 15_000.0  # the claims' thresholds (claims/tossou2016.py)
MAX_OUTLIERS = 5  # "a few" of 100 runs
OUTLIER_Z = 6.0  # robust z-score of an outlying run (median +- 6 x 1.4826 MAD; a normal sample of 100 has none)
METRICS = {"pseudo": "final_regret", "realised": "final_realised_regret"}
SECTION4 = "Section 4, Experiments"


def _tables(ctx: Context, figures=FIGS) -> tuple[pd.DataFrame, pd.DataFrame]:
    """(curves, runs labelled by :func:`label_runs`) of ``figures``."""
    curves = pd.concat([ctx.curves(f) for f in figures], ignore_index=True)
    curves["variant"] = curves["variant"].fillna("")
    runs = pd.concat([ctx.runs(f) for f in figures], ignore_index=True)
    return curves, label_runs(runs, curves)


def _bound_at_horizon(curves: pd.DataFrame, figure: str, curve: str) -> float:
    rows = curves[(curves["figure"] == figure) & (curves["curve"] == curve)]
    return float(rows.loc[rows["t"].idxmax(), "bound"])


# --- C1: starving runs ------------------------------------------------------------------------------------------------


def _ablations(ctx: Context, curves: pd.DataFrame, runs: pd.DataFrame) -> pd.DataFrame:
    """One row per (figure, noise factor): starving runs and mean final regret of the same-draws ablation."""
    rows = []
    for fig in ABLATION_FIGS:
        first = curves[(curves["figure"] == fig) & (curves["algorithm"] == INT)].iloc[0]  # UCB's epsilon is NaN
        horizon = int(runs.loc[runs["figure"] == fig, "horizon"].max())
        n = ctx.cap_runs(ABLATION_RUNS)
        out = ablation(means_of(first["instance"]), float(first["epsilon"]), horizon, n, FACTORS, ctx.seed, fig)
        for c, df in out.items():
            rows.append({"figure": fig, "factor": c, "runs": n, "starving": int(df["starving"].sum()), **_regret(df)})
    return pd.DataFrame(rows)


def _regret(df: pd.DataFrame) -> dict:
    m, hw = mean_hw(df["final_regret"])
    return {"mean": m, "hw": hw}


def _int_at_horizon(curves: pd.DataFrame, runs: pd.DataFrame) -> pd.DataFrame:
    """Per INT curve: mean final regret with and without its starving runs, its bound, and the best other private
    algorithm's mean final regret (``other``, ``other_hw``)."""
    rows = []
    for (fig, curve, variant), g in runs[runs["algorithm"] == INT].groupby(["figure", "curve", "variant"]):
        others = runs[(runs["figure"] == fig) & runs["algorithm"].isin(PRIVATE) & (runs["variant"] == "")]
        best = min((mean_hw(o["final_regret"]) for _, o in others.groupby("algorithm")), default=(math.nan, 0.0))
        rows.append(
            {
                "figure": fig,
                "curve": curve,
                "variant": variant,
                **starving_summary(g),
                "bound": _bound_at_horizon(curves, fig, curve),
                "other": best[0],
                "other_hw": best[1],
            }
        )
    return pd.DataFrame(rows)


def _starving_figure(ctx: Context, abl: pd.DataFrame) -> str:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from .. import style

    colour = style.identity(INT).colour
    mfig, (left, right) = plt.subplots(1, 2, figsize=(style.TWO_COLUMN, 2.6))
    for (fig, g), marker in zip(abl.groupby("figure"), "osD^", strict=False):
        p = g["starving"] / g["runs"]
        se = np.sqrt(np.maximum(p * (1 - p), 1 / g["runs"]) / g["runs"])
        left.errorbar(g["factor"], p, yerr=2 * se, marker=marker, color=colour, label=fig, capsize=2, alpha=0.8)
        right.plot(g["factor"], g["mean"], marker=marker, color=colour, label=fig, alpha=0.8)
    left.set(xlabel="noise factor (1 = Algorithm 3)", ylabel="share of runs starving")
    right.set(xlabel="noise factor", ylabel="mean final pseudo-regret", yscale="log")
    left.legend(fontsize=7)
    mfig.suptitle("DP-UCB-INT, same draws, Laplace noise scaled (±2 s.e.)", fontsize=9)
    return ctx.save(mfig, "tossou2016_starving.png")


def _c1_excess(curves: pd.DataFrame) -> list[str]:
    """Where DP-UCB-INT's mean curve is above another private algorithm's by more than 2 s.e., at t >= T/100,
    marked "(round robin)" where it lies within DP-UCB-INT's initial K f steps."""
    out = []
    for fig, c in curves[curves["variant"] == ""].groupby("figure"):
        c = c[c["t"] >= c["t"].max() / 100]
        mine = c[c["algorithm"] == INT].set_index("t")
        k_f = means_of(mine["instance"].iloc[0]).size * interval(float(mine["epsilon"].iloc[0]))
        for alg in PRIVATE:
            other = c[c["algorithm"] == alg].set_index("t")
            z = (mine["mean"] - other["mean"]) / np.hypot(mine["sem"], other["sem"]).clip(1e-12)
            bad = z[z > 2].index
            if len(bad):
                rr = " (round robin)" if bad.max() <= k_f else ""
                out.append(f"{fig} vs {alg} at t = {bad.min():,}-{bad.max():,}{rr}")
    return out


def _suboptimal_share(runs: pd.DataFrame, figure: str, curve: str) -> tuple[float, float]:
    """(mean, s.e.) over the runs that do not starve of the share of pulls on suboptimal arms."""
    g = runs[(runs["figure"] == figure) & (runs["curve"] == curve) & ~runs["starving"]]
    x = 1 - g["best_pulls"] / g["horizon"]
    return float(x.mean()), float(x.std(ddof=1) / math.sqrt(len(x))) if len(x) > 1 else math.inf


def starving(ctx: Context) -> Finding:
    curves, runs = _tables(ctx)
    default = runs[(runs["algorithm"] == INT) & (runs["variant"] == "")]
    starved = default[default["starving"]]
    at_release = int((starved["best_pulls"] % starved["f"] == 0).sum())
    abl = _ablations(ctx, curves, runs)
    pooled = abl.groupby("factor")[["starving", "runs"]].sum()
    k1, n1 = int(pooled.loc[1.0, "starving"]), int(pooled.loc[1.0, "runs"])
    k0, n0 = int(pooled.loc[NO_NOISE, "starving"]), int(pooled.loc[NO_NOISE, "runs"])
    (p1, se1), (p0, se0) = share(k1, n1), share(k0, n0)
    removed = p1 - p0 > 2 * math.hypot(se1, se0)
    confirmed = bool(len(starved) and at_release == len(starved) and removed)
    ints = _int_at_horizon(curves, runs)
    frozen = ints[ints["variant"] == ""]
    c1_kept = bool((frozen["other"] - frozen["mean_kept"] > np.hypot(frozen["hw_kept"], frozen["other_hw"])).all())
    excess = _c1_excess(curves)
    early = [e for e in excess if e.endswith("(round robin)")]
    numbers = {"starving runs in Figure 2 (default)": f"{len(starved)} of {len(default)}"}
    for fig, g in default.groupby("figure"):
        p, se = share(int(g["starving"].sum()), len(g))
        numbers[f"{fig}: starving share"] = f"{p:.3f} ± {se:.3f}"
    numbers["starving runs at a multiple of f"] = f"{at_release} of {len(starved)}"
    numbers["ablation, noise x 1: starving share"] = f"{p1:.4f} ± {se1:.4f}"
    numbers[f"ablation, noise x {NO_NOISE:g}: starving share"] = f"{p0:.4f} ± {se0:.4f}"
    rows = "\n".join(
        f"| {r.figure} | {r.factor:g} | {r.starving}/{r.runs} | {r.mean:.1f} ± {r.hw:.1f} |" for r in abl.itertuples()
    )
    int_rows = "\n".join(
        f"| {r.figure} | {r.starving}/{r.runs} | {r.mean:.1f} ± {r.hw:.1f} | {r.mean_kept:.1f} ± {r.hw_kept:.1f} | "
        f"{r.other:.1f} | {r.bound:.1f} |"
        for r in frozen.itertuples()
    )
    mechanism = (
        "DP-UCB-INT's index of an arm is `S/n + Lap(n^(v/2-1)) + sqrt(2 ln t/n)`, computed once per interval of f "
        "pulls of that arm and frozen until the arm is pulled again (default reading `int_update: frozen`). The "
        "index has no term for the Laplace noise, whose scale `n^-0.45` (0.29 at n = 16) is comparable to the bonus "
        "(0.66 at n = 16, t = 33). One release whose draw lands below the other arms' limit leaves the best arm "
        "idle, and an idle arm is never released again: it starves for the rest of the horizon, costing Δ per step."
    )
    experiment = (
        "(1) The pipeline's runs tables of Figure 2 (a-d): a run *starves* when the best arm gets fewer than half "
        "of the pulls; its best-arm count should be a multiple of f (16 at ε = 1, 147 at ε = 0.1). (2) Same-draws "
        f"ablation: DP-UCB-INT's kernel replayed on {ctx.cap_runs(ABLATION_RUNS)} runs in each ε = 1 panel (a, c), "
        f"every Laplace draw times {', '.join(f'{c:g}' for c in FACTORS)} (same reward deciders, same noise draws; "
        f"{NO_NOISE:g} is the non-private ablation). Criterion: the starving share pooled over the panels drops by "
        "more than 2 s.e. (binomial) without the noise, and every starving run stops at a multiple of f. (3) At the "
        "horizon, DP-UCB-INT's mean final regret with and without its starving runs against the best other private "
        "algorithm and Theorem 3.5's bound (Student-t 95 % half-widths); where its mean curve is above another "
        "private algorithm's at t ≥ T/100 (2 s.e.)."
    )
    result = (
        f"Figure 2: {len(starved)} of {len(default)} default DP-UCB-INT runs starve the best arm, {at_release} of "
        f"them at a multiple of f. Same draws, pooled over panels: starving share {p1:.4f} ± {se1:.4f} with the "
        f"noise, {p0:.4f} ± {se0:.4f} without.\n\n| panel | noise factor | starving | mean final regret |\n"
        f"|---|---|---|---|\n{rows}\n\nAt the horizon (pipeline runs):\n\n| panel | starving | mean | mean without "
        f"starving runs | best other private | Thm 3.5 bound |\n|---|---|---|---|---|---|\n{int_rows}\n\n"
        f"Without its starving runs DP-UCB-INT is below every other private algorithm at T in "
        f"{'every' if c1_kept else 'not every'} panel. Its mean curve is above another private algorithm's "
        f"(2 s.e.) at t ≥ T/100: {'; '.join(excess) or 'nowhere'}."
    )
    if confirmed:
        summary = (
            f"One unlucky release freezes DP-UCB-INT's best arm below the others for good ({len(starved)} of "
            f"{len(default)} runs of Figure 2; {k0} of {n0} on the same draws without the noise), so its expected "
            "regret grows linearly in t and Theorem 3.5 cannot hold for Algorithm 3 as printed; "
            + ("without these runs DP-UCB-INT is the best private algorithm at T in every panel" if c1_kept else "")
            + ("C1 fails also without them" if not c1_kept else "")
            + (
                f", and C1's early checkpoints fail in its initial round robin of K f steps ({'; '.join(early)})."
                if early
                else "."
            )
        )
    else:
        summary = (
            "The starving mechanism is not shown by these data (see the criterion); C1's failure needs another "
            "explanation: a per-step trace of DP-UCB-INT's worst runs would settle it."
        )
    return Finding(
        mechanism,
        experiment,
        result,
        confirmed,
        PUBLISHED if confirmed else RECONSTRUCTION,
        summary,
        (
            Quote(
                "The final one, employs a mechanism that only releases a new mean once at the beginning of each "
                "interval.",
                "Section 3",
            ),
            Quote(
                "As expected, the performance of DP-UCB-INT is significantly better than all other private algorithms.",
                SECTION4,
            ),
        ),
        {
            **numbers,
            "C1 holds at T without starving runs": c1_kept,
            "INT above another private algorithm (2 s.e.)": "; ".join(excess) or "nowhere",
        },
        _starving_figure(ctx, abl),
    )


# --- theory: Theorem 3.5 under the literal reading ------------------------------------------------------------------

LITERAL_RUNS = 100  # replayed runs per epsilon = 1 panel and noise factor (2-arm: ~10 ms a run, 10-arm: ~70 ms)


def literal_bound(ctx: Context) -> Finding:
    curves, runs = _tables(ctx)
    ints = _int_at_horizon(curves, runs)
    over = ints[ints["mean"] - ints["hw"] > ints["bound"]]
    default_curve = ints[ints["variant"] == ""].set_index("figure")["curve"].to_dict()
    lines, more = [], []
    for r in over.itertuples():
        (m, se), (m0, se0) = (
            _suboptimal_share(runs, r.figure, r.curve),
            _suboptimal_share(runs, r.figure, default_curve[r.figure]),
        )
        more.append(r.variant.endswith("literal") and m - m0 > 2 * math.hypot(se, se0))
        lines.append(
            f"| {r.figure} | {r.curve} | {r.mean:.1f} ± {r.hw:.1f} | {r.bound:.1f} | {m:.4f} ± {se:.4f} | "
            f"{m0:.4f} ± {se0:.4f} |"
        )
    abl, below = [], []
    for fig in ABLATION_FIGS:
        first = curves[(curves["figure"] == fig) & (curves["algorithm"] == INT)].iloc[0]
        horizon = int(runs.loc[runs["figure"] == fig, "horizon"].max())
        n, bound = ctx.cap_runs(LITERAL_RUNS), float(ints.loc[ints["figure"] == fig, "bound"].iloc[0])
        means = means_of(first["instance"])
        out = ablation(
            means, float(first["epsilon"]), horizon, n, (NO_NOISE, 1.0), ctx.seed, fig + ":literal", "literal"
        )
        (m1, h1), (m0, h0) = mean_hw(out[1.0]["final_regret"]), mean_hw(out[NO_NOISE]["final_regret"])
        below.append(m1 - h1 > bound and m0 + h0 <= bound)
        abl.append(f"| {fig} | {m1:.1f} ± {h1:.1f} | {m0:.1f} ± {h0:.1f} | {bound:.1f} |")
    confirmed = bool(len(over) and all(more) and all(below))
    violations = theory_violations(ctx)
    result = (
        f"The ledger's theory check: above the bound at some checkpoint: {violations}. At the horizon, "
        f"{len(over)} DP-UCB-INT curves end above Theorem 3.5's bound beyond their 95 % half-width:\n\n"
        "| panel | curve | mean final regret | Thm 3.5 bound | suboptimal share | default's share |\n"
        "|---|---|---|---|---|---|\n" + "\n".join(lines) + "\n\nSame draws, `literal` reading, "
        f"{ctx.cap_runs(LITERAL_RUNS)} runs per ε = 1 panel:\n\n| panel | mean final regret, noise | without the "
        "noise | Thm 3.5 bound |\n|---|---|---|---|\n" + "\n".join(abl)
    )
    return Finding(
        "Algorithm 3's pseudocode tests `n mod f = 0` at every step, so under the `literal` reading an idle arm whose "
        "count sits at a multiple of f gets a fresh Laplace draw at every step (and the privacy accounting of "
        "Theorem 3.4, one release per interval, no longer applies). Its index is then the maximum of ever more draws: "
        "it beats the leader every so often and the arm is pulled f more times. That forced exploration, not "
        "starvation, lifts the regret above Theorem 3.5; under the default reading the bound fails in expectation "
        "only (the diagnosis `starving`).",
        "From the pipeline's runs tables: the DP-UCB-INT curves whose mean final regret exceeds Theorem 3.5's bound "
        "beyond its 95 % half-width, and their share of pulls on suboptimal arms against the default curve's (runs "
        "that do not starve). Then DP-UCB-INT under the `literal` reading replayed with its Laplace draws as drawn "
        f"and times {NO_NOISE:g} (same draws) in the ε = 1 panels. Criterion: every curve above the bound is the "
        "`literal` variant with a suboptimal share above the default's by more than 2 s.e., and the replay is above "
        "the bound with the noise and within it without (half-widths).",
        result,
        confirmed,
        PUBLISHED if confirmed else RECONSTRUCTION,
        (
            "Theorem 3.5 fails for Algorithm 3's pseudocode read literally: re-noising every idle arm at each step "
            "explores several times more than one release per interval; the default reading meets the bound at 100 "
            "runs but not in expectation (starving runs)."
            if confirmed
            else "The curves above Theorem 3.5 are not explained by the literal reading's re-noising (see the "
            "criterion); per-step traces of the offending runs would settle what drives them."
            if len(over)
            else "No DP-UCB-INT curve ends above Theorem 3.5 beyond its half-width here: nothing to explain at T."
        ),
        (
            Quote(
                "If Algorithm 3 is run with K arms having arbitrary reward distributions, then, its expected regret R "
                "after any number t of plays is bounded by",
                "Theorem 3.5",
            ),
            Quote(
                "The final one, employs a mechanism that only releases a new mean once at the beginning of each "
                "interval.",
                "Section 3",
            ),
        ),
        {"curves above the bound at T": len(over), "theory check's violations": violations},
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
    _, runs = _tables(ctx, TWO_ARM)
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
    only_b = bool(len(left)) and set(left["figure"]) == {"fig2b"}
    if confirmed:
        conclusion = PUBLISHED
        summary = (
            "The spreads pass 664.5 only through a few outlying runs that starve the best arm (the algorithms' own "
            "behaviour, see the diagnosis `starving`), not through the choice of pseudo- or realised regret."
        )
    elif only_b:
        conclusion = TEXT_OPEN
        summary = (
            "At ε = 1 every spread stays under 664.5 once DP-UCB-INT's starving runs are set aside, under either "
            "metric; at ε = 0.1 DP-UCB's and DP-UCB-BOUND's ordinary scatter passes it: the text does not say which "
            "privacy level (or metric) its 664.5 covers."
        )
    else:
        conclusion = RECONSTRUCTION
        summary = (
            "Some spreads pass 664.5 through their ordinary run-to-run scatter at ε = 1, where our reconstruction "
            "gives the algorithms a larger s.d. than the paper's number allows; the paper's per-run regrets of "
            "Figure 2 (not in its text) would settle it."
            if len(over)
            else "No spread reaches 664.5 here: the mechanism has nothing to explain in these data."
        )
    return Finding(
        "A spread is the range of 100 final regrets. A few runs that starve the best arm (for good, or for a "
        "stretch of the horizon) sit far above the others and set the maximum alone; the metric (pseudo- or "
        "realised regret, which the text does not name) only adds each run's Bernoulli scatter.",
        f"Per 2-arm panel, algorithm and metric, over the first {PAPER_RUNS} runs of the pipeline's runs tables: the "
        f"spread, the runs beyond median ± {OUTLIER_Z:g} robust s.d. (1.4826 MAD; a normal sample of 100 has none), "
        "the spread without them, and the best arm's share of the pulls in those runs and in the median run. "
        f"Criterion: every spread that reaches {SPREAD_OURS:g} falls below it without its outlying runs (at most "
        f"{MAX_OUTLIERS}). Where only the ε = 0.1 panel keeps spreads above it, the text's silence on the panel "
        "decides.",
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
    )


# --- C6: Private-UCB's spread --------------------------------------------------------------------------------------


def _private_ucb_bonus(k: int, horizon: int, epsilon: float, n: float) -> float:
    """c_T / n of the reconstructed Private-UCB at t = T (docs/reconstructions.md): c_t = K (ln T)^2 (ln(K T ln T) +
    4 ln t) / eps."""
    ln_t = math.log(horizon)
    return k * ln_t**2 * (math.log(k * horizon * ln_t) + 4 * ln_t) / epsilon / n


def private_ucb_spread(ctx: Context) -> Finding:
    curves, runs = _tables(ctx, TWO_ARM)
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
    far = max(by_reading.values()) < SPREAD_PRIVATE_UCB
    confirmed = bool(bonus_over and far)
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
        f"every reading. Criterion: the bonus is at least Δ in both panels and no reading's spread reaches "
        f"{SPREAD_PRIVATE_UCB:,.0f}.",
        result,
        confirmed,
        RECONSTRUCTION,
        (
            "Our reconstructed Private-UCB explores so hard that every run loses about the same regret, far from a "
            "30,000 spread under every reading; Mishra & Thakurta's own confidence term would settle it."
            if confirmed
            else "The spread of Private-UCB is not explained by its confidence term here (see the criterion); its "
            "reconstruction stays the suspect, and Mishra & Thakurta's own confidence term would settle it."
        ),
        (Quote("However, this gap reaches 30,000 for Private-UCB.", SECTION4),),
        numbers,
    )


# --- C3: DP-UCB-BOUND catching DP-UCB, reading by reading ------------------------------------------------------------


def _finals(ctx: Context, reading: str) -> pd.DataFrame:
    """Per panel: mean and s.e. of DP-UCB's and DP-UCB-BOUND's regret at T under ``reading``."""
    rows = []
    for fig in FIGS:
        c = ctx.curves(fig, reading)
        c = c[c["variant"].fillna("") == ""]
        row = {"figure": fig}
        for alg, key in (("dp_ucb_tossou", "dpucb"), ("dp_ucb_bound", "bound")):
            a = c[c["algorithm"] == alg]
            last = a.loc[a["t"].idxmax()]
            row[key], row[f"{key}_se"] = float(last["mean"]), float(last["sem"])
        rows.append(row)
    return pd.DataFrame(rows).set_index("figure")


def bound_catches(ctx: Context) -> Finding:
    c3 = ctx.ledger[ctx.ledger["claim_id"] == "C3"].set_index("reading")["verdict"]
    default = _finals(ctx, "default")
    lines, moved, flips, numbers = [], [], [], {}
    for reading in ["default", *ctx.reading_slugs()]:
        fin = default if reading == "default" else _finals(ctx, reading)
        verdict = c3.get(reading, "?")
        flip = reading != "default" and verdict != c3.get("default") and verdict != "inconclusive"
        d_bound = (fin["bound"] - default["bound"]) / np.hypot(fin["bound_se"], default["bound_se"]).clip(1e-12)
        d_dpucb = (fin["dpucb"] - default["dpucb"]) / np.hypot(fin["dpucb_se"], default["dpucb_se"]).clip(1e-12)
        if flip:
            flips.append(reading)
            if ((d_bound > 2) | (d_dpucb < -2) | (d_bound < -2) | (d_dpucb > 2)).any():
                moved.append(reading)
        d = fin["dpucb"] - fin["bound"]
        lines.append(
            f"| {reading} | {verdict} | "
            + " | ".join(f"{d[f]:.0f} ({fin.loc[f, 'bound']:.0f} / {fin.loc[f, 'dpucb']:.0f})" for f in FIGS)
            + " |"
        )
        numbers[f"{reading}: DP-UCB - BOUND at T"] = ", ".join(f"{d[f]:.0f}" for f in FIGS)
    confirmed = bool(flips) and set(moved) == set(flips)
    result = (
        "DP-UCB − DP-UCB-BOUND at T per panel (BOUND / DP-UCB mean final regret in brackets); C3 needs it at least "
        "minus its half-width at T after a lead of DP-UCB:\n\n| reading | C3 | "
        + " | ".join(FIGS)
        + " |\n|---|---|"
        + "---|" * len(FIGS)
        + "\n"
        + "\n".join(lines)
        + f"\n\nReadings that flip C3: {', '.join(flips) or 'none'}; of them, moving BOUND's or DP-UCB's final "
        f"regret by more than 2 s.e. in some panel: {', '.join(moved) or 'none'}."
    )
    return Finding(
        "C3 compares two ways of paying for the hybrid mechanism's noise: DP-UCB-BOUND adds a deterministic bonus "
        "ν/n (Algorithm 1), DP-UCB none (Algorithm 2), so BOUND explores on a schedule while DP-UCB explores through "
        "its noise. The readings change one side: `nu_form` the size of ν (Algorithm 1's log2 of n' restarts at every "
        "power of two; the ln n forms never do, so BOUND explores longer), `hybrid_split` the noise both counters add "
        "(without the ε/2 split it halves, which helps DP-UCB, whose exploration it drives, and leaves BOUND's ν).",
        "The readings' own simulations (one axis at a time, docs/reconstructions.md): the C3 verdict under each "
        "reading and both algorithms' mean final regret per panel. Criterion: every reading that flips the verdict "
        "moves DP-UCB-BOUND's or DP-UCB's final regret by more than 2 s.e. (of the difference to the default) in some "
        "panel.",
        result,
        confirmed,
        TEXT_OPEN,
        (
            f"C3 depends on how large Algorithm 1's bonus ν is against DP-UCB's noise; the readings that flip it "
            f"({', '.join(flips)}) move one of the two regrets; the text's ν line and its silence on the ε/2 split "
            "decide it."
            if confirmed
            else "C3 depends on a reading, but not every flipping reading moves the final regrets beyond their "
            "uncertainty: the verdict sits at the edge of its interval; more runs under those readings would settle it."
        ),
        (
            Quote(
                "We can notice that DP-UCB is better than DP-UCB-BOUND for small time steps. However, as the time "
                "step increases DP-UCB-BOUND outperforms DP-UCB and eventually catches its regret.",
                SECTION4,
            ),
        ),
        {**numbers, "flipping readings": "; ".join(flips), "moving a final regret by > 2 s.e.": "; ".join(moved)},
    )


# --- C4: Private-UCB worst, except while every algorithm still explores uniformly ------------------------------------

UNIFORM = 0.9  # an algorithm whose regret is at least this share of uniform play's t x mean gap still explores


def _not_below(curves: pd.DataFrame, worst: str) -> pd.DataFrame:
    """Per (panel, other algorithm): the checkpoints t >= T/100 where the other's mean is not below ``worst``'s by
    2 s.e., and there the least ratio of its mean regret to uniform play's (t x mean gap)."""
    rows = []
    for fig, c in curves[curves["variant"] == ""].groupby("figure"):
        c = c[c["t"] >= c["t"].max() / 100]
        ref = c[c["algorithm"] == worst].set_index("t")
        gaps = means_of(c["instance"].iloc[0])
        uniform = float((gaps.max() - gaps).mean())
        for alg, o in c[c["algorithm"] != worst].groupby("algorithm"):
            o = o.set_index("t")
            z = (o["mean"] - ref["mean"]) / np.hypot(o["sem"], ref["sem"]).clip(1e-12)
            bad = z[z > -2].index
            if len(bad):
                ratio = float((o.loc[bad, "mean"] / (bad.to_numpy() * uniform)).min())
                rows.append({"figure": fig, "algorithm": alg, "t_min": bad.min(), "t_max": bad.max(), "ratio": ratio})
    return pd.DataFrame(rows, columns=["figure", "algorithm", "t_min", "t_max", "ratio"])


def round_robin(ctx: Context) -> Finding:
    curves, _ = _tables(ctx)
    df = _not_below(curves, "private_ucb")
    inside = bool(len(df)) and bool((df["ratio"] >= UNIFORM).all())
    lines = "\n".join(
        f"| {r.figure} | {r.algorithm} | {r.t_min:,}-{r.t_max:,} | {r.ratio:.3f} |" for r in df.itertuples()
    )
    return Finding(
        "Early on every private algorithm in the 10-arm panel at ε = 0.1 still spreads its pulls evenly: DP-UCB-INT "
        "by construction (Algorithm 3's round robin of K f = 1,470 steps), DP-UCB and DP-UCB-BOUND because their "
        "noise or bonus still dwarfs the gaps. Their regret is then uniform play's, t times the mean gap, which the "
        "exploring Private-UCB cannot exceed; C4's criterion starts at T/100 = 1,000, inside that phase.",
        "From Figure 2's curve tables: for each panel and algorithm, the checkpoints t ≥ T/100 where its mean is not "
        "below Private-UCB's by 2 s.e., and there its least mean regret over uniform play's (t × mean gap). "
        f"Criterion: there are such checkpoints and at all of them the ratio is at least {UNIFORM:g}.",
        "| panel | algorithm not below Private-UCB | at t | regret / uniform play's |\n|---|---|---|---|\n" + lines
        if len(df)
        else "Every algorithm is below Private-UCB by 2 s.e. at every checkpoint t ≥ T/100.",
        inside,
        TEXT_OPEN if inside else RECONSTRUCTION,
        (
            "Private-UCB is the worst algorithm everywhere except while every private algorithm still explores "
            "uniformly (DP-UCB-INT's round robin included), past the first checkpoint the claim is checked at; the "
            "text does not say from which t its ordering is meant."
            if inside
            else "Private-UCB is not the worst algorithm where the others already exploit (see the table), or it is "
            "the worst everywhere: uniform exploration does not explain C4 here; our reconstructed Private-UCB is the "
            "suspect."
        ),
        (Quote("Private-UCB performs worse than all other algorithms which is not surprising.", SECTION4),),
        {
            "not below Private-UCB": "; ".join(
                f"{r.figure} {r.algorithm} t={r.t_min}-{r.t_max}" for r in df.itertuples()
            )
            or "nowhere",
            "all still exploring uniformly": inside,
        },
    )


DIAGNOSES: list[Diagnosis] = [
    Diagnosis(PAPER, "starving", ("C1",), "DP-UCB-INT starves its best arm after one bad release", starving),
    Diagnosis(PAPER, "literal_bound", ("theory",), "Theorem 3.5 fails under Algorithm 3 read literally", literal_bound),
    Diagnosis(PAPER, "spreads", ("C5",), "What carries the best-worst spreads past 664.5", spreads),
    Diagnosis(
        PAPER, "round_robin", ("C4",), "Private-UCB is not the worst while all still explore uniformly", round_robin
    ),
    Diagnosis(
        PAPER,
        "private_ucb_spread",
        ("C6",),
        "Private-UCB's spread stays far below 30,000",
        private_ucb_spread,
        readings=True,
    ),
    Diagnosis(
        PAPER,
        "bound_catches",
        ("C3",),
        "DP-UCB-BOUND catches DP-UCB only under some readings",
        bound_catches,
        readings=True,
    ),
]
