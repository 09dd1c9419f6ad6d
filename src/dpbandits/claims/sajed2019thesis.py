"""Claims of Sajed's MSc thesis 2019: Chapter 1 (C-0), Appendix A.2 (C-3), Chapter 6 (C-1, C-2 from the paper)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from ..core.instances import means_for
from ._core import (
    FAILS,
    HOLDS,
    INCONCLUSIVE,
    Claim,
    Family,
    flat_from,
    halfwidth,
    load_tables,
    mean_se,
    ordering_tests,
    ordering_verdict,
    pvalue,
    ratio,
    satterthwaite,
    text_variants,
    threshold_tests,
    threshold_verdict,
)
from .sajed2019 import c1_claims, c2_claims, instance_spec, run_settings, settings

CH6_FIGS = tuple(f"fig6_{i}" for i in range(1, 9))
APPENDIX_FIGS = tuple(f"figA_{i}" for i in range(1, 9))
LABELS = {"dp_se": "DP-SE", "dp_se2": "DP-SE 2", "dp_se2_modified": "modified DP-SE 2", "dp_ucb": "DP-UCB"}
SOURCE = "Sajed 2019, MSc thesis, Appendix A.2"
SMALL_EPS = 0.25  # "when either ε is small (<= 0.25 in our experiments)"
# elimination-time ratios standard / modified DP-SE 2: "not long after" <= one doubling of the power-of-two check
# rounds; "(roughly) 1/5 of the time" read as 5 within a factor 2 (one check round either way)
NOT_LONG_AFTER, FASTER_BAND = 2.0, (2.5, 10.0)


def duel_table(curves: pd.DataFrame) -> pd.DataFrame:
    """Final mean regret ± s.e. (and runs) of every algorithm per (instance, K, ε), one row per setting."""
    rows = []
    for key, algs in settings(curves).items():
        spec = instance_spec(key[0])
        row = {"instance": spec["name"], "K": spec.get("k"), "epsilon": key[1]}
        for alg, c in algs.items():
            row[alg], row[f"{alg} s.e."], row[f"{alg} runs"] = c["mean"].iloc[-1], c["sem"].iloc[-1], c["runs"].iloc[-1]
            row[f"{alg} flat from"] = flat_from(c)
        row["horizon"] = max(c.index.max() for c in algs.values())
        rows.append(row)
    return pd.DataFrame(rows)


def duels(results: str | Path) -> pd.DataFrame:
    """:func:`duel_table` of the appendix figures (all four algorithms) read from ``results``."""
    return duel_table(text_variants(load_tables(results, "sajed2019thesis", APPENDIX_FIGS)[0]))


def _diffs(tab: pd.DataFrame, a: str, b: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Final regret ``a`` - ``b`` per setting, its s.e. and Welch degrees of freedom."""
    sa, sb = tab[f"{a} s.e."].to_numpy(), tab[f"{b} s.e."].to_numpy()
    df = satterthwaite([sa, sb], [tab[f"{a} runs"].to_numpy() - 1, tab[f"{b} runs"].to_numpy() - 1])
    return (tab[a] - tab[b]).to_numpy(), np.hypot(sa, sb), df


def _wins(tab: pd.DataFrame, a: str, b: str) -> np.ndarray:
    """+1 where ``a`` has lower final regret than ``b`` beyond the t interval (Welch), -1 where higher, 0 otherwise."""
    d, se, df = _diffs(tab, a, b)
    w = halfwidth(se, df)
    return np.where(d < -w, 1, np.where(d > w, -1, 0))


def _where(tab: pd.DataFrame, mask) -> str:
    rows = tab[mask]
    names = [f"{r.instance} K={r.K} ε={r.epsilon:g}" for r in rows.itertuples()]
    return ", ".join(names[:6]) + (" ..." if len(names) > 6 else "") if names else "none"


def _count(w, a: str = "wins", b: str = "losses") -> dict:
    return {"settings": int(w.size), a: int(np.sum(w > 0)), "ties": int(np.sum(w == 0)), b: int(np.sum(w < 0))}


