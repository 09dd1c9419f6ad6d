"""Claims of Sajed & Sheffet 2019 (spec sajed2019-dpse.md §4.1 C-1, C-2; ambiguity A8 for Γ)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from ..bandits.dp_ucb import gamma_bonus
from ..instances import means_for
from ._core import (
    FAILS,
    HOLDS,
    INCONCLUSIVE,
    Claim,
    area,
    flat_from,
    load_tables,
    main_curves,
    near,
    ratio,
    slope_changes,
    text_variants,
    threshold_verdict,
)

SAJED_FIGS = tuple(f"fig{i:02d}" for i in range(1, 13))
C1_FACTOR = 5.0
LINEAR_MAX, SMOOTH_MIN = 0.25, 0.5  # C-2: fraction of checkpoints where the slope changes


def instance_spec(label: str) -> dict:
    """Config instance entry of a curve table's ``instance`` label ("C2, K=5" -> {"name": "C2", "k": 5})."""
    name, _, k = label.partition(", K=")
    return {"name": name, "k": int(k)} if k else {"name": name}


def gap_sum(label: str) -> float:
    """Sum of the gaps of an instance label: the most regret one round-robin round can add."""
    means = means_for(instance_spec(label))
    return float(np.sum(means.max() - means))


def _order(key) -> tuple:
    spec = instance_spec(key[0])
    return spec["name"], spec.get("k", 0), key[1]


def settings(curves: pd.DataFrame, variant: str = "") -> dict[tuple[str, float], dict[str, pd.DataFrame]]:
    """{(instance label, epsilon): {algorithm: mean curve indexed by t}}, each configuration once.

    ``variant`` selects ablation curves instead of the primary ones ("" = primary).
    """
    df = curves[curves["variant"].fillna("") == variant] if variant else main_curves(curves)
    df = df.drop_duplicates(["instance", "algorithm", "epsilon", "t"])
    out: dict = {}
    for (inst, alg, eps), g in df.groupby(["instance", "algorithm", "epsilon"], sort=False):
        out.setdefault((inst, float(eps)), {})[alg] = g.set_index("t").sort_index()
    return dict(sorted(out.items(), key=lambda kv: _order(kv[0])))


def _name(key) -> str:
    return f"{key[0]}, ε={key[1]:g}"


READINGS = {
    "final": "at the horizon T",
    "T/10": "at the first checkpoint t >= T/10",
    "area": "of the areas under the mean curves over [0, T] (mean regret over time)",
}


def _reading(worse: pd.DataFrame, better: pd.DataFrame, reading: str) -> tuple[float, float]:
    if reading == "area":
        (a, sa), (b, sb) = area(worse), area(better)
    else:
        t = worse.index.max() if reading == "final" else worse.index.max() / 10
        ra, rb = near(worse, t), near(better, t)
        a, sa, b, sb = ra["mean"], ra["sem"], rb["mean"], rb["sem"]
    return ratio(a, sa, b, sb)


def ratio_table(results: str | Path, paper: str = "sajed2019", figures=SAJED_FIGS,
                worse: str = "dp_ucb", better: str = "dp_se") -> pd.DataFrame:
    """Regret ratio ``worse``/``better`` per (instance, epsilon) under each reading of C-1, ± s.e."""
    curves = text_variants(load_tables(results, paper, figures)[0])
    return _ratios(settings(curves), worse, better)


def _ratios(sets: dict, worse: str, better: str) -> pd.DataFrame:
    rows = []
    for key, algs in sets.items():
        if worse not in algs or better not in algs:
            continue
        row = {"instance": key[0], "epsilon": key[1]}
        for reading in READINGS:
            row[reading], row[f"{reading} s.e."] = _reading(algs[worse], algs[better], reading)
        rows.append(row)
    return pd.DataFrame(rows)


def _gamma_note(sets: dict) -> tuple[str, dict]:
    """A8: the Γ used (printed '/2' read as '/ε') and how the literal reading would change it."""
    nums = {}
    for label in dict.fromkeys(k[0] for k in sets):
        spec = instance_spec(label)
        if "k" in spec:
            horizon = int(max(a.index.max() for (inst, _), algs in sets.items() if inst == label
                              for a in algs.values()))
            nums[f"Γ·ε (K={spec['k']}, T={horizon:g})"] = gamma_bonus(spec["k"], horizon, 1.0, 1.0 / horizon)
    return ("DP-UCB's bonus Γ = (ln T)² ln(K T ln T/β)/ε reads the '/2' printed in Th:584 as '/ε' (A8). Under "
            "the literal '/2' Γ is multiplied by ε/2 (x0.05 at ε = 0.1 ... x0.5 at ε = 1), a much smaller "
            "bonus, so DP-UCB would explore far less; with log2 in (log T)² Γ doubles."), nums


