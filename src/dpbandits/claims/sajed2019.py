"""Claims of Sajed & Sheffet 2019, Section 5 (restated in Sajed's MSc thesis 2019, Chapter 6): C-1 and C-2."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from ..bandits.dp_se import epoch_schedule
from ..core.instances import means_for
from ._core import (
    FAILS,
    HOLDS,
    INCONCLUSIVE,
    STRUCTURAL,
    Claim,
    area,
    combine,
    elimination_time,
    flat_from,
    halfwidth,
    load_tables,
    main_curves,
    near,
    ordering_verdict,
    ratio,
    satterthwaite,
    slope_changes,
    text_variants,
    threshold_verdict,
)

SAJED_FIGS = tuple(f"fig{i:02d}" for i in range(1, 13))
C1_FACTOR = 5.0
# C-2: a curve's shape from its slope changes on t >= T/100 (see shape_of and curve_shape)
LINEAR_MAX, SMOOTH_MIN, KINK_SHARE = 0.25, 0.5, 0.5
SHAPES = ("kinked", "smooth", "neither", "uncertain")

QUOTES = {
    "sajed2019": (
        '"We could not find even a single setting where DP-UCB is even comparable to our DP-SE. I.e. in all '
        'settings we tested, we outperform DP-UCB by at least 5 times"',
        "Sajed & Sheffet 2019, Section 5",
    ),
    "sajed2019thesis": (
        '"we could not find even a single setting where DP-UCB is even comparable to our DP-SE — in all settings '
        'we tested, DP-SE outperform DP-UCB by at least 5 times"',
        "Sajed 2019, MSc thesis, Chapter 6",
    ),
}
SHAPE_QUOTE = (
    '"while the DP-UCB curve is smooth (attesting to the fact it pulls suboptimal arms even for fairly '
    "large values of T), the DP-SE is piece-wise linear (exhibiting the fact that at some point it "
    'eliminates all suboptimal arms)"'
)


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


def run_settings(curves: pd.DataFrame, runs: pd.DataFrame) -> pd.DataFrame:
    """Primary per-run finals, each run once, with ``instance`` and ``eliminated at`` (:func:`elimination_time`)."""
    where = curves[["figure", "panel", "instance"]].drop_duplicates()
    df = text_variants(runs)
    df = df[df["variant"] == ""].merge(where, on=["figure", "panel"])
    df = df.drop_duplicates(["instance", "algorithm", "epsilon", "run"])
    return df.assign(**{"eliminated at": df["pulls"].map(elimination_time)})


def dp_se_guarantee(label: str, epsilon: float, horizon: float) -> float:
    """Step by which DP-SE has eliminated every suboptimal arm on its good event (probability >= 1 - 1/T).

    The proof of Sajed & Sheffet 2019, Lemma 4.2: on the good event, epoch e eliminates every viable arm
    with gap >= 2^-e and never the best arm. So epoch e has at most 1 + #{gaps < 2^-(e-1)} viable arms,
    and the last arm goes at the end of the first epoch with 2^-e <= the smallest gap. Returns the
    schedule's length up to there with those arm counts (an upper bound; beta = 1/T as in Section 5).
    """
    means = means_for(instance_spec(label))
    gaps = np.sort(means.max() - means)[1:]
    t, e = 0.0, 0
    while True:
        e += 1
        m = 1 + int(np.sum(gaps < 2.0 ** -(e - 1)))
        t += m * epoch_schedule(m, e, epsilon, 1.0 / horizon)[1]
        if 2.0**-e <= gaps[0] or t > horizon:
            return t


def _name(key) -> str:
    return f"{key[0]}, ε={key[1]:g}"


RATIO_READINGS = {
    "final": "at the horizon T",
    "T/10": "at the first checkpoint t >= T/10",
    "area": "of the areas under the mean curves over [0, T] (mean regret over time)",
}


def _reading(worse: pd.DataFrame, better: pd.DataFrame, reading: str) -> tuple[float, float, float]:
    if reading == "area":
        (a, sa, da), (b, sb, db) = area(worse), area(better)
    else:
        t = worse.index.max() if reading == "final" else worse.index.max() / 10
        ra, rb = near(worse, t), near(better, t)
        a, sa, da, b, sb, db = ra["mean"], ra["sem"], ra["runs"] - 1, rb["mean"], rb["sem"], rb["runs"] - 1
    return ratio(a, sa, b, sb, da, db)


def ratio_table(
    results: str | Path, paper: str = "sajed2019", figures=SAJED_FIGS, worse: str = "dp_ucb", better: str = "dp_se"
) -> pd.DataFrame:
    """Regret ratio ``worse``/``better`` per (instance, epsilon) under each reading of C-1, ± s.e. (and its df)."""
    curves = text_variants(load_tables(results, paper, figures)[0])
    return _ratios(settings(curves), worse, better)


def _ratios(sets: dict, worse: str, better: str) -> pd.DataFrame:
    rows = []
    for key, algs in sets.items():
        if worse not in algs or better not in algs:
            continue
        row = {"instance": key[0], "epsilon": key[1]}
        for reading in RATIO_READINGS:
            row[reading], row[f"{reading} s.e."], row[f"{reading} df"] = _reading(algs[worse], algs[better], reading)
        rows.append(row)
    return pd.DataFrame(rows)


def c1_claims(curves: pd.DataFrame, paper: str) -> list[Claim]:
    """C-1 read on the final regret, at T/10 and on the area under the curve, and 'DP-SE better at all'."""
    quote, source = QUOTES[paper]
    statement = f"{quote} ({source})."
    sets = settings(curves)
    table = _ratios(sets, "dp_ucb", "dp_se")
    out = []
    for reading, what in RATIO_READINGS.items():
        r, s, df = (table[f"{reading}{x}"].to_numpy() for x in ("", " s.e.", " df"))
        low = int(np.argmin(r))
        nums = {
            "settings": len(r),
            "min ratio": r[low],
            "min at": f"{table['instance'][low]}, ε={table['epsilon'][low]:g}",
            "median ratio": float(np.median(r)),
            f"settings below {C1_FACTOR:g}": int(np.sum(r < C1_FACTOR)),
        }
        out.append(
            Claim(
                paper,
                f"C-1 ({reading})",
                statement,
                f"ratio DP-UCB / DP-SE of mean regret {what} >= {C1_FACTOR:g} in every (instance, K, ε), beyond "
                f"its t interval (delta-method s.e.); 'fails' if some ratio is below {C1_FACTOR:g} beyond it",
                threshold_verdict(r, s, low=C1_FACTOR, df=df),
                f"min / median ratio {r[low]:.3g} / {np.median(r):.3g} over {len(r)} settings",
                nums,
            )
        )
    diffs = []
    for algs in sets.values():
        if {"dp_se", "dp_ucb"} <= algs.keys():
            a, b = algs["dp_se"].iloc[-1], algs["dp_ucb"].iloc[-1]
            diffs.append(
                (
                    a["mean"] - b["mean"],
                    float(np.hypot(a["sem"], b["sem"])),
                    float(satterthwaite([a["sem"], b["sem"]], [a["runs"] - 1, b["runs"] - 1])),
                )
            )
    d, s, df = np.array(diffs).T
    w = halfwidth(s, df)
    nums = {
        "settings": d.size,
        "DP-SE better beyond its t interval": int(np.sum(d < -w)),
        "DP-UCB better beyond its t interval": int(np.sum(d > w)),
    }
    out.append(
        Claim(
            paper,
            "C-1 (better)",
            statement,
            "weakest reading: DP-SE's mean regret at T below DP-UCB's in every setting, beyond the difference's t "
            "interval (Welch); 'fails' if DP-UCB's is below beyond it in some setting, under Holm's correction over "
            "the settings",
            ordering_verdict([(d, s, df)]),
            "settings won / lost by DP-SE at T",
            nums,
        )
    )
    return out


def shape_of(changes: int, checkpoints: int, share: float) -> str:
    """Shape of a mean curve from the slope changes counted on t >= T/100 (:func:`curve_shape`).

    ``straight``: no slope change; ``kinked`` (piece-wise linear): the slope changes at <= 25% of the
    checkpoints, or one change carries >= half of the slope's total variation; ``smooth``: it changes at
    >= 50% of them with no such dominant kink; ``neither`` in between.
    """
    if changes == 0:
        return "straight"
    fraction = changes / checkpoints
    if fraction <= LINEAR_MAX or share >= KINK_SHARE:
        return "kinked"
    return "smooth" if fraction >= SMOOTH_MIN else "neither"


def _counted(size: np.ndarray, counts: np.ndarray) -> tuple[int, float]:
    """(number of counted changes, largest counted change / their sum; nan if none)."""
    big = size[counts]
    return int(big.size), (float(big.max() / big.sum()) if big.sum() > 0 else float("nan"))


def curve_shape(curve: pd.DataFrame, granularity: float, t_min: float) -> dict:
    """Shape of a mean curve with its uncertainty across runs (:func:`dpbandits.claims._core.slope_changes`).

    The shape (:func:`shape_of`) is read twice: counting only the slope changes beyond the tolerance by more
    than their half-width ("sure"), and counting every change the noise cannot rule out ("possible"). It is
    the common reading where both agree, ``uncertain`` where they differ.
    """
    size, tol, hw = slope_changes(curve, granularity, t_min)
    sure, share = _counted(size, size - hw > tol)
    possible, share_possible = _counted(size, size + hw > tol)
    low, high = shape_of(sure, size.size, share), shape_of(possible, size.size, share_possible)
    return {
        "slope changes": sure,
        "possible changes": possible,
        "checkpoints": size.size,
        "fraction": sure / size.size if size.size else np.nan,
        "largest share": share,
        "shape": low if low == high else "uncertain",
    }


def shape_table(curves: pd.DataFrame) -> pd.DataFrame:
    """Per (instance, ε, algorithm): slope changes on t >= T/100, their share, shape, and where the curve is flat."""
    rows = []
    for key, algs in settings(curves).items():
        g = gap_sum(key[0])
        for alg, c in algs.items():
            rows.append(
                {
                    "instance": key[0],
                    "epsilon": key[1],
                    "algorithm": alg,
                    **curve_shape(c, g, c.index.max() / 100),
                    "flat from t": flat_from(c),
                    "horizon": c.index.max(),
                }
            )
    return pd.DataFrame(rows)


def shapes(results: str | Path, paper: str = "sajed2019", figures=SAJED_FIGS) -> pd.DataFrame:
    """:func:`shape_table` of a paper's figures read from ``results``."""
    return shape_table(text_variants(load_tables(results, paper, figures)[0]))


