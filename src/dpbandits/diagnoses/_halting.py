"""DP-SE 2's halting test against its elimination time, for the thesis's two timing remarks (Appendix A.2, C-3;
:mod:`.sajed2019thesis`, docs/findings.md).

Algorithm 10 halts an epoch when the largest empirical gap exceeds M h_r + (A_r + B + c_r)/r, with
(M, C) = (10, 16) (C: the coefficient of ln(4K|S|/β)/ε in c_r) and (2, 4) in the modified variant. The
experiment runs the exact fast kernel with (M, C) in between: (2, 16) changes M alone, so
standard / (2, 16) is M's share of the speed-up and (2, 16) / modified is C's; a dose-response over M at
C = 16 gives the elasticity of the elimination time in M (2 where the Hoeffding term sets the halting round).
"""

from __future__ import annotations

import math
from functools import lru_cache

import numpy as np
import pandas as pd

from ..bandits.dp_se2 import VARIANTS, dp_se2_kernel, noise_scales
from ..claims._core import mean_se
from ..core.instances import means_for
from ..core.seeding import config_key, run_generator
from ._core import PUBLISHED, TEXT_OPEN, Context, Finding, decide
from ._sajed import Z, elimination_steps
from ._thesis import fit_line

STANDARD, MODIFIED = VARIANTS["dp_se2"], VARIANTS["dp_se2_modified"]
M_ALONE = (MODIFIED[0], STANDARD[1])  # (2, 16): the modified multiplier with the standard privacy constant
MULTS = (2.0, 3.0, 5.0, 7.0, 10.0)  # dose-response over M at C = 16
# the figures' settings (K, ε): Figure A.1/A.2 (K = 5, four ε) and Figure A.5/A.6 (K in {3, 10, 20}, ε in {0.25, 1})
SETTINGS = tuple((5, e) for e in (0.1, 0.25, 0.5, 1.0)) + tuple((k, e) for k in (3, 10, 20) for e in (0.25, 1.0))
SMALL_EPS = 0.25


@lru_cache(maxsize=256)
def halting_times(
    seed: int, instance: str, k: int, epsilon: float, mult: float, coef: float, runs: int, horizon: int
) -> tuple[float, float, float]:
    """Mean step (± s.e., df) at which DP-SE 2 with halting multiplier ``mult`` and c_r coefficient ``coef``
    has eliminated every suboptimal arm: ``runs`` runs of the fast kernel at β = 1/T, seeded from ``seed``
    and the configuration; a run still eliminating at ``horizon`` counts as ``horizon`` (a lower bound)."""
    means = means_for({"name": instance, "k": k})
    key = config_key({"diagnosis": "halting", "instance": instance, "k": k, "epsilon": epsilon, "M": mult, "C": coef})
    svt, _, hist = noise_scales(epsilon, 1)
    ck = np.array([horizon], dtype=np.int64)
    params = (epsilon, 1.0 / horizon, mult, coef, 0, svt, hist)
    pulls = [dp_se2_kernel(means, horizon, ck, params, run_generator(seed, key, i))[1] for i in range(runs)]
    steps = elimination_steps(pulls)
    return mean_se(np.where(np.isnan(steps), horizon, steps))


def _log_ratio(a: tuple, b: tuple) -> tuple[float, float]:
    """ln(a / b) of two mean times and its delta-method s.e."""
    return math.log(a[0] / b[0]), math.hypot(a[1] / a[0], b[1] / b[0])


def effects(times) -> pd.DataFrame:
    """Per (K, ε): ln of standard / modified (``total``), standard / (2, 16) (``m``) and (2, 16) / modified
    (``c``), each with its s.e. (``<name>_se``); ``times(k, eps, (M, C))`` -> (mean, s.e., df)."""
    rows = []
    for k, eps in SETTINGS:
        std, alone, mod = (times(k, eps, v) for v in (STANDARD, M_ALONE, MODIFIED))
        row = {"K": k, "epsilon": eps}
        for name, (a, b) in {"total": (std, mod), "m": (std, alone), "c": (alone, mod)}.items():
            row[name], row[f"{name}_se"] = _log_ratio(a, b)
        rows.append(row)
    return pd.DataFrame(rows)


def dose(times, k: int = 5, epsilons=(0.5, 1.0)) -> pd.DataFrame:
    """Per ε: the slope of ln(elimination time) over ln M at C = 16 (± s.e.), from :data:`MULTS`."""
    rows = []
    for eps in epsilons:
        t = [times(k, eps, (m, STANDARD[1])) for m in MULTS]
        m, s = np.array([x[0] for x in t]), np.array([x[1] for x in t])
        _, b, sb = fit_line(np.log(MULTS), np.log(m), s / m)
        rows.append({"epsilon": eps, "slope": b, "slope_se": sb})
    return pd.DataFrame(rows)