def _duel(tab, a, b, mask, claim_id, statement, scope) -> Claim:
    sub = tab[mask].reset_index(drop=True)
    w = _wins(sub, a, b)
    return Claim(
        "sajed2019thesis",
        claim_id,
        statement,
        f"{LABELS[a]}'s mean regret at T below {LABELS[b]}'s beyond the t interval in every {scope}; 'fails' if "
        f"{LABELS[b]} is lower beyond it somewhere under Holm's correction over the settings",
        ordering_verdict([_diffs(sub, a, b)]),
        f"{LABELS[a]} wins / ties / loses; losses at: {_where(sub, w < 0)}",
        _count(w),
    )


def elimination_table(curves: pd.DataFrame, runs: pd.DataFrame) -> pd.DataFrame:
    """Mean step at which DP-SE 2 and modified DP-SE 2 have eliminated every suboptimal arm, per setting.

    Per-run times come from the final pull counts (:func:`elimination_time`); a run still eliminating at T
    counts as T, so the mean is then a lower bound (``<alg> unfinished`` > 0).
    """
    rs = run_settings(curves, runs)
    rows = []
    for (inst, eps), g in rs.groupby(["instance", "epsilon"], sort=False):
        spec = instance_spec(inst)
        row = {"instance": spec["name"], "K": spec.get("k"), "epsilon": float(eps)}
        for alg in ("dp_se2", "dp_se2_modified"):
            a = g[g["algorithm"] == alg]
            row[alg], row[f"{alg} s.e."], row[f"{alg} df"] = mean_se(a["eliminated at"].fillna(a["horizon"]))
            row[f"{alg} unfinished"], row[f"{alg} runs"] = int(a["eliminated at"].isna().sum()), len(a)
        rows.append(row)
    return pd.DataFrame(rows)


def _time_ratios(tab: pd.DataFrame, low: float, high: float) -> tuple[Family, dict]:
    """Family of every setting's standard / modified elimination time within [low, high], and the ratios.

    A setting with an unfinished modified run cannot hold and gives no fail test; where a standard run is
    unfinished, the ratio is a lower bound that can only show it above ``high``.
    """
    tests, nums = Family(np.zeros(0), np.zeros(0)), {}
    for row in tab.to_dict("records"):
        q, se, df = ratio(
            *(row[f"{alg}{x}"] for alg in ("dp_se2", "dp_se2_modified") for x in ("", " s.e.")),
            row["dp_se2 df"],
            row["dp_se2_modified df"],
        )
        name = f"K={row['K']} ε={row['epsilon']:g}"
        if row["dp_se2_modified unfinished"] or not row["dp_se2_modified runs"]:
            tests += Family(np.ones(1), np.zeros(0))
            nums[name] = "modified unfinished"
        elif row["dp_se2 unfinished"]:
            tests += Family(np.ones(1), pvalue(q - high, se, df))
            nums[name] = f">= {q:.3g}"
        else:
            tests += threshold_tests(q, se, low, high, df)
            nums[name] = f"{q:.3g} ± {se:.2g}"
    return tests, nums


def _q(text: str) -> str:
    return f'"{text}" ({SOURCE}).'