def c1_claims(curves: pd.DataFrame, paper: str) -> list[Claim]:
    """C-1 under its readings (final, T/10, area), plus 'DP-SE better at all' and the Γ reading."""
    statement = ("\"We could not find even a single setting where DP-UCB is even comparable to our DP-SE. I.e. in all "
                 "settings we tested, we outperform DP-UCB by at least 5 times\" (P:1140-1144, Th:774).")
    sets = settings(curves)
    table = _ratios(sets, "dp_ucb", "dp_se")
    out = []
    for reading, what in READINGS.items():
        r, s = table[reading].to_numpy(), table[f"{reading} s.e."].to_numpy()
        low = int(np.argmin(r))
        nums = {"settings": len(r), "min ratio": r[low], "min at": f"{table['instance'][low]}, "
                f"ε={table['epsilon'][low]:g}", "median ratio": float(np.median(r)),
                f"settings below {C1_FACTOR:g}": int(np.sum(r < C1_FACTOR))}
        out.append(Claim(
            paper, f"C-1 ({reading})", statement,
            f"ratio DP-UCB / DP-SE of mean regret {what} >= {C1_FACTOR:g} in every (instance, K, ε), beyond "
            "2 s.e. (delta method); 'fails' if some ratio is below 5 beyond 2 s.e.",
            threshold_verdict(r, s, low=C1_FACTOR), f"min / median ratio {r[low]:.3g} / {np.median(r):.3g} "
            f"over {len(r)} settings", nums,
        ))
    diffs = []
    for algs in sets.values():
        if {"dp_se", "dp_ucb"} <= algs.keys():
            a, b = algs["dp_se"].iloc[-1], algs["dp_ucb"].iloc[-1]
            diffs.append((a["mean"] - b["mean"], float(np.hypot(a["sem"], b["sem"]))))
    d, s = np.array(diffs).T
    nums = {"settings": d.size, "DP-SE better beyond 2 s.e.": int(np.sum(d < -2 * s)),
            "DP-UCB better beyond 2 s.e.": int(np.sum(d > 2 * s))}
    out.append(Claim(
        paper, "C-1 (better)", "\"We could not find even a single setting where DP-UCB is even comparable to our "
        "DP-SE\" (P:1140-1144).",
        "weakest reading: DP-SE's mean regret at T below DP-UCB's in every setting, beyond 2 s.e.",
        FAILS if np.any(d > 2 * s) else (HOLDS if np.all(d < -2 * s) else INCONCLUSIVE),
        "settings won / lost by DP-SE at T", nums,
    ))
    note, nums = _gamma_note(sets)
    variants = sorted(set(curves.loc[curves["algorithm"] == "dp_ucb", "variant"]) - {""})
    verdicts = []
    for v in variants:
        vsets = settings(curves, v)
        merged = {k: {"dp_ucb": vsets[k]["dp_ucb"], "dp_se": sets[k]["dp_se"]} for k in vsets
                  if "dp_ucb" in vsets[k] and "dp_se" in sets.get(k, {})}
        vt = _ratios(merged, "dp_ucb", "dp_se")
        verdicts.append(threshold_verdict(vt["final"], vt["final s.e."], low=C1_FACTOR))
        nums[f"min final ratio, DP-UCB '{v}'"] = float(vt["final"].min())
    out.append(Claim(
        paper, "C-1 (Γ reading, A8)", statement,
        "C-1 (final) with DP-UCB run under the alternative readings of Γ, where such variant curves were "
        "simulated; otherwise inconclusive (only the '/ε' reading was run)",
        (FAILS if FAILS in verdicts else (HOLDS if all(v == HOLDS for v in verdicts) else INCONCLUSIVE))
        if variants else INCONCLUSIVE, note + (f" Variants simulated: {variants}." if variants else
                                               " No alternative-Γ variant of DP-UCB was simulated."), nums,
    ))
    return out


def shape_table(curves: pd.DataFrame) -> pd.DataFrame:
    """Per (instance, ε, algorithm): slope changes on t >= T/100, their share, and where the curve is flat."""
    rows = []
    for key, algs in settings(curves).items():
        g = gap_sum(key[0])
        for alg, c in algs.items():
            n, of, share = slope_changes(c, g, c.index.max() / 100)
            rows.append({"instance": key[0], "epsilon": key[1], "algorithm": alg, "slope changes": n,
                         "checkpoints": of, "fraction": n / of if of else np.nan, "largest share": share,
                         "flat from t": flat_from(c), "horizon": c.index.max()})
    return pd.DataFrame(rows)


