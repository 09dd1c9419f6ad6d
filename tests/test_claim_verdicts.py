"""Each claim driven on small synthetic figure tables to every verdict it can honestly reach.

Every paper has one builder writing tables whose claims all hold; a case changes one thing
(curves, standard errors, runs, pull counts) and checks one claim's verdict.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from _tables import Tables

from dpbandits.claims import FAILS, HOLDS, INCONCLUSIVE, PAPERS
from dpbandits.claims.ledger import paper_claims
from dpbandits.core.checkpoints import default_checkpoints


def claims(paper, results) -> dict:
    return {c.claim_id: c for c in PAPERS[paper](results)}


def cases(*rows):
    """pytest params (claim, verdict, changes) with readable ids."""
    return [pytest.param(c, v, kw, id=f"{c}-{v}-{i}") for i, (c, v, kw) in enumerate(rows)]


# ---------------------------------------------------------------------------------------------- tossou2016

TOSSOU_ALGS = ("ucb", "dp_ucb_int", "dp_ucb_tossou", "dp_ucb_bound", "private_ucb")


def _tossou(results, curves=None, sems=None, spread=None, realised=None, runs=1500):
    """INT = UCB + 50; DP-UCB ahead of BOUND until t = 1e4; Private-UCB worst; spreads 100 and 30,000; 1500 runs
    (enough for an upper bound on the spread of 100 runs)."""
    t = default_checkpoints(100_000, 60)
    c = {"ucb": 10 * np.log(t + 1)}
    c |= {
        "dp_ucb_int": c["ucb"] + 50,
        "dp_ucb_tossou": 200 + 0.02 * t,
        "dp_ucb_bound": 300 + 0.01 * t,
        "private_ucb": 5000 + 0.1 * t,
    }
    c |= {alg: f(t, c) for alg, f in (curves or {}).items()}
    spread = {"private_ucb": 30_000} | (spread or {})
    realised = spread | (realised or {})
    tab = Tables("tossou2016")
    for fig in ("fig2a", "fig2b", "fig2c", "fig2d"):
        for alg in TOSSOU_ALGS:
            m = c[alg]
            tab.add(
                fig,
                alg,
                1.0,
                t,
                m,
                sem=(sems or {}).get(alg),
                runs=runs,
                instance="tossou_2arm",
                finals=m[-1] + np.linspace(0, spread.get(alg, 100), runs),
                realised=m[-1] + np.linspace(0, realised.get(alg, 100), runs),
            )
    tab.write(results)


def _max_other(t, c):
    return np.max([c[a] for a in TOSSOU_ALGS[:-1]], axis=0)


@pytest.mark.parametrize(
    "claim, verdict, changes",
    cases(
        ("C1", HOLDS, {}),
        ("C1", FAILS, {"curves": {"dp_ucb_bound": lambda t, c: c["dp_ucb_int"] - 20}}),
        (
            "C1",
            INCONCLUSIVE,
            {"curves": {"dp_ucb_bound": lambda t, c: c["dp_ucb_int"] + 1}, "sems": {"dp_ucb_bound": 50}},
        ),
        ("C2", HOLDS, {}),
        ("C2", FAILS, {"curves": {"dp_ucb_int": lambda t, c: c["ucb"] + 50 + 0.005 * t}}),
        ("C2", INCONCLUSIVE, {"sems": {"dp_ucb_int": 50}}),
        ("C3", HOLDS, {}),
        (
            "C3",
            HOLDS,
            {"curves": {"dp_ucb_bound": lambda t, c: c["dp_ucb_tossou"] + 100 * (1 - t / t[-1])}},
        ),  # a tie at T
        ("C3", FAILS, {"curves": {"dp_ucb_bound": lambda t, c: c["dp_ucb_tossou"] + 100}}),  # never catches
        ("C3", FAILS, {"curves": {"dp_ucb_bound": lambda t, c: c["dp_ucb_tossou"] - 100}}),  # DP-UCB never ahead
        ("C3", INCONCLUSIVE, {"curves": {"dp_ucb_bound": lambda t, c: c["dp_ucb_tossou"]}}),
        ("C4", HOLDS, {}),
        ("C4", FAILS, {"curves": {"private_ucb": lambda t, c: 5 * np.log(t + 1)}}),
        ("C4", INCONCLUSIVE, {"curves": {"private_ucb": _max_other}, "sems": {"private_ucb": 1e4}}),
        ("C5", HOLDS, {}),
        ("C5", FAILS, {"spread": {"ucb": 1000}}),
        ("C5", FAILS, {"spread": {"ucb": 1000}, "runs": 20}),  # 20 runs already spread beyond 664.5
        ("C5", INCONCLUSIVE, {"runs": 20}),  # 20 runs under 664.5 say nothing about 100
        ("C5", INCONCLUSIVE, {"runs": 100}),  # nor do 100: the next 100 runs' extremes lie beyond theirs
        ("C5", INCONCLUSIVE, {"realised": {"ucb": 1000}}),  # pseudo- and realised regret disagree
        ("C6", HOLDS, {}),
        ("C6", HOLDS, {"runs": 20}),
        ("C6", FAILS, {"spread": {"private_ucb": 1000}}),
        ("C6", INCONCLUSIVE, {"spread": {"private_ucb": 1000}, "runs": 20}),
    ),
)
def test_tossou2016(tmp_path, claim, verdict, changes):
    _tossou(tmp_path, **changes)
    assert claims("tossou2016", tmp_path)[claim].verdict == verdict


# ---------------------------------------------------------------------------------------------- sajed2019

T_S = 1_000_000
GUARANTEED, EXCLUDED = ("C2, K=3", 0.5), ("C1, K=5", 1.0)  # DP-SE's schedule finishes before T_S / need not


def _pulls(k: int, done: bool = True) -> str:
    """Final pulls of a DP-SE run over K arms: finished (the best arm pulled alone at the end) or not."""
    return " ".join(map(str, [T_S - 50_000 * (k - 1)] + [50_000] * (k - 1) if done else [T_S // k] * k))


def _piecewise(t):
    return 0.25 * np.minimum(t, 20_000) + 0.05 * np.clip(t - 20_000, 0, 80_000)


def _sajed_panels(
    tab, figure, dp_se=None, dp_ucb=None, sem=None, step_noise=None, runs=4, pulls=None, sets=(GUARANTEED, EXCLUDED)
):
    """DP-SE piece-wise linear and flat from 1e5, DP-UCB = 300 sqrt(t), every DP-SE run finished, 4 runs each.

    ``step_noise``: each curve's s.e. of each increment as a fraction of the increment (default: the builder's).
    """
    t = default_checkpoints(T_S)
    se = _piecewise(t) if dp_se is None else dp_se(t)
    ucb = 300 * np.sqrt(t) if dp_ucb is None else dp_ucb(t, se)

    def step(m):
        return None if step_noise is None else step_noise * np.abs(np.diff(m, prepend=0.0))

    for panel, (inst, eps) in enumerate(sets):
        k = int(inst.partition("K=")[2])
        tab.add(
            figure,
            "dp_se",
            eps,
            t,
            se,
            panel=panel,
            instance=inst,
            sem_step=step(se),
            runs=runs,
            pulls=(pulls or {}).get(inst, _pulls(k)),
        )
        tab.add(figure, "dp_ucb", eps, t, ucb, panel=panel, instance=inst, sem=sem, sem_step=step(ucb), runs=runs)


def _sajed(results, **changes):
    """:func:`_sajed_panels` as the paper's Figures 1-12."""
    tab = Tables("sajed2019")
    _sajed_panels(tab, "fig01", **changes)
    tab.write(results, {f"fig{i:02d}": "fig01" for i in range(2, 13)})


