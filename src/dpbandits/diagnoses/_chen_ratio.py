"""Chen et al. 2024, Figure 2's trend (Fig2, Appendix E.2) for :mod:`.chen2024` (docs/findings.md): does DP-OD's
drop start past the ratio grid's end under each reading that fails the claim?"""

from __future__ import annotations

import inspect
import math

import numpy as np
import pandas as pd

from ..bai.linear_instances import two_arm_instance
from ..claims._core import FAILS, HOLDS, halfwidth
from ..claims.chen2024 import _rates, _ratio_panel
from ._core import PUBLISHED, TEXT_OPEN, Context, Finding, Quote, decide

FIG2_BUDGET = 1000  # Figure 2's T [CHOICE] (config papers.chen2024.figures.fig2)
FIG2_GRID_END = 100  # the largest ratio of Figure 2's grid [CHOICE]
MU1 = 0.5  # the two-armed instance's best mean [CHOICE]
DOSE_MU2 = 0.4  # the second arm's mean in diagnostics/fig2_ratio_dose (config): the reading that fails Fig2


def threshold_ratio(gap: float, epsilon: float, budget: int = FIG2_BUDGET) -> float:
    """Ratio r at which DP-OD's Laplace noise on arm 2's mean, scale r/(ε n) with n = ⌈(T - 2)/2⌉ pulls per arm
    (docs/reconstructions.md), crosses the gap with probability 0.05: ½ exp(-Δ ε n / r) = 0.05."""
    return gap * epsilon * math.ceil((budget - 2) / 2) / math.log(10)


def _flipping_readings(ctx: Context, claim: str) -> list[str]:
    """Readings whose verdict on ``claim`` differs from the default's."""
    rows = ctx.ledger[ctx.ledger["claim_id"] == claim]
    default = rows.loc[rows["reading"] == "default", "verdict"].iloc[0]
    return sorted(rows.loc[(rows["reading"] != "default") & (rows["verdict"] != default), "reading"])


def _with_se(df: pd.DataFrame) -> pd.DataFrame:
    """A BAI table with text variants and the claims' binomial s.e. (as ``_rates`` adds)."""
    df = df.assign(variant=df["variant"].fillna(""))
    return df.assign(se=np.sqrt(df["rate"] * (1 - df["rate"]) / df["trials"]).clip(lower=0.5 / df["trials"]))


def _panel_verdicts(df: pd.DataFrame) -> dict[float, tuple[str, str]]:
    """{ε: (DP-OD worse?, DP-BAI flat?)} verdicts per panel of a Figure 2 table, by the claim's own tests."""
    return {
        float(p["epsilon"].dropna().iloc[0]): tuple(t.verdict() for t in _ratio_panel(p))
        for _, p in df.groupby("panel")
    }


def _mu2(reading: str) -> float | None:
    """The second arm's mean a reading sets (``two_arm.mu2=0.4``), None if it sets none."""
    for part in reading.split(" + "):
        if part.startswith("two_arm.mu2="):
            return float(part.split("=", 1)[1])
    return None


def _draw_dose(ctx: Context, df: pd.DataFrame, gap: float) -> str:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from ..drawing.style import PALETTE

    fig, ax = plt.subplots(figsize=(5.6, 3.2))
    for i, (_, p) in enumerate(df.groupby("panel")):
        eps = float(p["epsilon"].dropna().iloc[0])
        for alg, ls in (("dp_od", "-"), ("dp_bai", ":")):
            c = p[p["algorithm"] == alg].sort_values("x")
            ax.errorbar(
                c["x"],
                c["rate"],
                2 * c["se"],
                color=PALETTE[i],
                ls=ls,
                marker="o",
                ms=3,
                label=f"{'DP-OD' if alg == 'dp_od' else 'DP-BAI'}, ε = {eps:g}",
            )
        ax.axvline(threshold_ratio(gap, eps), color=PALETTE[i], lw=0.8, alpha=0.6)
    ax.axvline(FIG2_GRID_END, color="0.3", lw=1.2, ls="--")
    ax.set(
        xscale="log",
        xlabel=f"ratio r (gap {gap:g}; thin lines: r* = Δεn/ln 10; dashed: grid's end)",
        ylabel="success rate (± 2 s.e.)",
    )
    ax.legend(fontsize=6, ncol=2)
    return ctx.save(fig, "chen2024_ratio_dose.png")