def c3_claims(tab: pd.DataFrame, times: pd.DataFrame) -> list[Claim]:
    """C-3 from the final regrets ``tab`` (:func:`duel_table`) and elimination times ``times``."""
    inst, eps, k = tab["instance"], tab["epsilon"], tab["K"]
    out = [
        _duel(
            tab,
            "dp_se",
            "dp_se2",
            inst.notna(),
            "C-3 (DP-SE vs DP-SE 2)",
            _q("Comparing DP-SE 2 and its variant with DP-SE we find that in all cases DP-SE outperforms DP-SE 2"),
            "setting",
        ),
        _duel(
            tab,
            "dp_se2_modified",
            "dp_ucb",
            inst.notna(),
            "C-3 (modified vs DP-UCB)",
            _q("Moreover, in all settings the modified DP-SE 2 outperforms DP-UCB"),
            "setting",
        ),
        _duel(
            tab,
            "dp_se2",
            "dp_ucb",
            inst.isin(["C2", "C3"]),
            "C-3 (C2, C3: DP-SE 2 vs DP-UCB)",
            _q(
                "In all other cases — and especially note the consistency throughout all experiments in setting C2 "
                "and C3 — our naive DP-SE 2 outperforms the DP-UCB baseline"
            ),
            "C2 and C3 setting",
        ),
    ]
    w = _wins(tab, "dp_se", "dp_se2_modified")
    out.append(
        Claim(
            "sajed2019thesis",
            "C-3 (DP-SE vs modified, most)",
            _q(
                "... in all cases DP-SE outperforms DP-SE 2 and most of the times it shows improvements over modified "
                "DP-SE 2"
            ),
            "DP-SE's mean regret at T below modified DP-SE 2's beyond the t interval in more than half of the "
            "settings; 'fails' if modified DP-SE 2 is lower beyond the t interval in at least half",
            HOLDS if np.sum(w > 0) > w.size / 2 else (FAILS if np.sum(w < 0) >= w.size / 2 else INCONCLUSIVE),
            f"DP-SE wins / ties / loses; losses at: {_where(tab, w < 0)}",
            _count(w),
        )
    )
    c1 = inst == "C1"
    easy = c1 & ((eps <= SMALL_EPS) | (k >= 20))
    hard = c1 & (eps > SMALL_EPS) & (k < 20)
    w_easy, w_hard = _wins(tab[easy], "dp_se2", "dp_ucb"), _wins(tab[hard], "dp_se2", "dp_ucb")
    ok = w_easy.size and np.all(w_easy > 0) and np.any(w_hard < 0)
    out.append(
        Claim(
            "sajed2019thesis",
            "C-3 (C1 split)",
            _q(
                "in setting C1, where all gaps are the same and quite small, the DP-SE 2 algorithm outperforms the "
                "DP-UCB "
                "baseline when either ε is small (<= 0.25 in our experiments) or for large values of K (see Figure A.1 "
                "and A.5). In other words, the conditions for which DP-UCB is better than DP-SE 2 are when ε is fairly "
                "large, the number of arms is moderate, and all arms have identical and fairly small gaps"
            ),
            "C1: DP-SE 2 below DP-UCB at T beyond the t interval in every setting with ε <= 0.25 or K = 20 (the "
            "grid's large "
            "K), and DP-UCB below DP-SE 2 beyond the t interval in at least one setting with ε > 0.25 and K < 20; "
            "'fails' if "
            "DP-UCB is lower beyond the t interval in a small-ε or K = 20 setting, or DP-SE 2 in every other one",
            HOLDS if ok else (FAILS if np.any(w_easy < 0) or (w_hard.size and np.all(w_hard > 0)) else INCONCLUSIVE),
            f"DP-UCB wins at: {_where(tab[hard], w_hard < 0)}; DP-SE 2 loses in the small-ε / K = 20 cases at: "
            f"{_where(tab[easy], w_easy < 0)}",
            {
                "small ε or K=20: wins/ties/losses": "{wins}/{ties}/{losses}".format(**_count(w_easy)),
                "others: DP-UCB wins": int(np.sum(w_hard < 0)),
                "others": int(w_hard.size),
            },
        )
    )
    c4 = (inst == "C4") & (eps > SMALL_EPS)
    w4 = _wins(tab[c4], "dp_se2", "dp_ucb")
    out.append(
        Claim(
            "sajed2019thesis",
            "C-3 (C4, large ε)",
            _q(
                "The setting C4 further adds mounting evidence that naive DP-SE 2 can be outperformed by DP-UCB for "
                "small suboptimality gaps and large values of ε (see Figure A.4 and A.8)"
            ),
            "DP-UCB below DP-SE 2 at T beyond the t interval in at least one C4 setting with ε > 0.25; 'fails' if "
            "DP-SE 2 is lower beyond the t interval in all of them; 'at least one' under Holm's correction over "
            "the settings",
            ordering_tests([_diffs(tab[c4], "dp_ucb", "dp_se2")]).verdict(every=False),
            f"DP-UCB wins at: {_where(tab[c4], w4 < 0)}",
            _count(w4, "DP-SE 2 wins", "DP-UCB wins"),
        )
    )
    timing = (
        "elimination time = mean over runs of the step after which a run pulls only one arm (from its final "
        "pull counts), ± s.e.; ratio standard / modified with its delta-method s.e. and Satterthwaite df"
    )
    tests, nums = _time_ratios(times[times["instance"] == "C2"], 0.0, NOT_LONG_AFTER)
    out.append(
        Claim(
            "sajed2019thesis",
            "C-3 (C2, not long after)",
            _q(
                "comparing the curves for DP-SE 2 and the modified DP-SE 2 in Figure A.2, we see that standard DP-SE 2 "
                "eliminates all suboptimal arms not long after the modified DP-SE 2 eliminates all suboptimal arms"
            ),
            f"C2, every setting: {timing} <= {NOT_LONG_AFTER:g} beyond the t interval. The thesis contrasts this "
            "with C1's "
            "'drastic' 5-fold difference, and DP-SE 2 checks for halting at rounds r = 2^l, so 'not long after' is "
            "read "
            f"as at most one doubling later. 'Fails' if a ratio exceeds {NOT_LONG_AFTER:g} beyond the t interval "
            "(a standard run "
            "unfinished at T counts as T: a lower bound), under Holm's correction over the settings; a setting with "
            "an unfinished modified run is inconclusive",
            tests.verdict(),
            "standard / modified elimination time per C2 setting",
            nums,
        )
    )
    c1_times = times[(times["instance"] == "C1") & (times["epsilon"] > SMALL_EPS)]
    tests, nums = _time_ratios(c1_times, *FASTER_BAND)
    out.append(
        Claim(
            "sajed2019thesis",
            "C-3 (C1, modified faster)",
            _q(
                "Here the gap between arms is small enough s.t. the key component in the decision to halt is the "
                "Hoeffding bound (unless ε is quite small). Indeed, the modified DP-SE 2 algorithm, which sets the "
                "dependency on the Hoeffding bound to be 5-times smaller than in the standard DP-SE 2 algorithm, also "
                "happens to eliminate all suboptimal arms in (roughly) 1/5 of the time it takes the standard DP-SE 2 "
                "algorithm to eliminate all arms"
            ),
            f"C1 with ε > {SMALL_EPS:g} (the thesis's 'small' ε, where the Hoeffding bound need not dominate, "
            "excluded): "
            f"{timing} inside [{FASTER_BAND[0]:g}, {FASTER_BAND[1]:g}] beyond the t interval in every setting: "
            "'roughly' 5, "
            "within a factor 2 because halting happens at power-of-two rounds. 'Fails' if some ratio lies outside "
            "beyond the t interval (a standard run unfinished at T counts as T: the ratio is then a lower bound), "
            "under Holm's correction over the settings; a setting with an unfinished modified run is inconclusive",
            tests.verdict(),
            "standard / modified elimination time per C1 setting",
            nums,
        )
    )
    return out


