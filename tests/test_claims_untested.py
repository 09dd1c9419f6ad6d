"""The claims added for sentences a first pass left untested, each driven to every verdict on synthetic tables.

Chen et al. 2024: OD-LinBAI as an upper bound (Section 5) and DP-BAI-Gauss vs DP-BAI (Appendix D); Hu & Hegde:
AdaP-UCB and Anytime-Lazy-UCB "essentially the same" (Section 4); Sajed's thesis: DP-SE least regret of the three
(Chapter 1), C1's "drastic" difference and C2's large gaps kept viable by DP-UCB (Appendix A.2).
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from _tables import Tables

from dpbandits.claims import FAILS, HOLDS, INCONCLUSIVE, PAPERS
from dpbandits.claims._core import EMPIRICAL, load_tables, text_variants
from dpbandits.claims.chen2024 import _rates, gauss_claim, upper_bound_claim
from dpbandits.claims.hu2022 import adap_claim
from dpbandits.claims.sajed2019 import run_settings
from dpbandits.claims.sajed2019thesis import duel_table, untested_claims
from dpbandits.core.checkpoints import default_checkpoints

# ---------------------------------------------------------------------------------------------- chen2024

XS = (0.02, 0.1, 0.9)


def _rows(figure, x_name, alg, rates, variant="", xs=XS):
    """One BAI curve of 1000 trials per point, as the figure rules write it."""
    return [
        {"paper": "chen2024", "figure": figure, "panel": 0, "panel_title": "", "x_name": x_name, "x": x,
         "curve": f"{alg}{variant}", "algorithm": alg, "variant": variant, "epsilon": 0.1,
         "successes": int(r * 1000), "trials": 1000, "rate": r, "lo": r, "hi": r}
        for x, r in zip(xs, rates, strict=True)
    ]  # fmt: skip


def _write(results, figure, curves, x_name):
    base = results / "figures" / "chen2024"
    base.mkdir(parents=True, exist_ok=True)
    rows = [r for (alg, variant), rates in curves.items() for r in _rows(figure, x_name, alg, rates, variant)]
    pd.DataFrame(rows).to_csv(base / f"{figure}.csv", index=False)


def _upper(results, od=(0.96, 0.96, 0.96), dp_bai=(0.6, 0.8, 0.95)):
    """Figure 1 with the private policies below OD-LinBAI (``od``) everywhere."""
    low = (0.1, 0.2, 0.3)
    curves = {("dp_bai", ""): dp_bai, ("baseline_bai", ""): low, ("dp_od", ""): low, ("od_linbai", ""): od}
    _write(results, "fig1", curves, "budget")
    return upper_bound_claim(_rates(results, "fig1"))


@pytest.mark.parametrize(
    "changes, verdict",
    [
        ({}, HOLDS),
        ({"od": (0.5, 0.5, 0.5)}, FAILS),  # DP-BAI 0.3 above the "upper bound"
        ({"od": (0.9, 0.9, 0.9)}, INCONCLUSIVE),  # DP-BAI 0.05 above: the margin itself
        ({"dp_bai": (0.6, 0.8, 0.98)}, HOLDS),  # 0.02 above at one point: within the margin
    ],
)
def test_od_linbai_upper_bound(tmp_path, changes, verdict):
    claim = _upper(tmp_path, **changes)
    assert claim.verdict == verdict and claim.kind == EMPIRICAL
    assert "serves as an upper bound in performance" in claim.statement


GAUSS = {"": (0.2, 0.6, 0.85), "delta=1e-3": (0.25, 0.65, 0.88), "delta=0.1": (0.3, 0.7, 0.9)}


def _gauss(results, large=(0.4, 0.75, 0.97), dp_bai=(0.5, 0.8, 0.9), **variants):
    """DP-BAI-Gauss below DP-BAI at the smallest ε for every δ, above it at the largest ε for δ = 0.5 (``large``)."""
    curves = {("dp_bai", ""): dp_bai, ("dp_bai_gauss", "delta=0.5"): large}
    curves |= {("dp_bai_gauss", v): r for v, r in (GAUSS | variants).items()}
    _write(results, "gauss", curves, "epsilon")
    return gauss_claim(results)


@pytest.mark.parametrize(
    "changes, verdict",
    [
        ({}, HOLDS),
        ({"large": (0.4, 0.75, 0.8)}, FAILS),  # DP-BAI better at the largest ε and δ
        ({"large": (0.6, 0.75, 0.97)}, FAILS),  # Gauss (δ = 0.5) better at the smallest ε
        ({"large": (0.4, 0.75, 0.905)}, INCONCLUSIVE),  # level at the largest ε
        ({"delta=0.1": (0.49, 0.7, 0.9)}, INCONCLUSIVE),  # level at the smallest ε
    ],
)
def test_gauss_against_dp_bai(tmp_path, changes, verdict):
    claim = _gauss(tmp_path, **changes)
    assert claim.verdict == verdict and claim.kind == EMPIRICAL


def test_gauss_without_its_figure_is_inconclusive(tmp_path):
    claim = gauss_claim(tmp_path)
    assert claim.verdict == INCONCLUSIVE and "gauss.csv" in claim.evidence


# ---------------------------------------------------------------------------------------------- hu2022


def _adap(results, factor=1.0, sem=None, runs=20):
    """AdaP-UCB at ``factor`` times Anytime-Lazy-UCB's regret 3000 sqrt(t/T) in both settings and every ε."""
    t = default_checkpoints(1_000_000)
    tab = Tables("hu2022")
    for panel, inst in enumerate(("hu_setting1", "hu_setting2")):
        for eps in (0.25, 0.5, 1.0):
            alucb = 3000 * np.sqrt(t / t[-1])
            tab.add("adap", "anytime_lazy_ucb", eps, t, alucb, panel=panel, instance=inst, runs=runs)
            tab.add("adap", "adap_ucb", eps, t, factor * alucb, panel=panel, instance=inst, runs=runs, sem=sem)
    tab.write(results)
    return adap_claim(results)