def ratio_range(ctx: Context) -> Finding:
    flips = _flipping_readings(ctx, "Fig2")
    failing = {}  # (reading, ε) -> r* of the panels the reading fails
    for reading in ["default", *flips]:
        mu2 = inspect.signature(two_arm_instance).parameters["mu2"].default if reading == "default" else _mu2(reading)
        for eps, (worse, flat) in _panel_verdicts(_with_se(ctx.curves("fig2", reading))).items():
            if worse != HOLDS or flat == FAILS:
                failing[(reading, eps)] = (threshold_ratio(MU1 - mu2, eps) if mu2 is not None else math.nan, mu2)
    dose = _rates(ctx.results, "diagnostics/fig2_ratio_dose")
    gap = MU1 - DOSE_MU2
    extended = _panel_verdicts(dose)

    def explained(r_star: float, mu2: float | None, eps: float) -> bool:
        """r* past the grid's end and, on the extended grid at that gap, the claim's own test passes."""
        return r_star > FIG2_GRID_END and mu2 == DOSE_MU2 and extended.get(eps) == (HOLDS, HOLDS)

    shown = {r: all(explained(*v, eps) for (rr, eps), v in failing.items() if rr == r) for r in ["default", *flips]}
    conclusion, rule = decide(shown, ctx.reading_support())
    confirmed = bool(failing) and all(explained(*v, eps) for (_, eps), v in failing.items())
    top = dose[dose["x"] == dose["x"].max()]
    ends = "; ".join(
        f"ε = {eps:g}: DP-OD {_end(dose, eps, 'dp_od')}, DP-BAI {_end(dose, eps, 'dp_bai')} "
        f"(r* = {threshold_ratio(gap, eps):.0f})"
        for eps in sorted(extended)
    )
    fails_text = (
        ", ".join(f"{reading} at ε = {eps:g} (r* = {r:.0f})" for (reading, eps), (r, _) in failing.items()) or "none"
    )
    numbers = {f"{reading}, ε={eps:g}: r*": f"{r:.1f}" for (reading, eps), (r, _) in failing.items()}
    numbers |= {f"extended, ε={eps:g}: DP-OD worse / DP-BAI flat": "/".join(v) for eps, v in extended.items()}
    return Finding(
        mechanism=(
            "DP-OD adds Laplace noise to the moment vector, of scale proportional to the largest ℓ1 norm of an arm, "
            "so its estimate of arm 2's mean carries noise of scale r/(ε n) (n ≈ T/2 pulls per arm): its success "
            "drops by 0.05 near r* = Δ ε n / ln 10. With the gap Δ = 0.1 (second arm at 0.4), r* ≈ 108 at ε = 5, "
            "beyond the largest ratio of the reconstructed grid (100): the drop is there, later."
        ),
        experiment=(
            "The readings' Figure 2 tables (which panels fail, with r*), and the diagnostic figure "
            f"`diagnostics/fig2_ratio_dose`: the two-armed instance with the second arm at {MU1 - gap:g}, ratios "
            f"up to {top['x'].iloc[0]:g}, T = {FIG2_BUDGET}, DP-BAI and DP-OD at Figure 2's four ε. Under a reading "
            f"(the default and each that flips Fig2) the mechanism shows if every panel it fails has r* > "
            f"{FIG2_GRID_END} and, on the extended grid at that gap, passes the claim's own test (DP-OD's drop beyond "
            "0.05, DP-BAI within ±0.05, t intervals); a reading failing no panel leaves nothing unexplained."
        ),
        result=f"Failing panels: {fails_text}. Extended grid, success at r = 1 → largest r: {ends}.",
        confirmed=confirmed,
        conclusion=conclusion,
        summary={
            PUBLISHED: "under every reading the text supports, DP-OD's drop is there and starts past the "
            "reconstructed grid's end (r = 100) where a panel fails: the published DP-OD does this, and the trend "
            "holds in substance on a longer grid",
            TEXT_OPEN: "the ratio range explains the failing panels under "
            + (", ".join(r for r, v in shown.items() if v) or "none")
            + " but not under "
            + (", ".join(r for r, v in shown.items() if not v) or "none")
            + ": Appendix E.2's lost gap decides",
        }.get(
            conclusion,
            "the ratio range does not explain the failing panels under any reading the text supports: DP-OD's "
            "drop does not simply start past the grid's end",
        ),
        quotes=(
            Quote(
                "We observe that when the ratio increases, the performance of DP-OD becomes worse. However, the "
                "performance of DP-BAI is essentially independent of this ratio as the theory suggests.",
                "Appendix E.2",
            ),
        ),
        numbers=numbers,
        figure=_draw_dose(ctx, dose, gap),
        rule=rule,
    )


def _end(df: pd.DataFrame, eps: float, alg: str) -> str:
    c = df[(df["algorithm"] == alg) & np.isclose(df["epsilon"], eps)].sort_values("x")
    first, last = c.iloc[0], c.iloc[-1]
    w = halfwidth(math.hypot(first["se"], last["se"]), float(last["trials"] - 1))
    return f"{first['rate']:.3f} → {last['rate']:.3f} (± {float(w):.3f})"