def shapes(results: str | Path, paper: str = "sajed2019", figures=SAJED_FIGS) -> pd.DataFrame:
    """:func:`shape_table` of a paper's figures read from ``results``."""
    return shape_table(text_variants(load_tables(results, paper, figures)[0]))


def c2_claims(curves: pd.DataFrame, paper: str) -> list[Claim]:
    """C-2: DP-SE piecewise linear (few slope changes, flat after the last elimination), DP-UCB smooth."""
    statement = ("\"The DP-UCB curve is smooth (attesting to the fact it pulls suboptimal arms even for fairly large "
                 "values of T), the DP-SE is piece-wise linear (exhibiting the fact that at some point it eliminates "
                 "all suboptimal arms)\" (P:1152-1154, Th:774).")
    tab = shape_table(curves)
    se, ucb = tab[tab["algorithm"] == "dp_se"], tab[tab["algorithm"] == "dp_ucb"]
    granularity = ("a slope change counts at a checkpoint when the slopes of the neighbouring intervals differ "
                   "by more than the round-robin granularity Σgaps (1/L1 + 1/L2); checkpoints t >= T/100")
    worst = se.loc[se["fraction"].idxmax()]
    out = [Claim(
        paper, "C-2 (DP-SE piecewise linear)", statement,
        f"DP-SE's mean curve changes slope at <= {LINEAR_MAX:.0%} of its checkpoints in every setting "
        f"({granularity})",
        HOLDS if (se["fraction"] <= LINEAR_MAX).all() else FAILS,
        f"largest fraction {worst['fraction']:.2f} ({worst['instance']}, ε={worst['epsilon']:g})",
        {"settings": len(se), "median fraction": float(se["fraction"].median()),
         "max fraction": float(se["fraction"].max()),
         "median largest-change share": float(se["largest share"].median())},
    )]
    bending = ucb[ucb["slope changes"] > 0]
    if bending.empty:
        verdict, evidence = INCONCLUSIVE, "DP-UCB's curve is a straight line within granularity in every setting"
    else:
        verdict = HOLDS if (bending["fraction"] >= SMOOTH_MIN).all() else FAILS
        low = bending.loc[bending["fraction"].idxmin()]
        evidence = (f"{len(bending)} of {len(ucb)} DP-UCB curves bend; smallest fraction of slope changes "
                    f"{low['fraction']:.2f} ({low['instance']}, ε={low['epsilon']:g})")
    out.append(Claim(
        paper, "C-2 (DP-UCB smooth)", statement,
        f"where DP-UCB's mean curve bends at all, its slope changes gradually: at >= {SMOOTH_MIN:.0%} of the "
        f"checkpoints rather than at a few kinks ({granularity}); inconclusive if it never bends",
        verdict, evidence,
        {"bending settings": len(bending), "median fraction": float(ucb["fraction"].median()),
         "median largest-change share": float(ucb["largest share"].median())},
    ))
    flat = se["flat from t"].notna()
    missing = [f"{r.instance}, ε={r.epsilon:g}" for r in se[~flat].itertuples()]
    out.append(Claim(
        paper, "C-2 (flat tail)", statement,
        "DP-SE's mean curve is exactly flat at the end (every run has eliminated all suboptimal arms before the "
        "last checkpoint interval) in every setting",
        HOLDS if flat.all() else FAILS,
        f"flat in {int(flat.sum())} of {len(se)} settings" + (f"; not flat: {', '.join(missing[:8])}"
                                                               + (" ..." if len(missing) > 8 else "")
                                                               if missing else ""),
        {"flat settings": int(flat.sum()), "settings": len(se),
         "median flat-from t / T": float((se["flat from t"] / se["horizon"]).median()) if flat.any() else np.nan},
    ))
    if (se["slope changes"] == 0).all() and not flat.any():  # no DP-SE epoch ends within T: no contrast to see
        for c in out:
            c.verdict = INCONCLUSIVE
            c.evidence = "horizon too short: DP-SE ends no epoch before T in any setting; " + c.evidence
    return out


def sajed2019(results: str | Path) -> list[Claim]:
    curves = text_variants(load_tables(results, "sajed2019", SAJED_FIGS)[0])
    return c1_claims(curves, "sajed2019") + c2_claims(curves, "sajed2019")
