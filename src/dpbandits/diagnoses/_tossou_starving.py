"""Tossou & Dimitrakakis 2016, DP-UCB-INT's starving runs (C1) and Theorem 3.5 under Algorithm 3 read literally
(theory): replayed ablations of the noise (:func:`dpbandits.diagnoses._starving.ablation`)."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from ._core import PUBLISHED, RECONSTRUCTION, Context, Finding, Quote
from ._starving import INT, NO_NOISE, ablation, interval, mean_hw, means_of, share, starving_summary, theory_violations
from ._tossou import ABLATION_FIGS, ABLATION_RUNS, FACTORS, PRIVATE, SECTION4, bound_at_horizon, tables

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
                "bound": bound_at_horizon(curves, fig, curve),
                "other": best[0],
                "other_hw": best[1],
            }
        )
    return pd.DataFrame(rows)


def _starving_figure(ctx: Context, abl: pd.DataFrame) -> str:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from ..drawing import style

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
    curves, runs = tables(ctx)
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
    curves, runs = tables(ctx)
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