@pytest.mark.parametrize(
    "changes, verdict",
    [
        ({}, HOLDS),
        ({"factor": 0.9}, HOLDS),
        ({"factor": 2.0}, FAILS),
        ({"factor": 0.5}, FAILS),
        ({"factor": 1.2, "sem": 300.0}, INCONCLUSIVE),  # 1.2 with a s.e. of 0.1: across 1.25
    ],
)
def test_adap_ucb_same_as_anytime_lazy_ucb(tmp_path, changes, verdict):
    claim = _adap(tmp_path, **changes)
    assert claim.verdict == verdict and claim.kind == EMPIRICAL and len(claim.numbers) == 6


def test_adap_without_its_figure_is_inconclusive(tmp_path):
    assert adap_claim(tmp_path).verdict == INCONCLUSIVE


# ---------------------------------------------------------------------------------------------- sajed2019thesis

T_TH = 1_000_000
SETTINGS = (("C1", 5, 0.25), ("C1", 5, 1.0), ("C2", 5, 0.5), ("C2", 3, 1.0), ("C3", 5, 0.5))


def _finals(name):
    """DP-SE least; standard DP-SE 2 four times modified DP-SE 2 in C1."""
    return {"dp_se": 1000.0, "dp_se2_modified": 2000.0, "dp_se2": 8000.0 if name == "C1" else 3000.0, "dp_ucb": 6000.0}