def sajed2019thesis(results: str | Path) -> list[Claim]:
    ch6, ch6_runs = load_tables(results, "sajed2019thesis", CH6_FIGS)
    ch6 = text_variants(ch6)
    appendix, appendix_runs = load_tables(results, "sajed2019thesis", APPENDIX_FIGS)
    appendix = text_variants(appendix)
    tab = duel_table(appendix)
    return (
        c1_claims(ch6, "sajed2019thesis")
        + c2_claims(ch6, ch6_runs, "sajed2019thesis")
        + c3_claims(tab, elimination_table(appendix, appendix_runs))
        + untested_claims(tab, run_settings(appendix, appendix_runs))
    )


# ---------------------------------------------------------------------------- sentences a first pass left untested

DRASTIC = NOT_LONG_AFTER  # C1's "drastic" difference: more than C2's "not long after" factor, in final regret


def large_gap_pulls(runs: pd.DataFrame) -> pd.DataFrame:
    """Per run of :func:`run_settings`: its pulls of the arms whose gap is at least half the largest gap."""

    def large(row) -> int:
        means = means_for(instance_spec(row.instance))
        return int(np.array(row.pulls.split(), dtype=np.int64)[means.max() - means >= np.ptp(means) / 2].sum())

    return runs.assign(**{"large-gap pulls": [large(r) for r in runs.itertuples()]})