def _draw_dose(ctx: Context, timer, d: pd.DataFrame, name: str) -> str:
    """Elimination time over M at C = 16 (K = 5), one line per ε, with slopes 1 and 2 for reference."""
    import matplotlib.pyplot as plt

    from ..drawing import style

    f, ax = plt.subplots(figsize=(5, 3.2))
    for i, eps in enumerate(d["epsilon"]):
        t = [timer(5, eps, (m, STANDARD[1])) for m in MULTS]
        ax.errorbar(
            MULTS,
            [x[0] for x in t],
            yerr=[x[1] for x in t],
            marker="o",
            ms=3,
            color=style.PALETTE[i],
            label=f"ε = {eps:g}",
        )
    t0 = timer(5, d["epsilon"].iloc[0], (MULTS[0], STANDARD[1]))[0]
    for power, ls in ((1, ":"), (2, "--")):
        ax.plot(MULTS, [t0 * (m / MULTS[0]) ** power for m in MULTS], "k", ls=ls, lw=1, label=f"∝ M^{power}")
    ax.set(xscale="log", yscale="log", xlabel="halting multiplier M (C = 16)", ylabel="elimination step")
    ax.set_xticks(MULTS, [f"{m:g}" for m in MULTS], minor=False)
    ax.set_xticks([], minor=True)
    ax.legend(fontsize=7)
    return ctx.save(f, f"{name}.png", dpi=120)


def _timer(ctx: Context, instance: str):
    runs, horizon = ctx.cap_runs(30), ctx.cap_horizon(50_000_000)
    return lambda k, eps, v: halting_times(ctx.seed, instance, k, eps, v[0], v[1], runs, horizon)


def _table(eff: pd.DataFrame) -> str:
    lines = ["| K | ε | standard / modified | M alone | C alone |", "|---|---|---|---|---|"]
    for r in eff.itertuples():
        lines.append(
            f"| {r.K} | {r.epsilon:g} | {math.exp(r.total):.2f} (±{r.total_se:.2f} in log) | {math.exp(r.m):.2f} | "
            f"{math.exp(r.c):.2f} |"
        )
    return "\n".join(lines)


def _ledger(ctx: Context, claim: str, figures: str) -> str:
    """The claim's ledger numbers as a sentence of a result."""
    return f"Ledger ({figures}): " + ("; ".join(f"{k} {v}" for k, v in ctx.numbers(claim).items()) or "none")


def experiment_text(ctx: Context, instance: str, extra: str = "") -> str:
    return (
        f"DP-SE 2's fast kernel (exact; Algorithm 10 with M and C as arguments) on {instance} in the figures' ten "
        f"settings (K = 5 with ε in {{0.1, 0.25, 0.5, 1}}; K in {{3, 10, 20}} with ε in {{0.25, 1}}), T = "
        f"{ctx.cap_horizon(50_000_000):g}, {ctx.cap_runs(30)} runs per point seeded from the config's root seed, "
        "for (M, C) = (10, 16), (2, 16) and (2, 4); elimination step per run from its final pull counts (a run "
        f"unfinished at T counts as T).{extra} Seconds of one core: no pipeline job."
    )


def c1_verdict(d: pd.DataFrame) -> bool:
    """Shown if the elasticity of the elimination time in M exceeds 1 by more than :data:`Z` s.e. at every ε."""
    return bool(len(d) and np.all(d["slope"] - Z * d["slope_se"] > 1.0))


def halting_c1(ctx: Context, claim: str, quotes) -> Finding:
    """C-3 (C1, modified faster): the halting round grows as M² where the Hoeffding term dominates."""
    timer = _timer(ctx, "C1")
    eff, d = effects(timer), dose(timer)
    shown = c1_verdict(d)
    fig = _draw_dose(ctx, timer, d, "sajed2019thesis-c1-halting")
    big = eff[eff["epsilon"] > SMALL_EPS]
    speed = float(np.exp(big["total"].median()))
    nums = {f"slope ε={r.epsilon:g}": f"{r.slope:.3g} ± {r.slope_se:.2g}" for r in d.itertuples()}
    nums.update({f"K={r.K} ε={r.epsilon:g} standard/modified": math.exp(r.total) for r in big.itertuples()})
    result = (
        _table(eff)
        + "\n\nDose-response at K = 5: elasticity of the elimination time in M "
        + "; ".join(f"ε = {r.epsilon:g}: {r.slope:.2f} ± {r.slope_se:.2f}" for r in d.itertuples())
        + f". Criterion: elasticity above 1 by more than {Z:g} s.e. at every ε: {'met' if shown else 'not met'}. "
        + _ledger(ctx, claim, "Figures A.1, A.5")
    )
    mechanism = (
        "The halting test compares the largest empirical gap (Δ = 0.05 in C1) with M h_r, h_r ∝ 1/√r, so where the "
        "Hoeffding term dominates the halting round grows as (M/Δ)²: M = 10 → 2 should speed elimination by up to "
        "25 (16 after the power-of-two check rounds), not by the multiplier's 5. The thesis reads the speed-up off "
        "the multiplier linearly."
    )
    experiment = experiment_text(
        ctx, "C1", " Dose-response: M in {2, 3, 5, 7, 10} at C = 16, K = 5, ε in {0.5, 1} (figure: ±1 s.e.)."
    )
    conclusion, rule = decide({"default": shown}, {"default": "stated"})
    summary = (
        f"Algorithm 10's halting round grows as M², so the modified DP-SE 2 eliminates about {speed:.0f} times "
        "faster in C1 for ε > 0.25, not 5: 'roughly 1/5' does not follow from the published halting test."
        if conclusion == PUBLISHED
        else "The elimination time does not grow faster than M in C1: the failed ratio is not the halting test's "
        "M²; the thesis's per-run elimination times or code would settle where our DP-SE 2 differs."
    )
    return Finding(mechanism, experiment, result, shown, conclusion, summary, tuple(quotes), nums, fig, rule=rule)