def _pulls(k, large_share, runs):
    """Per-run pulls: the best arm most, the arms of gap >= half the largest (the last ones in C2's order) share
    ``large_share`` * 1e4 (± 2% over the runs), the others 1000 each."""
    n_large = {5: 3, 3: 2}[k]  # C2's gaps: K = 5: 0.125, 0.25, 0.375, 0.5; K = 3: 0.25, 0.5
    out = []
    for i in range(runs):
        large = int(large_share * 1e4 * (1 + 0.02 * (i - runs // 2)) / n_large)
        rest = [1000] * (k - 1 - n_large) + [large] * n_large
        out.append(" ".join(map(str, [T_TH - sum(rest)] + rest)))
    return out


def _thesis(results, finals=None, shares=None, runs=6):
    """Appendix figure A.1 with one panel per setting; ``finals``/``shares`` map (name, K, ε) to changes."""
    t = default_checkpoints(T_TH, 40)
    tab = Tables("sajed2019thesis")
    for panel, (name, k, eps) in enumerate(SETTINGS):
        fin = _finals(name) | (finals or {}).get((name, k, eps), {})
        share = {"dp_se2": 1.0, "dp_ucb": 3.0} | (shares or {}).get((name, k, eps), {})
        for alg, final in fin.items():
            tab.add("figA_1", alg, eps, t, final * np.sqrt(t / T_TH), panel=panel, instance=f"{name}, K={k}",
                    runs=runs, pulls=_pulls(k, share.get(alg, 1.0), runs))  # fmt: skip
    tab.write(results)
    curves, run_rows = load_tables(results, "sajed2019thesis", ("figA_1",))
    curves = text_variants(curves)
    return {c.claim_id: c for c in untested_claims(duel_table(curves), run_settings(curves, run_rows))}


@pytest.mark.parametrize(
    "claim, verdict, changes",
    [
        ("C-0 (DP-SE least)", HOLDS, {}),
        ("C-0 (DP-SE least)", FAILS, {"finals": {("C2", 5, 0.5): {"dp_se": 9000.0}}}),  # DP-SE 2 and DP-UCB below
        ("C-0 (DP-SE least)", FAILS, {"finals": {("C3", 5, 0.5): {"dp_ucb": 500.0}}}),
        ("C-0 (DP-SE least)", INCONCLUSIVE, {"finals": {("C3", 5, 0.5): {"dp_se": 3000.0}}}),  # level with DP-SE 2
        ("C-3 (C1, drastic)", HOLDS, {}),
        ("C-3 (C1, drastic)", HOLDS, {"finals": {("C1", 5, 0.25): {"dp_se2": 2000.0}}}),  # small ε: excepted
        ("C-3 (C1, drastic)", FAILS, {"finals": {("C1", 5, 1.0): {"dp_se2": 2500.0}}}),  # 1.25 times
        ("C-3 (C1, drastic)", INCONCLUSIVE, {"finals": {("C1", 5, 1.0): {"dp_se2": 4000.0}}}),  # 2: the margin
        ("C-3 (C2, large gaps viable)", HOLDS, {}),
        ("C-3 (C2, large gaps viable)", FAILS, {"shares": {("C2", 3, 1.0): {"dp_se2": 4.0}}}),
        ("C-3 (C2, large gaps viable)", INCONCLUSIVE, {"shares": {("C2", 5, 0.5): {"dp_se2": 3.0}}}),  # level
    ],
)
def test_thesis_untested(tmp_path, claim, verdict, changes):
    c = _thesis(tmp_path, **changes)[claim]
    assert c.verdict == verdict and c.kind == EMPIRICAL


def test_thesis_large_gap_pulls_ignore_c3_and_the_small_gaps(tmp_path):
    """Only C2 settings count, and only its arms of gap >= half the largest: C3's pulls and C2's small-gap arms
    may favour DP-SE 2 without changing the verdict."""
    c = _thesis(tmp_path, shares={("C3", 5, 0.5): {"dp_se2": 9.0}})["C-3 (C2, large gaps viable)"]
    assert c.verdict == HOLDS and set(c.numbers) == {"C2, K=3 ε=1", "C2, K=5 ε=0.5"}


# ---------------------------------------------------------------------------------------------- in the papers' lists


@pytest.mark.parametrize(
    "paper, ids",
    [
        ("chen2024", {"C-OD (upper bound)", "C-D (Gauss)"}),
        ("hu2022", {"3 (AdaP-UCB)"}),
        ("sajed2019thesis", {"C-0 (DP-SE least)", "C-3 (C1, drastic)", "C-3 (C2, large gaps viable)"}),
    ],
)
def test_new_claims_are_in_the_papers_lists(tmp_path, paper, ids):
    """On test_claim_verdicts' base tables plus this file's extra figure, each new claim is listed and holds."""
    from test_claim_verdicts import BASE

    BASE[paper](tmp_path)
    {"chen2024": _gauss, "hu2022": _adap}.get(paper, lambda _: None)(tmp_path)
    got = {c.claim_id: c for c in PAPERS[paper](tmp_path)}
    assert ids <= set(got) and all(got[i].kind == EMPIRICAL and got[i].verdict == HOLDS for i in ids)
