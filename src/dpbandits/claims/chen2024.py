"""Claims of Chen, Karthik, Chee & Tan 2024: Section 5 (Figure 1), Appendix E.2 (Figure 2) and Appendix D (the
extra figure ``gauss``: DP-BAI-Gauss against DP-BAI, which the paper compares through its bounds only)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from ._core import (
    CHECK,
    FAILS,
    HOLDS,
    INCONCLUSIVE,
    Claim,
    Family,
    combine,
    halfwidth,
    holm,
    ordering_verdict,
    pvalue,
    satterthwaite,
    threshold_tests,
    threshold_verdict,
)

SECTION5, APPENDIX_E2 = "Chen et al. 2024, Section 5", "Chen et al. 2024, Appendix E.2"
# "similar" / "essentially independent" success rates: within 0.05, about three binomial standard errors of one
# point at the paper's 1000 trials (<= 0.016), the smallest difference its plots can show as one
SIMILAR = 0.05
# C1 "significantly outperforms": DP-BAI's success rate above the other's by more than OUTPERFORM (the gap C2 and
# Fig2 still call "similar" cannot be a significant win) at more than MOST of each panel's points, and below it at
# none. Not at every point: at the grids' ends (a budget too small for anyone, an ε so large that every policy
# finds the best arm) no policy can beat another by a margin, and the paper's sentence sums up the figure as a whole
OUTPERFORM, MOST = SIMILAR, 0.5
C1_QUOTE = (
    '"As the results demonstrate, the DP-BAI policy significantly outperforms Baseline and DP-OD, '
    "demonstrating that the utility of the Max-Det collection in exploiting the linear structure of the arm "
    'means"'
)


def _rates(results, figure: str) -> pd.DataFrame:
    """A BAI figure's table with the binomial s.e. of each success rate (at least that of half a success), one row
    per (panel, x, curve): a grid capped by a small config (the smoke budget) repeats its last point."""
    df = pd.read_csv(Path(results) / "figures" / "chen2024" / f"{figure}.csv", dtype={"variant": str})
    df["variant"] = df["variant"].fillna("")
    df = df.drop_duplicates(["panel", "x", "algorithm", "variant"]).reset_index(drop=True)
    df["se"] = np.sqrt(df["rate"] * (1 - df["rate"]) / df["trials"]).clip(lower=0.5 / df["trials"])
    return df


def _gaps(df: pd.DataFrame, better: str, worse: str, variant: str = "") -> pd.DataFrame:
    """Per (panel, x): success-rate gap ``better`` - ``worse`` with its t half-width, standard error and degrees of
    freedom (``d``, ``w``, ``se``, ``df``)."""
    a = df[(df["algorithm"] == better) & (df["variant"] == variant)].set_index(["panel", "x"])
    b = df[(df["algorithm"] == worse) & (df["variant"] == "")].set_index(["panel", "x"])
    idx = a.index.intersection(b.index)
    a, b = a.loc[idx], b.loc[idx]
    se = np.hypot(a["se"], b["se"])
    df_ = satterthwaite([a["se"], b["se"]], [a["trials"] - 1, b["trials"] - 1])
    return pd.DataFrame({"d": a["rate"] - b["rate"], "w": halfwidth(se, df_), "se": se, "df": df_}, index=idx)


def outperforms(gaps: pd.DataFrame) -> tuple[str, dict]:
    """C1's verdict for one competitor from :func:`_gaps`, and the counts behind it.

    Per panel: ``holds`` if the gap exceeds OUTPERFORM beyond its half-width at more than MOST of the points
    and the competitor wins beyond it nowhere; ``fails`` if the competitor wins somewhere (one family over the
    panel's points: Holm's step-down, :func:`holm`, on the p-values of the competitor ahead), or the gap is below
    OUTPERFORM beyond its half-width at MOST of the points or more (no majority can then be won); else
    ``inconclusive``. The verdict combines the panels.
    """
    verdicts, counts = [], {}
    for panel, g in gaps.groupby(level="panel"):
        won = int((g["d"] - g["w"] > OUTPERFORM).sum())
        lost = int(holm(pvalue(-g["d"].to_numpy(), g["se"].to_numpy(), g["df"].to_numpy())).sum())
        short = int((g["d"] + g["w"] < OUTPERFORM).sum())
        if lost or short >= MOST * len(g):
            verdicts.append(FAILS)
        else:
            verdicts.append(HOLDS if won > MOST * len(g) else INCONCLUSIVE)
        counts[f"panel {panel}"] = f"{won}/{len(g)} by > {OUTPERFORM:g}, {lost} lost"
    return combine(verdicts), counts


def _c1_criterion(where: str) -> str:
    return (
        f"{where}: in every panel, DP-BAI's success rate above the other's by more than {OUTPERFORM:g} "
        f"beyond the t interval (binomial s.e.) at more than {MOST:.0%} of the points, and below it beyond the "
        f"interval at none; 'fails' if the other wins beyond the interval at a point, or DP-BAI's lead is "
        f"below {OUTPERFORM:g} beyond the interval at {MOST:.0%} of a panel's points or more. Practical "
        f"margin {OUTPERFORM:g}: a gap C2 calls 'similar' is no significant win; 'most' points, not all: at "
        "the grids' ends no policy can beat another (docs/reconstructions.md)"
    )


def _curve(df: pd.DataFrame, algorithm: str) -> pd.DataFrame:
    return df[(df["algorithm"] == algorithm) & (df["variant"] == "")].set_index("x").sort_index()


def _df(*curves: pd.DataFrame) -> float:
    """Degrees of freedom of a difference of success rates: the smallest trials - 1 of the curves, a lower bound
    on the Welch-Satterthwaite value (999 at the paper's 1000 trials, where t and normal quantiles agree to 0.3%)."""
    return float(min(c["trials"].min() for c in curves) - 1)


def _closing_gap(panel: pd.DataFrame) -> tuple[str, dict]:
    """C2 in one ε panel: OD-LinBAI - DP-BAI shrinks from the smallest to the largest ε and ends within SIMILAR."""
    bai, od = _curve(panel, "dp_bai"), _curve(panel, "od_linbai")
    x = bai.index.intersection(od.index)
    gap = od.loc[x, "rate"] - bai.loc[x, "rate"]
    se = np.hypot(od.loc[x, "se"], bai.loc[x, "se"])
    closing, closing_w = gap.iloc[0] - gap.iloc[-1], halfwidth(np.hypot(se.iloc[0], se.iloc[-1]), _df(od, bai))
    similar = threshold_verdict(gap.iloc[-1], se.iloc[-1], -SIMILAR, SIMILAR, _df(od, bai))
    if similar == FAILS or closing < -closing_w:
        verdict = FAILS
    elif similar == HOLDS and closing > closing_w:
        verdict = HOLDS
    else:
        verdict = INCONCLUSIVE
    return verdict, {
        f"ε={x[0]:g}": f"{gap.iloc[0]:.3f} ± {se.iloc[0]:.3f}",
        f"ε={x[-1]:g}": f"{gap.iloc[-1]:.3f} ± {se.iloc[-1]:.3f}",
    }


def _ratio_panel(panel: pd.DataFrame) -> tuple[Family, Family]:
    """Figure 2 in one panel: the tests of DP-OD's drop beyond SIMILAR and of DP-BAI within SIMILAR of its first
    point (:func:`threshold_tests`)."""
    od, bai = _curve(panel, "dp_od"), _curve(panel, "dp_bai")
    drop = od["rate"].iloc[-1] - od["rate"].iloc[0]
    worse = threshold_tests(drop, np.hypot(od["se"].iloc[-1], od["se"].iloc[0]), high=-SIMILAR, df=_df(od))
    moves = bai["rate"].iloc[1:] - bai["rate"].iloc[0]
    flat = threshold_tests(moves, np.hypot(bai["se"].iloc[1:], bai["se"].iloc[0]), -SIMILAR, SIMILAR, _df(bai))
    return worse, flat


def chen2024(results: str | Path) -> list[Claim]:
    out = []
    f1 = _rates(results, "fig1")
    verdicts, nums = [], {}
    for alg in ("baseline_bai", "dp_od"):
        v, counts = outperforms(_gaps(f1, "dp_bai", alg))
        verdicts.append(v)
        nums |= {f"vs {alg}, {k}": x for k, x in counts.items()}
    out.append(
        Claim(
            "chen2024",
            "C1",
            f"{C1_QUOTE} ({SECTION5}).",
            _c1_criterion("Baseline and DP-OD in Figure 1 (a) and (b)"),
            combine(verdicts),
            f"points where DP-BAI leads by more than {OUTPERFORM:g} (beyond the t interval)",
            nums,
        )
    )
    verdicts, nums = [], {}
    for panel, df in f1[f1["x_name"] == "epsilon"].groupby("panel"):
        v, n = _closing_gap(df)
        verdicts.append(v)
        nums.update({f"panel {panel} gap at {k}": x for k, x in n.items()})
    out.append(
        Claim(
            "chen2024",
            "C2",
            '"We also observe that as [ε → ∞] (i.e., privacy requirement vanishes), the performances '
            f'of DP-BAI and the non-private state-of-the-art OD-LinBAI algorithm are similar" ({SECTION5}).',
            "the trend as ε grows, in every ε panel: the success-rate gap OD-LinBAI - DP-BAI shrinks from the smallest "
            f"to the largest ε beyond the t interval and at the largest ε lies within ±{SIMILAR:g} with its t interval "
            f"(equivalence). 'Fails' if the gap at the largest ε lies outside ±{SIMILAR:g} beyond the t interval or "
            "widens "
            f"beyond the t interval; inconclusive otherwise, e.g. when the two are already within ±{SIMILAR:g} at "
            "the smallest "
            f"ε (no trend to see). Margin {SIMILAR:g}: about three binomial s.e. of one point at the paper's 1000 "
            "trials",
            combine(verdicts),
            "gap OD-LinBAI - DP-BAI ± s.e. at the smallest and the largest ε",
            nums,
        )
    )
    drops, ses, dfs, where = [], [], [], []
    for (panel, curve), df in f1.groupby(["panel", "curve"]):
        df = df.sort_values("x")
        drops += list((df["rate"].shift() - df["rate"]).iloc[1:])
        ses += list(np.hypot(df["se"], df["se"].shift()).iloc[1:])
        dfs += [_df(df)] * (len(df) - 1)
        where += [f"panel {panel}, {curve}, x={x:g}" for x in df["x"].iloc[1:]]
    drops, ses = np.array(drops), np.array(ses)
    evidence = "none"
    if drops.size:
        k = int(np.argmax(drops + halfwidth(ses, dfs)))
        evidence = f"{drops[k]:.3f} ± {float(halfwidth(ses[k], dfs[k])):.3f} ({where[k]})"
    out.append(
        Claim(
            "chen2024",
            "C3",
            f"Implicit in Figure 1 ({SECTION5}): success does not decrease as the budget T or ε grows.",
            f"'does not decrease' up to {SIMILAR:g}, the smallest change the plots show as one (C2's margin): "
            f"holds if every drop between neighbouring points lies below {SIMILAR:g} beyond its t interval (binomial "
            f"s.e.); fails if some drop exceeds {SIMILAR:g} beyond it under Holm's correction over the figure's "
            "pairs; else inconclusive",
            threshold_verdict(drops, ses, high=SIMILAR, df=np.array(dfs)),
            f"largest drop + t half-width: {evidence}",
            {"pairs": int(drops.size), "largest drop": float(drops.max()) if drops.size else 0.0},
            CHECK,
        )
    )
    f2 = _rates(results, "fig2")
    nums, tests = {}, Family(np.zeros(0), np.zeros(0))
    for panel, df in f2.groupby("panel"):
        worse, flat = _ratio_panel(df)
        tests += worse + flat
        od, bai = _curve(df, "dp_od")["rate"], _curve(df, "dp_bai")["rate"]
        nums[f"panel {panel}"] = (
            f"DP-OD {od.iloc[0]:.3f} -> {od.iloc[-1]:.3f} ({worse.verdict()}), "
            f"DP-BAI {bai.min():.3f} .. {bai.max():.3f} ({flat.verdict()})"
        )
    out.append(
        Claim(
            "chen2024",
            "Fig2",
            '"We observe that when the ratio increases, the performance of DP-OD becomes worse. '
            'However, the performance of DP-BAI is essentially independent of this ratio as the theory suggests" '
            f"({APPENDIX_E2}).",
            "in every panel: DP-OD's success at the largest ratio below its value at the smallest by more than "
            f"{SIMILAR:g} beyond the t interval, and DP-BAI's success at every ratio within ±{SIMILAR:g} of its "
            "value at the "
            f"smallest, with t intervals (equivalence); 'fails' if DP-OD's drop is below {SIMILAR:g} or some DP-BAI "
            f"change beyond {SIMILAR:g}, beyond the t interval, under Holm's correction over the figure's tests; the "
            "same margin as C2",
            tests.verdict(),
            "success at the smallest -> largest ratio",
            nums,
        )
    )
    sens = _rates(results, "sensitivity")
    nums, verdicts = {}, []
    for variant in ("", "one_shot", "halving"):
        for alg in ("baseline_bai", "dp_od"):
            v, counts = outperforms(_gaps(sens, "dp_bai", alg, variant))
            nums |= {f"{variant or 'dexp'} vs {alg}, {k}": x for k, x in counts.items()}
            verdicts.append(v)
    out.append(
        Claim(
            "chen2024",
            "C1-sensitivity",
            f"{C1_QUOTE} ({SECTION5}), with DP-BAI under each reconstructed phase schedule (dexp, one_shot, halving).",
            _c1_criterion("C1's criterion on the sensitivity figure, for each schedule of DP-BAI"),
            combine(verdicts),
            f"points where DP-BAI leads by more than {OUTPERFORM:g}, per schedule",
            nums,
            CHECK,
        )
    )
    return out + untested_claims(results, f1)


# ---------------------------------------------------------------------------- sentences a first pass left untested

APPENDIX_D = "Chen et al. 2024, Appendix D (after Table 1)"
GAUSS_FIGURE = "gauss"  # DP-BAI vs DP-BAI-Gauss at several delta (config: papers.chen2024.figures.gauss)
LARGE_DELTA = "delta=0.5"  # the variant of the figure's largest delta
PRIVATE = ("dp_bai", "baseline_bai", "dp_od")


def _diffs(df: pd.DataFrame, a: str, b: str, variant_a: str = "") -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per (panel, x): success rate of ``a`` (``variant_a``) minus that of primary ``b``, its
    binomial s.e. and Welch degrees of freedom, as arrays (:func:`ordering_verdict`'s input)."""
    ra = df[(df["algorithm"] == a) & (df["variant"] == variant_a)].set_index(["panel", "x"])
    rb = df[(df["algorithm"] == b) & (df["variant"] == "")].set_index(["panel", "x"])
    idx = ra.index.intersection(rb.index)
    ra, rb = ra.loc[idx], rb.loc[idx]
    dof = satterthwaite([ra["se"], rb["se"]], [ra["trials"] - 1, rb["trials"] - 1])
    return (ra["rate"] - rb["rate"]).to_numpy(), np.hypot(ra["se"], rb["se"]).to_numpy(), np.asarray(dof, float)


def upper_bound_claim(f1: pd.DataFrame) -> Claim:
    """Section 5: the non-private OD-LinBAI bounds the private policies' success rates in Figure 1 (``f1``:
    :func:`_rates`' table)."""
    verdicts, nums = [], {}
    for alg in PRIVATE:
        d, se, dof = _diffs(f1, alg, "od_linbai")
        verdicts.append(threshold_verdict(d, se, high=SIMILAR, df=dof))
        nums[f"{alg} - od_linbai, largest"] = float(d.max()) if d.size else np.nan
    return Claim(
        "chen2024",
        "C-OD (upper bound)",
        '"we compare DP-BAI with the state-of-the-art OD-LinBAI (Yang and Tan, 2022) algorithm for fixed-budget '
        "best arm identification, which is a non-private algorithm and serves as an upper bound in performance "
        f'(in terms of the error probability) of our algorithm" ({SECTION5}, the paragraph on the competitors).',
        "Figure 1, both panels, every point: the success rate of DP-BAI, Baseline and DP-OD minus OD-LinBAI's "
        f"below +{SIMILAR:g} beyond the t interval (binomial s.e.); 'fails' if one of them lies above OD-LinBAI by "
        f"more than {SIMILAR:g} beyond the interval at a point. Margin {SIMILAR:g}: C2's 'similar'; without it, "
        "ties at the grids' ends (every policy at 1) would fail by chance somewhere among the figure's points",
        combine(verdicts),
        "largest success-rate lead of each private policy over OD-LinBAI",
        nums,
    )


def gauss_claim(results: str | Path) -> Claim:
    """Appendix D: DP-BAI-Gauss beats DP-BAI at the largest ε and δ, DP-BAI beats it at the smallest ε."""
    statement = (
        '"We observe that DP-BAI-Gauss outperforms DP-BAI for large values of [ε] and [δ]. In the small [ε] regime, '
        f'however, DP-BAI performs better than DP-BAI-Gauss" ({APPENDIX_D}; a comparison of bounds, tested here '
        "on outcomes)."
    )
    criterion = (
        f"the figure {GAUSS_FIGURE!r} (success rate vs ε < 1, T = 1000): at its largest ε, DP-BAI-Gauss with the "
        "largest δ (0.5) above DP-BAI beyond the t interval, and at its smallest ε, DP-BAI above DP-BAI-Gauss at "
        "every δ beyond the interval; 'fails' if either ordering is reversed beyond the interval. Under the "
        "classical Gaussian mechanism σ = sqrt(2 ln(1.25/δ))/(ε n), its noise has a smaller s.d. than the Laplace "
        "noise's sqrt(2)/(ε n) only for δ > 0.46, hence the grid's δ = 0.5"
    )
    path = Path(results) / "figures" / "chen2024" / f"{GAUSS_FIGURE}.csv"
    if not path.exists():
        return Claim("chen2024", "C-D (Gauss)", statement, criterion, INCONCLUSIVE, f"no table {path.name}")
    df = _rates(results, GAUSS_FIGURE)
    top, low = df[df["x"] == df["x"].max()], df[df["x"] == df["x"].min()]
    # Gauss - DP-BAI, per curve: at the largest ε for the largest δ, at the smallest ε for every δ
    large = {f"ε = {top['x'].max():g}, {LARGE_DELTA}": _diffs(top, "dp_bai_gauss", "dp_bai", LARGE_DELTA)}
    small = {
        f"ε = {low['x'].min():g}, {v or 'delta=1e-5'}": _diffs(low, "dp_bai_gauss", "dp_bai", v)
        for v in sorted(df.loc[df["algorithm"] == "dp_bai_gauss", "variant"].unique())
    }
    verdicts = [
        ordering_verdict([(-d, se, dof) for d, se, dof in large.values()]),
        ordering_verdict(list(small.values())),
    ]
    missing = len(small) < 2 or any(d.size == 0 for d, _, _ in (*large.values(), *small.values()))
    return Claim(
        "chen2024",
        "C-D (Gauss)",
        statement,
        criterion,
        INCONCLUSIVE if missing else combine(verdicts),
        f"large ε and δ: {verdicts[0]}; small ε: {verdicts[1]}" + ("; a curve is missing" if missing else ""),
        {f"Gauss - DP-BAI, {k}": f"{d[0]:+.3f} ± {se[0]:.3f}" for k, (d, se, _) in (large | small).items() if d.size},
    )


def untested_claims(results: str | Path, f1: pd.DataFrame) -> list[Claim]:
    """The claims of Section 5 and Appendix D added after the first pass (``f1``: Figure 1's :func:`_rates`)."""
    return [upper_bound_claim(f1), gauss_claim(results)]