def c2_verdict(eff: pd.DataFrame) -> tuple[bool, pd.DataFrame, float, float]:
    """(shown, the settings where standard / modified exceeds 2 beyond :data:`Z` s.e., mean of ln(M alone) -
    ln(C alone) there, its s.e.): shown if some setting exceeds 2 and that mean is above 0 by :data:`Z` s.e."""
    over = eff[eff["total"] - Z * eff["total_se"] > math.log(2.0)]
    if not len(over):
        return False, over, float("nan"), float("nan")
    diff = float((over["m"] - over["c"]).mean())
    se = float(np.sqrt(np.sum(over["m_se"] ** 2 + over["c_se"] ** 2)) / len(over))
    return diff - Z * se > 0, over, diff, se


def halting_c2(ctx: Context, claim: str, quotes) -> Finding:
    """C-3 (C2, not long after): where standard DP-SE 2 halts long after the modified one, M, not C, does it."""
    eff = effects(_timer(ctx, "C2"))
    shown, over, diff, se = c2_verdict(eff)
    at_a2 = over[over["K"] == 5]
    where = ", ".join(f"K={r.K} ε={r.epsilon:g}" for r in over.itertuples()) or "none"
    nums = {
        "settings above 2": len(over),
        "of them in Figure A.2 (K = 5)": len(at_a2),
        "ln(M alone) - ln(C alone)": f"{diff:.3g} ± {se:.2g}",
    }
    result = (
        _table(eff)
        + f"\n\nStandard / modified above 2 beyond {Z:g} s.e. at: {where}. There, ln(M alone) - ln(C alone) = "
        f"{diff:.2f} ± {se:.2f}. Criterion: above 0 by more than {Z:g} s.e.: {'met' if shown else 'not met'}. "
        + _ledger(ctx, claim, "Figures A.2, A.6")
    )
    mechanism = (
        "The thesis explains 'not long after' by the privacy term O(log(T)/ε) setting the halting in C2. But C2's "
        "gaps shrink with K (the closest arm is 0.125 below the best at K = 5, 0.056 at K = 10, 0.026 at K = 20), "
        "and where they are small the Hoeffding term M h_r sets the halting round: then the multiplier M, not the "
        "privacy constant C, makes standard DP-SE 2 halt long after the modified one."
    )
    # which settings "in setting C2" covers: every K of Figures A.2 and A.6, or Figure A.2's K = 5 only
    scopes = {"default": shown, "Figure A.2 only (K = 5)": shown and bool(len(at_a2))}
    conclusion, rule = decide(scopes, {"default": "stated"})
    summary = {
        PUBLISHED: "In C2 the Hoeffding multiplier delays Algorithm 10 beyond one doubling, also in Figure A.2's "
        "K = 5: the published DP-SE 2 halts long after the modified one, and the privacy-term explanation fails.",
        TEXT_OPEN: "In Figure A.2 (K = 5), which the remark cites, standard DP-SE 2 halts within one doubling of the "
        "modified one; at the other K of Figure A.6 the Hoeffding multiplier delays it more. Whether 'in setting "
        "C2' covers those K the text leaves open.",
    }.get(
        conclusion,
        "Where standard DP-SE 2 halts long after the modified one in C2, the multiplier M does not account for it "
        "(or no setting does in these runs): the thesis's code or elimination times would settle it.",
    )
    return Finding(
        mechanism, experiment_text(ctx, "C2"), result, shown, conclusion, summary, tuple(quotes), nums, rule=rule
    )