def untested_claims(tab: pd.DataFrame, runs: pd.DataFrame) -> list[Claim]:
    """Chapter 1's ranking and two sentences of Appendix A.2, from the appendix figures' finals ``tab``
    (:func:`duel_table`) and runs (:func:`run_settings`)."""
    least = [_diffs(tab, "dp_se", other) for other in ("dp_se2", "dp_ucb")]
    out = [
        Claim(
            "sajed2019thesis",
            "C-0 (DP-SE least)",
            '"Based on the experiments and theoretical analyses, it can be safely said that DP-SE incurs the least '
            'pseudo regret amongst all three algorithms" (Sajed 2019, MSc thesis, Chapter 1).',
            "the three are DP-SE, DP-SE 2 and DP-UCB, together in Figures A.1-A.8 only: DP-SE's mean regret at T "
            "below both others' beyond the t interval in every setting; 'fails' if one of them is below DP-SE "
            "beyond the interval in a setting",
            ordering_verdict(least) if len(tab) else INCONCLUSIVE,
            f"DP-SE ahead of DP-SE 2 / DP-UCB in {int(np.sum(least[0][0] < 0))} / {int(np.sum(least[1][0] < 0))} "
            f"of {len(tab)} settings (point estimates)",
            {
                "largest DP-SE - DP-SE 2": float(np.max(least[0][0], initial=-np.inf)),
                "largest DP-SE - DP-UCB": float(np.max(least[1][0], initial=-np.inf)),
            },
        )
    ]
    c1 = tab[(tab["instance"] == "C1") & (tab["epsilon"] > SMALL_EPS)]
    cols = [f"{a}{x}" for a in ("dp_se2", "dp_se2_modified") for x in ("", " s.e.")]
    q = np.array([ratio(*r[cols], r["dp_se2 runs"] - 1, r["dp_se2_modified runs"] - 1) for _, r in c1.iterrows()])
    out.append(
        Claim(
            "sajed2019thesis",
            "C-3 (C1, drastic)",
            _q(
                "In contrast, in setting C1 (see Figure A.1) we see drastic performance difference between the "
                "standard DP-SE 2 and the modified DP-SE 2"
            ),
            f"C1 with ε > {SMALL_EPS:g} (the thesis's own exception, 'unless ε is quite small'), every K: the final "
            f"mean regret ratio standard / modified DP-SE 2 above {DRASTIC:g} beyond the t interval (delta-method "
            f"s.e.); 'fails' if some ratio is below {DRASTIC:g} beyond it. {DRASTIC:g}: more than the factor that "
            "the next sentence's C2 'not long after' allows",
            threshold_verdict(q[:, 0], q[:, 1], low=DRASTIC, df=q[:, 2]) if len(q) else INCONCLUSIVE,
            "standard / modified final regret per C1 setting",
            {f"K={r.K} ε={r.epsilon:g}": f"{x:.3g} ± {s:.2g}" for r, (x, s, _) in zip(c1.itertuples(), q, strict=True)},
        )
    )
    pulls = large_gap_pulls(runs[runs["instance"].str.startswith("C2")])
    diffs, nums = [], {}
    for (inst, eps), g in pulls.groupby(["instance", "epsilon"]):
        (a, sa, da), (b, sb, db) = (
            mean_se(g.loc[g["algorithm"] == alg, "large-gap pulls"]) for alg in ("dp_se2", "dp_ucb")
        )
        diffs.append((np.array([a - b]), np.array([np.hypot(sa, sb)]), satterthwaite([sa, sb], [da, db])))
        nums[f"{inst} ε={eps:g}"] = f"DP-SE 2 {a:.0f}, DP-UCB {b:.0f}"
    out.append(
        Claim(
            "sajed2019thesis",
            "C-3 (C2, large gaps viable)",
            _q(
                "We postulate that the reason for the improved performance across setting C2 is the fact that under "
                "DP-UCB arms of large gaps remain effectively viable (i.e. are pulled relatively frequently) for a "
                "longer period of time than under DP-SE 2"
            ),
            "C2, every setting: mean pulls by T of the arms whose gap is at least half the largest gap (those one "
            "DP-SE 2 epoch eliminates together) fewer under DP-SE 2 than under DP-UCB beyond the t interval (Welch, "
            "from the per-run pull counts); 'fails' if more beyond the interval in a setting",
            ordering_verdict(diffs) if diffs else INCONCLUSIVE,
            "mean large-gap pulls per C2 setting",
            nums,
        )
    )
    return out