def _listed(names: list[str], most: int = 6) -> str:
    return ", ".join(names[:most]) + (" ..." if len(names) > most else "") if names else "none"


def _shape_claim(
    tab: pd.DataFrame, paper: str, alg: str, claim_id: str, want: str, against: str, criterion: str, statement: str
) -> Claim:
    sub = tab[tab["algorithm"] == alg]
    seen = sub[sub["shape"] != "straight"]
    names = {s: [_name((r.instance, r.epsilon)) for r in seen[seen["shape"] == s].itertuples()] for s in SHAPES}
    verdict = combine([FAILS if s == against else (HOLDS if s == want else INCONCLUSIVE) for s in seen["shape"]])
    return Claim(
        paper,
        claim_id,
        statement,
        criterion,
        verdict,
        f"{len(names[want])} of {len(seen)} bending curves {want}; {against}: {_listed(names[against])}; neither: "
        f"{_listed(names['neither'])}; uncertain: {_listed(names['uncertain'])}",
        {
            "settings": len(sub),
            "straight (excluded)": len(sub) - len(seen),
            **{s: len(v) for s, v in names.items()},
            "median fraction": float(seen["fraction"].median()),
            "median largest-change share": float(seen["largest share"].median()),
        },
    )


def c2_claims(curves: pd.DataFrame, runs: pd.DataFrame, paper: str) -> list[Claim]:
    """C-2: DP-SE's mean curve piece-wise linear, DP-UCB's smooth, and DP-SE's runs finish eliminating."""
    statement = f"{SHAPE_QUOTE} ({QUOTES[paper][1]})."
    tab = shape_table(curves)
    measure = (
        "Shapes on checkpoints t >= T/100: the slope changes at a checkpoint when the slopes of the "
        "neighbouring intervals (lengths L1, L2) differ by more than the round-robin granularity "
        f"Σgaps (1/L1 + 1/L2); 'kinked' = changes at <= {LINEAR_MAX:.0%} of the checkpoints or one change "
        f"carrying >= {KINK_SHARE:.0%} of the slope's total variation, 'smooth' = changes at >= "
        f"{SMOOTH_MIN:.0%} with no such kink, 'neither' in between; straight curves (no change) are "
        "excluded. Uncertainty across runs: the shape is read counting only the changes beyond the "
        "tolerance by more than their t interval (from the s.e. of the mean increments) and again counting "
        "every change the interval cannot rule out; 'uncertain' where the two readings differ (counted like "
        "'neither': inconclusive)."
    )
    out = [
        _shape_claim(
            tab,
            paper,
            "dp_se",
            "C-2 (DP-SE piecewise linear)",
            "kinked",
            "smooth",
            f"{measure} Holds if DP-SE's mean curve is kinked in every setting where it bends, fails if it is smooth "
            "in one. Not a tautology: each run is linear within an epoch, but the mean over runs bends wherever "
            "some run ends an epoch, and epoch ends move with the number of arms a run has eliminated, so runs "
            "with different elimination histories smooth the mean curve.",
            statement,
        ),
        _shape_claim(
            tab,
            paper,
            "dp_ucb",
            "C-2 (DP-UCB smooth)",
            "smooth",
            "kinked",
            f"{measure} Holds if DP-UCB's mean curve is smooth in every setting where it bends, fails if it is "
            "kinked in one (a few sharp slope changes, or one dominating kink, also in a noisy curve whose slope "
            "changes everywhere).",
            statement,
        ),
    ]
    rs = run_settings(curves, runs)
    guaranteed, excluded = [], []  # (setting, unfinished runs, runs); setting
    for (inst, eps), g in rs[rs["algorithm"] == "dp_se"].groupby(["instance", "epsilon"], sort=False):
        horizon = float(g["horizon"].max())
        if dp_se_guarantee(inst, float(eps), horizon) < horizon:
            guaranteed.append((_name((inst, eps)), int(g["eliminated at"].isna().sum()), len(g)))
        else:
            excluded.append(_name((inst, eps)))
    bad = [f"{name} ({left} of {n} runs)" for name, left, n in guaranteed if left]
    out.append(
        Claim(
            paper,
            "C-2 (flat tail)",
            statement,
            "'at some point it eliminates all suboptimal arms': in every setting where DP-SE's schedule guarantees the "
            "last elimination before T on its good event (probability >= 1 - 1/T per run; proof of Sajed & Sheffet "
            "2019, Lemma 4.2: epoch e removes every arm with gap >= 2^-e), every run has eliminated all suboptimal "
            "arms by T (read from its final pull counts), so the mean curve ends flat. Settings where the guarantee "
            "falls after T are excluded, not failed; inconclusive if every setting is excluded. Structural: the "
            "schedule implies it, so it guards the implementation",
            FAILS if bad else (HOLDS if guaranteed else INCONCLUSIVE),
            f"{len(guaranteed)} settings guaranteed to finish, unfinished runs in: {_listed(bad)}; excluded (guarantee "
            f"after T): {_listed(excluded)}",
            {
                "settings guaranteed": len(guaranteed),
                "runs there": sum(n for *_, n in guaranteed),
                "unfinished runs there": sum(left for _, left, _ in guaranteed),
                "settings excluded": len(excluded),
            },
            kind=STRUCTURAL,
        )
    )
    return out


def sajed2019(results: str | Path) -> list[Claim]:
    curves, runs = load_tables(results, "sajed2019", SAJED_FIGS)
    curves = text_variants(curves)
    return c1_claims(curves, "sajed2019") + c2_claims(curves, runs, "sajed2019")