def _noisy_kink(t, se):
    return 2 * se + np.random.default_rng(1).normal(0, 3, t.size)


def _every_third(t, *_):
    """Slope 1, down by 3% at every third checkpoint: changes at a third of them, none dominating ('neither')."""
    slope = 0.97 ** (np.arange(t.size) // 3)
    return np.cumsum(slope * np.diff(t, prepend=0))


@pytest.mark.parametrize(
    "claim, verdict, changes",
    cases(
        *[
            (f"C-1 ({r})", v, kw)
            for r in ("final", "T/10", "area")
            for v, kw in (
                (HOLDS, {}),
                (FAILS, {"dp_ucb": lambda t, se: 2 * se}),
                (INCONCLUSIVE, {"dp_ucb": lambda t, se: 5 * se}),
            )
        ],
        ("C-1 (better)", HOLDS, {}),
        ("C-1 (better)", FAILS, {"dp_ucb": lambda t, se: 0.5 * se}),
        ("C-1 (better)", INCONCLUSIVE, {"dp_ucb": lambda t, se: se}),
        ("C-1 (better)", HOLDS, {"dp_ucb": lambda t, se: 1.016 * se, "runs": 100}),  # 2.2 s.e. apart, beyond t(198)
        ("C-1 (better)", INCONCLUSIVE, {"dp_ucb": lambda t, se: 1.016 * se}),  # the same, within t(6) = 2.5 s.e.
        ("C-2 (DP-SE piecewise linear)", HOLDS, {}),
        ("C-2 (DP-SE piecewise linear)", FAILS, {"dp_se": lambda t: 300 * np.sqrt(t)}),
        ("C-2 (DP-SE piecewise linear)", INCONCLUSIVE, {"dp_se": lambda t: 0.25 * t}),  # straight: no epoch end in view
        ("C-2 (DP-SE piecewise linear)", INCONCLUSIVE, {"dp_se": _every_third, "step_noise": 0.0}),  # neither
        ("C-2 (DP-UCB smooth)", HOLDS, {}),
        ("C-2 (DP-UCB smooth)", FAILS, {"dp_ucb": lambda t, se: 2 * se}),
        ("C-2 (DP-UCB smooth)", FAILS, {"dp_ucb": _noisy_kink}),  # slope changes everywhere, but one kink dominates
        ("C-2 (DP-UCB smooth)", INCONCLUSIVE, {"dp_ucb": lambda t, se: 0.5 * t}),
        ("C-2 (DP-UCB smooth)", INCONCLUSIVE, {"dp_ucb": _every_third, "step_noise": 0.0}),  # neither
        ("C-2 (DP-UCB smooth)", INCONCLUSIVE, {"step_noise": 0.05}),  # uncertain: the runs' noise hides the changes
        ("C-2 (DP-UCB smooth)", HOLDS, {"step_noise": 0.0005}),  # 100 times less noise: every change resolved
        ("C-2 (flat tail)", HOLDS, {}),
        ("C-2 (flat tail)", HOLDS, {"pulls": {EXCLUDED[0]: _pulls(5, done=False)}}),  # excluded, not failed
        ("C-2 (flat tail)", FAILS, {"pulls": {GUARANTEED[0]: [_pulls(3)] * 3 + [_pulls(3, done=False)]}}),
        ("C-2 (flat tail)", INCONCLUSIVE, {"sets": (EXCLUDED,)}),
    ),
)
def test_sajed2019(tmp_path, claim, verdict, changes):
    _sajed(tmp_path, **changes)
    assert claims("sajed2019", tmp_path)[claim].verdict == verdict


@pytest.mark.parametrize(
    "changes, shape", [({"dp_ucb": _every_third, "step_noise": 0.0}, "neither"), ({"step_noise": 0.05}, "uncertain")]
)
def test_sajed2019_shape_paths(tmp_path, changes, shape):
    """The inconclusive C-2 cases above are reached through the shape they name."""
    from dpbandits.claims.sajed2019 import shapes

    _sajed(tmp_path, **changes)
    assert (shapes(tmp_path).query("algorithm == 'dp_ucb'")["shape"] == shape).all()
    assert f"{shape}: C1, K=5" in claims("sajed2019", tmp_path)["C-2 (DP-UCB smooth)"].evidence


def test_sajed2019_noisy_kink_has_many_slope_changes(tmp_path):
    """The kinked DP-UCB above changes slope at most checkpoints: counting changes alone would call it smooth."""
    from dpbandits.claims.sajed2019 import shapes

    _sajed(tmp_path, dp_ucb=_noisy_kink)
    ucb = shapes(tmp_path).query("algorithm == 'dp_ucb'")
    assert (ucb["fraction"] >= 0.5).all() and (ucb["shape"] == "kinked").all()


def test_sajed2019_kinds(tmp_path):
    _sajed(tmp_path)
    kinds = {k: c.kind for k, c in claims("sajed2019", tmp_path).items()}
    assert kinds.pop("C-2 (flat tail)") == "structural" and set(kinds.values()) == {"empirical"}


# ---------------------------------------------------------------------------------------------- thesis

T_TH = 1_000_000
THESIS_SETTINGS = (("C1", 5, 0.25), ("C1", 5, 1.0), ("C2", 5, 0.5), ("C3", 5, 0.5), ("C4", 5, 1.0))


def _thesis_finals(name, k, eps):
    """Final regrets where every C-3 claim holds: DP-UCB wins only in C1 and C4 with ε > 0.25 and K < 20."""
    std = 8000.0 if name == "C1" else 3000.0
    hard = name in ("C1", "C4") and eps > 0.25 and k < 20
    return {"dp_se": 1000.0, "dp_se2_modified": 2000.0, "dp_se2": std, "dp_ucb": std * (0.8 if hard else 3)}


def _eliminations(name, k, eps):
    """Mean elimination times: modified 2e4; standard 5x that in C1, 1.5x in C2, 2x elsewhere (None: never)."""
    return {"dp_se2_modified": 20_000, "dp_se2": {"C1": 100_000, "C2": 30_000}.get(name, 40_000)}


def _run_pulls(tau, k, runs):
    """Per-run pulls of a round-robin eliminator whose runs finish near ``tau`` (± 2%), or never (None)."""
    if tau is None:
        return [" ".join([str(T_TH // k)] * k)] * runs
    out = []
    for i in range(runs):
        rest = int(tau * (1 + 0.02 * (i - runs // 2)) / k)
        out.append(" ".join(map(str, [T_TH - rest * (k - 1)] + [rest] * (k - 1))))
    return out


def _thesis(results, finals=None, times=None, runs=6):
    """Thesis figures: Chapter 6 from :func:`_sajed_panels`, Appendix A.2 from the two functions above.

    ``finals`` and ``times`` map a setting (name, K, ε) to changes of those functions' values.
    """
    t = default_checkpoints(T_TH, 40)
    tab = Tables("sajed2019thesis")
    _sajed_panels(tab, "fig6_1")
    for panel, (name, k, eps) in enumerate(THESIS_SETTINGS):
        fin = _thesis_finals(name, k, eps) | (finals or (lambda *_: {}))(name, k, eps)
        tau = _eliminations(name, k, eps) | (times or (lambda *_: {}))(name, k, eps)
        for alg, final in fin.items():
            curve = final * (np.minimum(t, 100_000) / 100_000 if alg != "dp_ucb" else np.sqrt(t / T_TH))
            tab.add(
                "figA_1",
                alg,
                eps,
                t,
                curve,
                panel=panel,
                instance=f"{name}, K={k}",
                runs=runs,
                pulls=_run_pulls(tau.get(alg, 50_000), k, runs),
            )
    tab.write(results, {**{f"figA_{i}": "figA_1" for i in range(2, 9)}, **{f"fig6_{i}": "fig6_1" for i in range(2, 9)}})


def _where(names, small_eps=None, **values):
    """Changes applying ``values`` in the settings whose instance is in ``names`` (and whose ε <= 0.25 or not)."""
    return lambda name, k, eps: values if name in names and small_eps in (None, eps <= 0.25) else {}


@pytest.mark.parametrize(
    "claim, verdict, changes",
    cases(
        ("C-3 (DP-SE vs DP-SE 2)", HOLDS, {}),
        ("C-3 (DP-SE vs DP-SE 2)", FAILS, {"finals": _where({"C2"}, dp_se=9000.0)}),
        ("C-3 (DP-SE vs DP-SE 2)", INCONCLUSIVE, {"finals": _where({"C2"}, dp_se=3000.0)}),
        ("C-3 (modified vs DP-UCB)", HOLDS, {}),
        ("C-3 (modified vs DP-UCB)", FAILS, {"finals": _where({"C3"}, dp_se2_modified=1e5)}),
        ("C-3 (modified vs DP-UCB)", INCONCLUSIVE, {"finals": _where({"C3"}, dp_se2_modified=9000.0)}),
        ("C-3 (C2, C3: DP-SE 2 vs DP-UCB)", HOLDS, {}),
        ("C-3 (C2, C3: DP-SE 2 vs DP-UCB)", FAILS, {"finals": _where({"C2"}, dp_ucb=1500.0)}),
        ("C-3 (C2, C3: DP-SE 2 vs DP-UCB)", INCONCLUSIVE, {"finals": _where({"C2", "C3"}, dp_ucb=3000.0)}),
        ("C-3 (DP-SE vs modified, most)", HOLDS, {}),
        ("C-3 (DP-SE vs modified, most)", FAILS, {"finals": lambda *_: {"dp_se": 2500.0}}),
        ("C-3 (DP-SE vs modified, most)", INCONCLUSIVE, {"finals": lambda *_: {"dp_se": 2000.0}}),
        ("C-3 (C1 split)", HOLDS, {}),
        ("C-3 (C1 split)", FAILS, {"finals": _where({"C1"}, True, dp_ucb=4000.0)}),
        ("C-3 (C1 split)", INCONCLUSIVE, {"finals": _where({"C1"}, False, dp_ucb=8000.0)}),
        ("C-3 (C4, large ε)", HOLDS, {}),
        ("C-3 (C4, large ε)", FAILS, {"finals": _where({"C4"}, dp_ucb=9000.0)}),
        ("C-3 (C4, large ε)", INCONCLUSIVE, {"finals": _where({"C4"}, dp_ucb=3000.0)}),
        ("C-3 (C2, not long after)", HOLDS, {}),
        ("C-3 (C2, not long after)", FAILS, {"times": _where({"C2"}, dp_se2=80_000)}),
        (
            "C-3 (C2, not long after)",
            INCONCLUSIVE,
            {"times": _where({"C2"}, dp_se2=40_000)},
        ),  # ratio 2: the margin itself
        ("C-3 (C2, not long after)", INCONCLUSIVE, {"times": _where({"C2"}, dp_se2_modified=None)}),
        ("C-3 (C1, modified faster)", HOLDS, {}),
        ("C-3 (C1, modified faster)", HOLDS, {"times": _where({"C1"}, True, dp_se2=20_000)}),
        ("C-3 (C1, modified faster)", FAILS, {"times": _where({"C1"}, dp_se2=320_000)}),  # 16 times faster
        ("C-3 (C1, modified faster)", FAILS, {"times": _where({"C1"}, dp_se2=24_000)}),  # 1.2 times
        ("C-3 (C1, modified faster)", INCONCLUSIVE, {"times": _where({"C1"}, dp_se2=200_000)}),  # 10: the band's edge
        ("C-3 (C1, modified faster)", INCONCLUSIVE, {"times": _where({"C1"}, dp_se2=None, dp_se2_modified=200_000)}),
    ),
)
def test_sajed2019thesis(tmp_path, claim, verdict, changes):
    _thesis(tmp_path, **changes)
    assert claims("sajed2019thesis", tmp_path)[claim].verdict == verdict


# ---------------------------------------------------------------------------------------------- hu2022

HEURISTIC = {
    ("fig1", 0.25): 4863.0,
    ("fig1", 0.5): 3327.0,
    ("fig1", 1.0): 2431.0,
    ("fig2", 0.25): 6553.0,
    ("fig2", 0.5): 6553.0,
    ("fig2", 1.0): 6553.0,
}


def _hu(results, horizon=1_000_000, lazy=None, sems=None, dp_se_fig1=3953.0, heuristic_factor=1.0):
    """DP-SE at its exact anchors, Anytime-Lazy-UCB at its heuristic, Lazy-DP-TS 100 and AdaP-KLUCB 110 sqrt(t/T)."""
    t = default_checkpoints(horizon)
    root = np.sqrt(t / horizon)
    tab = Tables("hu2022")
    for fig, inst in (("fig1", "hu_setting1"), ("fig2", "hu_setting2")):
        for panel, eps in enumerate((0.25, 0.5, 1.0)):
            flat, final = (11_000, dp_se_fig1 if eps < 1 else 3900.0) if fig == "fig1" else (59_580, 4766.4)
            c = {
                "dp_se": final * np.minimum(t, flat) / flat,
                "adap_klucb": 110 * root,
                "anytime_lazy_ucb": heuristic_factor * HEURISTIC[(fig, eps)] * root,
            }
            c["lazy_dp_ts"] = 100 * root if lazy is None else lazy(t, c)
            for alg, m in c.items():
                tab.add(fig, alg, eps, t, m, panel=panel, instance=inst, sem=(sems or {}).get(alg))
    tab.write(results)


def _tie(t, c):
    """Lazy-DP-TS level with the better of DP-SE and Anytime-Lazy-UCB at every t."""
    return np.minimum(c["dp_se"], c["anytime_lazy_ucb"])


@pytest.mark.parametrize(
    "claim, verdict, changes",
    cases(
        ("1", HOLDS, {}),
        ("1", FAILS, {"lazy": lambda t, c: 3 * c["adap_klucb"]}),
        ("1", INCONCLUSIVE, {"lazy": lambda t, c: 1.15 * c["adap_klucb"], "sems": {"lazy_dp_ts": 10.0}}),
        ("2 (final)", HOLDS, {}),
        ("2 (final)", FAILS, {"lazy": lambda t, c: c["dp_se"] + 100}),
        ("2 (final)", INCONCLUSIVE, {"lazy": _tie, "sems": {"lazy_dp_ts": 100.0}}),
        ("2 (all t)", HOLDS, {}),
        ("2 (all t)", FAILS, {"lazy": lambda t, c: np.minimum(c["dp_se"] + 100, 1000)}),  # behind early, ahead at T
        ("2 (all t)", INCONCLUSIVE, {"lazy": _tie, "sems": {"lazy_dp_ts": 100.0}}),
        ("S-1 (DP-SE exact)", HOLDS, {}),
        ("S-1 (DP-SE exact)", FAILS, {"dp_se_fig1": 4100.0}),
        ("S-1 (DP-SE exact)", INCONCLUSIVE, {"horizon": 3000}),
        ("S-2 (Anytime-Lazy-UCB heuristic)", HOLDS, {}),
        ("S-2 (Anytime-Lazy-UCB heuristic)", FAILS, {"heuristic_factor": 3.0}),
        ("S-2 (Anytime-Lazy-UCB heuristic)", INCONCLUSIVE, {"heuristic_factor": 2.0}),
        ("S-2 (Anytime-Lazy-UCB heuristic)", INCONCLUSIVE, {"horizon": 3000}),
    ),
)
def test_hu2022(tmp_path, claim, verdict, changes):
    _hu(tmp_path, **changes)
    assert claims("hu2022", tmp_path)[claim].verdict == verdict


# ---------------------------------------------------------------------------------------------- chen2024

UP, LOW, HIGH = [0.6, 0.8, 0.95], [0.1, 0.2, 0.3], [0.7, 0.9, 0.99]


def _rate_rows(figure, panel, x_name, alg, rates, variant=""):
    return [
        {
            "paper": "chen2024",
            "figure": figure,
            "panel": panel,
            "panel_title": "",
            "x_name": x_name,
            "x": x,
            "curve": f"{alg}{variant}",
            "algorithm": alg,
            "variant": variant,
            "epsilon": 0.1,
            "successes": int(r * 1000),
            "trials": 1000,
            "rate": r,
            "lo": r,
            "hi": r,
        }
        for x, r in zip((1, 10, 100), rates, strict=True)
    ]


def _chen(results, fig1=None, fig2=None, sens=None):
    """Figure 1: DP-BAI above Baseline and DP-OD, reaching OD-LinBAI (0.96) as ε grows; Figure 2: DP-OD drops."""
    base = results / "figures" / "chen2024"
    base.mkdir(parents=True)
    curves = {"dp_bai": UP, "baseline_bai": LOW, "dp_od": LOW, "od_linbai": [0.96] * 3} | (fig1 or {})
    rows = [
        r
        for panel, x_name in ((0, "budget"), (1, "epsilon"))
        for alg, rates in curves.items()
        for r in _rate_rows("fig1", panel, x_name, alg, rates)
    ]
    pd.DataFrame(rows).to_csv(base / "fig1.csv", index=False)
    curves = {"dp_bai": [0.9] * 3, "dp_od": [0.9, 0.7, 0.4]} | (fig2 or {})
    rows = [
        r for panel in range(2) for alg, rates in curves.items() for r in _rate_rows("fig2", panel, "ratio", alg, rates)
    ]
    pd.DataFrame(rows).to_csv(base / "fig2.csv", index=False)
    curves = {"dp_bai": UP, "baseline_bai": LOW, "dp_od": LOW} | (sens or {})
    rows = [
        r
        for variant in ("", "one_shot", "halving")
        for r in _rate_rows("sensitivity", 0, "budget", "dp_bai", curves["dp_bai"], variant)
    ]
    rows += [r for alg in ("baseline_bai", "dp_od") for r in _rate_rows("sensitivity", 0, "budget", alg, curves[alg])]
    pd.DataFrame(rows).to_csv(base / "sensitivity.csv", index=False)


@pytest.mark.parametrize(
    "claim, verdict, changes",
    cases(
        ("C1", HOLDS, {}),
        ("C1", HOLDS, {"fig1": {"baseline_bai": [0.1, 0.2, 0.95]}}),  # level at one end of the grid: most points won
        ("C1", FAILS, {"fig1": {"baseline_bai": HIGH}}),
        ("C1", FAILS, {"fig1": {"dp_od": [0.6, 0.8, 0.3]}}),  # ahead at one point only: level (no margin) at most
        ("C1", INCONCLUSIVE, {"fig1": {"baseline_bai": [0.1, 0.75, 0.95]}}),  # one won, one at the margin, one level
        ("C2", HOLDS, {}),
        ("C2", FAILS, {"fig1": {"dp_bai": [0.6, 0.65, 0.7]}}),  # still 0.26 apart at the largest ε
        ("C2", FAILS, {"fig1": {"dp_bai": [0.95, 0.9, 0.85]}}),  # falls away from OD-LinBAI
        ("C2", INCONCLUSIVE, {"fig1": {"dp_bai": [0.95] * 3}}),  # already similar at the smallest ε: no trend to see
        ("C2", INCONCLUSIVE, {"fig1": {"dp_bai": [0.6, 0.8, 0.91]}}),  # 0.05 apart: the margin itself
        ("C3", HOLDS, {}),
        ("C3", FAILS, {"fig1": {"dp_bai": [0.8, 0.5, 0.95]}}),
        ("Fig2", HOLDS, {}),
        ("Fig2", FAILS, {"fig2": {"dp_bai": [0.9, 0.6, 0.3]}}),
        ("Fig2", FAILS, {"fig2": {"dp_od": [0.9] * 3}}),
        ("Fig2", INCONCLUSIVE, {"fig2": {"dp_od": [0.9, 0.87, 0.85]}}),
        ("C1-sensitivity", HOLDS, {}),
        ("C1-sensitivity", FAILS, {"sens": {"baseline_bai": HIGH}}),
        ("C1-sensitivity", HOLDS, {"sens": {"dp_od": [0.1, 0.2, 0.95]}}),
        ("C1-sensitivity", FAILS, {"sens": {"dp_od": [0.6, 0.8, 0.3]}}),
        ("C1-sensitivity", INCONCLUSIVE, {"sens": {"dp_od": [0.1, 0.75, 0.95]}}),
    ),
)
def test_chen2024(tmp_path, claim, verdict, changes):
    _chen(tmp_path, **changes)
    assert claims("chen2024", tmp_path)[claim].verdict == verdict


# ---------------------------------------------------------------------------------------------- theory bounds


def _bounded(results, excess_se=0.0, runs=100):
    """One curve (sem 10) whose mean ends ``excess_se`` standard errors above its bound (100 below it before)."""
    t = default_checkpoints(10_000, 20)
    bound = 1000 * np.sqrt(t / t[-1]) + 100
    mean = bound - 100
    mean[-1] = bound[-1] + 10 * excess_se
    tab = Tables("crosspaper")
    tab.add("fig1", "dp_ucb_int", 1.0, t, mean, sem=10.0, bound=bound, runs=runs)
    tab.write(results)


@pytest.mark.parametrize(
    "excess_se, runs, verdict",
    [
        (-10.0, 100, HOLDS),
        (10.0, 100, FAILS),
        (2.5, 100, INCONCLUSIVE),  # beyond t(99) = 2.03 s.e., not beyond Holm's 0.0228 / 20 checkpoints
        (4.0, 100, FAILS),  # p = 6e-5 < 0.0228 / 20
        (2.5, 4, INCONCLUSIVE),  # within t(3) = 3.31 s.e.: 4 runs cannot show it above, nor below
        (10.0, 4, FAILS),
    ],
)
def test_theory_bound(tmp_path, excess_se, runs, verdict):
    from dpbandits.claims.bound_check import theory

    _bounded(tmp_path, excess_se, runs)
    (claim,) = theory(tmp_path, "crosspaper")
    assert claim.verdict == verdict and claim.kind == "theory"
    assert ("violations" in claim.numbers) == (verdict == FAILS)


# ---------------------------------------------------------------------------------------------- all papers


def _hu_all(results):
    """Figures 1-2 and the AdaP-UCB figure (tests/test_claims_untested.py)."""
    from test_claims_untested import _adap

    _hu(results)
    _adap(results)


def _chen_all(results):
    """Figures 1-2, the sensitivity figure and the DP-BAI-Gauss figure (tests/test_claims_untested.py)."""
    from test_claims_untested import _gauss

    _chen(results)
    _gauss(results)


BASE = {
    "tossou2016": _tossou,
    "sajed2019": _sajed,
    "sajed2019thesis": _thesis,
    "hu2022": _hu_all,
    "chen2024": _chen_all,
}


@pytest.mark.parametrize("paper", BASE)
def test_base_tables_hold_everywhere(tmp_path, paper):
    """On each builder's base tables every claim holds, and the ledger rows carry the claim's kind."""
    BASE[paper](tmp_path)
    df = paper_claims(tmp_path, paper)
    assert set(df["verdict"]) == {HOLDS} and df["kind"].isin(["empirical", "structural", "check", "theory"]).all()


@pytest.mark.parametrize(
    "paper, checks", [("hu2022", {"S-2 (Anytime-Lazy-UCB heuristic)"}), ("chen2024", {"C3", "C1-sensitivity"})]
)
def test_check_rows_are_not_empirical(tmp_path, paper, checks):
    """Rows that are the project's checks, not sentences of the paper, carry kind 'check' (out of the diagnostic)."""
    BASE[paper](tmp_path)
    kinds = {k: c.kind for k, c in claims(paper, tmp_path).items()}
    assert {k for k, v in kinds.items() if v == "check"} == checks
