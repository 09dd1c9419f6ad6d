"""Claim functions on synthetic figure tables whose verdicts are known by construction."""

from __future__ import annotations

import numpy as np
import pandas as pd

from dpbandits.checkpoints import default_checkpoints
from dpbandits.claims import FAILS, HOLDS, INCONCLUSIVE, PAPERS, ledger
from dpbandits.claims._core import flat_from, slope_changes


class Tables:
    """Collects curves of one paper and writes ``figures/<paper>/<figure>.csv`` and ``_runs.csv``."""

    def __init__(self, paper: str):
        self.paper, self.curves, self.runs = paper, [], []

    def add(self, figure, algorithm, epsilon, t, mean, *, panel=0, instance="C2, K=3", variant="",
            rel_sem=0.005, finals=None):
        t, mean = np.asarray(t), np.asarray(mean, dtype=float)
        curve = f"{algorithm}{variant} (ε={epsilon})"
        self.curves.append(pd.DataFrame({
            "paper": self.paper, "figure": figure, "panel": panel, "panel_title": f"panel {panel}",
            "instance": instance, "curve": curve, "algorithm": algorithm, "variant": variant, "epsilon": epsilon,
            "t": t, "mean": mean, "sem": rel_sem * mean, "std": rel_sem * mean, "min": mean, "max": mean,
            "runs": 4,
        }))
        for run, final in enumerate(mean[-1:] * np.ones(4) if finals is None else finals):
            self.runs.append({"figure": figure, "panel": panel, "curve": curve, "algorithm": algorithm,
                              "variant": variant, "epsilon": epsilon, "run": run, "horizon": int(t[-1]),
                              "final_regret": final, "final_realised_regret": final, "pulls": "1 2"})

    def write(self, results, copies=None) -> None:
        """Write every figure; ``copies`` {new figure: source figure} duplicates figures under other names."""
        base = results / "figures" / self.paper
        base.mkdir(parents=True, exist_ok=True)
        curves, runs = pd.concat(self.curves, ignore_index=True), pd.DataFrame(self.runs)
        for new, src in (copies or {}).items():
            curves = pd.concat([curves, curves[curves["figure"] == src].assign(figure=new)], ignore_index=True)
            runs = pd.concat([runs, runs[runs["figure"] == src].assign(figure=new)], ignore_index=True)
        for fig, df in curves.groupby("figure"):
            df.to_csv(base / f"{fig}.csv", index=False)
            runs[runs["figure"] == fig].to_csv(base / f"{fig}_runs.csv", index=False)


def verdicts(paper, results) -> dict[str, str]:
    return {c.claim_id: c.verdict for c in PAPERS[paper](results)}


# ---------------------------------------------------------------------------------------------- helpers


def test_slope_changes_and_flat_from():
    t = default_checkpoints(100_000)
    kinked = pd.DataFrame({"mean": 0.2 * np.minimum(t, 30_000) + 0.05 * np.clip(t - 30_000, 0, 30_000)}, index=t)
    n, of, share = slope_changes(kinked, granularity=0.5, t_min=1000)
    assert 1 <= n <= 2 and of > 50 and share >= 0.5
    assert flat_from(kinked) == t[np.searchsorted(t, 60_000)]
    smooth = pd.DataFrame({"mean": 300 * np.sqrt(t)}, index=t)
    n, of, share = slope_changes(smooth, granularity=0.5, t_min=1000)
    assert n >= 0.8 * of and share < 0.1
    assert flat_from(smooth) is None
    line = pd.DataFrame({"mean": 0.1 * t}, index=t)
    assert slope_changes(line, granularity=0.5)[0] == 0


# ---------------------------------------------------------------------------------------------- tossou2016


def _tossou(results, good: bool):
    tab = Tables("tossou2016")
    t = default_checkpoints(100_000, 60)
    lt = np.log(t + 1)
    shape = {"ucb": 10 * lt, "dp_ucb_int": 10 * lt + 50, "dp_ucb_tossou": 200 + 0.02 * t,
             "dp_ucb_bound": 300 + 0.01 * t, "private_ucb": 5000 + 0.1 * t}
    if not good:
        shape["private_ucb"] = 5 * lt
    for fig in ("fig2a", "fig2b", "fig2c", "fig2d"):
        for alg, m in shape.items():
            spread = 30_000 if alg == "private_ucb" and good else 100
            tab.add(fig, alg, 1.0, t, m, finals=m[-1] + np.array([0, spread / 2, spread]))
    tab.write(results)


def test_tossou2016_holds(tmp_path):
    _tossou(tmp_path, good=True)
    assert verdicts("tossou2016", tmp_path) == {"C1": HOLDS, "C2": HOLDS, "C3": HOLDS, "C4": HOLDS,
                                                  "C5": HOLDS, "C6": HOLDS}


def test_tossou2016_fails(tmp_path):
    _tossou(tmp_path, good=False)
    v = verdicts("tossou2016", tmp_path)
    assert v["C1"] == FAILS and v["C4"] == FAILS and v["C6"] == FAILS and v["C2"] == HOLDS


# ---------------------------------------------------------------------------------------------- chen2024


def _rate_rows(figure, panel, x_name, xs, alg, rates, variant="", eps=0.1):
    return [{"paper": "chen2024", "figure": figure, "panel": panel, "panel_title": "", "x_name": x_name, "x": x,
             "curve": f"{alg}{variant}", "algorithm": alg, "variant": variant, "epsilon": eps,
             "successes": int(r * 1000), "trials": 1000, "rate": r, "lo": r, "hi": r}
            for x, r in zip(xs, rates, strict=True)]


def _chen(results, good: bool):
    base = results / "figures" / "chen2024"
    base.mkdir(parents=True)
    xs = [1, 2, 3]
    up = [0.6, 0.8, 0.95]
    low = [0.1, 0.2, 0.3]
    rows = []
    for panel, x_name in ((0, "budget"), (1, "epsilon")):
        rows += _rate_rows("fig1", panel, x_name, xs, "dp_bai", up if good else low)
        rows += _rate_rows("fig1", panel, x_name, xs, "baseline_bai", low if good else up)
        rows += _rate_rows("fig1", panel, x_name, xs, "dp_od", low)
        rows += _rate_rows("fig1", panel, x_name, xs, "od_linbai", up)
    pd.DataFrame(rows).to_csv(base / "fig1.csv", index=False)
    rows = []
    for panel in range(2):
        rows += _rate_rows("fig2", panel, "ratio", xs, "dp_bai", [0.8, 0.8, 0.8] if good else [0.8, 0.5, 0.2])
        rows += _rate_rows("fig2", panel, "ratio", xs, "dp_od", [0.8, 0.5, 0.2])
    pd.DataFrame(rows).to_csv(base / "fig2.csv", index=False)
    rows = []
    for variant in ("", "one_shot", "halving"):
        rows += _rate_rows("sensitivity", 0, "budget", xs, "dp_bai", up if good else low, variant)
    rows += _rate_rows("sensitivity", 0, "budget", xs, "dp_od", low)
    rows += _rate_rows("sensitivity", 0, "budget", xs, "baseline_bai", low if good else up)
    pd.DataFrame(rows).to_csv(base / "sensitivity.csv", index=False)


def test_chen2024_holds(tmp_path):
    _chen(tmp_path, good=True)
    assert set(verdicts("chen2024", tmp_path).values()) == {HOLDS}


def test_chen2024_fails(tmp_path):
    _chen(tmp_path, good=False)
    v = verdicts("chen2024", tmp_path)
    assert v["C1"] == FAILS and v["C2"] == FAILS and v["Fig2"] == FAILS and v["C1-sensitivity"] == FAILS
    assert v["C3"] == HOLDS


# ---------------------------------------------------------------------------------------------- sajed2019

T_S = 1_000_000
SAJED_SETTINGS = (("C2, K=3", 0.5), ("C1, K=5", 1.0))


def _dp_se_curve(t, flat: bool):
    """Piecewise linear: two epochs then flat (or a last epoch running to T)."""
    m = 0.25 * np.minimum(t, 20_000) + 0.05 * np.clip(t - 20_000, 0, 80_000)
    return m if flat else m + 0.01 * np.clip(t - 100_000, 0, None)


def _sajed_panels(tab, figure, good: bool):
    t = default_checkpoints(T_S)
    for panel, (inst, eps) in enumerate(SAJED_SETTINGS):
        se = _dp_se_curve(t, flat=good)
        ucb = 300 * np.sqrt(t) if good else 2 * se
        tab.add(figure, "dp_se", eps, t, se, panel=panel, instance=inst)
        tab.add(figure, "dp_ucb", eps, t, ucb, panel=panel, instance=inst)


def _sajed(results, good: bool):
    tab = Tables("sajed2019")
    _sajed_panels(tab, "fig01", good)
    tab.write(results, {f"fig{i:02d}": "fig01" for i in range(2, 13)})


def test_sajed2019_holds(tmp_path):
    _sajed(tmp_path, good=True)
    v = verdicts("sajed2019", tmp_path)
    assert v == {"C-1 (final)": HOLDS, "C-1 (T/10)": HOLDS, "C-1 (area)": HOLDS, "C-1 (better)": HOLDS,
                 "C-1 (Γ reading, A8)": INCONCLUSIVE, "C-2 (DP-SE piecewise linear)": HOLDS,
                 "C-2 (DP-UCB smooth)": HOLDS, "C-2 (flat tail)": HOLDS}


def test_sajed2019_fails(tmp_path):
    _sajed(tmp_path, good=False)
    v = verdicts("sajed2019", tmp_path)
    assert v["C-1 (final)"] == v["C-1 (T/10)"] == v["C-1 (area)"] == FAILS
    assert v["C-1 (better)"] == HOLDS  # twice the regret is still worse, just not 5 times
    assert v["C-2 (DP-SE piecewise linear)"] == HOLDS
    assert v["C-2 (DP-UCB smooth)"] == FAILS and v["C-2 (flat tail)"] == FAILS


def test_sajed2019_shape_inconclusive_when_no_epoch_ends(tmp_path):
    tab = Tables("sajed2019")
    t = default_checkpoints(3000)
    for panel, (inst, eps) in enumerate(SAJED_SETTINGS):
        tab.add("fig01", "dp_se", eps, t, 0.25 * t, panel=panel, instance=inst)
        tab.add("fig01", "dp_ucb", eps, t, 0.25 * t + np.sqrt(t), panel=panel, instance=inst)
    tab.write(tmp_path, {f"fig{i:02d}": "fig01" for i in range(2, 13)})
    v = verdicts("sajed2019", tmp_path)
    assert {v[k] for k in v if k.startswith("C-2")} == {INCONCLUSIVE}


def test_sajed2019_gamma_variant(tmp_path):
    tab = Tables("sajed2019")
    _sajed_panels(tab, "fig01", good=True)
    t = default_checkpoints(T_S)
    for panel, (inst, eps) in enumerate(SAJED_SETTINGS):
        tab.add("fig01", "dp_ucb", eps, t, 1.5 * _dp_se_curve(t, True), panel=panel, instance=inst,
                variant="Γ /2")
    tab.write(tmp_path, {f"fig{i:02d}": "fig01" for i in range(2, 13)})
    v = verdicts("sajed2019", tmp_path)
    assert v["C-1 (Γ reading, A8)"] == FAILS and v["C-1 (final)"] == HOLDS


# ---------------------------------------------------------------------------------------------- thesis

T_TH = 100_000
THESIS_SETTINGS = (("C1", 5, 0.25), ("C1", 5, 1.0), ("C2", 5, 0.5), ("C3", 5, 0.5), ("C4", 5, 1.0))


def _flat_curve(t, t_flat, final):
    return final * np.minimum(t, t_flat) / t_flat


def _thesis(results, good: bool):
    tab = Tables("sajed2019thesis")
    _sajed_panels(tab, "fig6_1", good)
    t = default_checkpoints(T_TH)
    for panel, (name, k, eps) in enumerate(THESIS_SETTINGS):
        inst = f"{name}, K={k}"
        hard = (name == "C1" and eps >= 0.5) or name == "C4"
        if good:
            std = (80_000 if name == "C1" else 30_000, 8000 if name == "C1" else 3000)
            finals = {"dp_se": (10_000, 1000), "dp_se2_modified": (20_000, 2000), "dp_se2": std}
            ucb = std[1] * (0.8 if hard else 3)
        else:
            finals = {"dp_se": (30_000, 3000), "dp_se2_modified": (20_000, 2000),
                      "dp_se2": (24_000, 2400) if name == "C1" else (60_000, 6000)}
            ucb = 500
        for alg, (t_flat, final) in finals.items():
            tab.add("figA_1", alg, eps, t, _flat_curve(t, t_flat, final), panel=panel, instance=inst)
        tab.add("figA_1", "dp_ucb", eps, t, ucb * np.sqrt(t / T_TH), panel=panel, instance=inst)
    tab.write(results, {**{f"fig6_{i}": "fig6_1" for i in range(2, 9)},
                        **{f"figA_{i}": "figA_1" for i in range(2, 9)}})


def test_sajed2019thesis_holds(tmp_path):
    _thesis(tmp_path, good=True)
    v = verdicts("sajed2019thesis", tmp_path)
    c3 = {k: x for k, x in v.items() if k.startswith("C-3")}
    assert len(c3) == 8 and set(c3.values()) == {HOLDS}
    assert v["C-1 (final)"] == HOLDS and v["C-2 (flat tail)"] == HOLDS


def test_sajed2019thesis_fails(tmp_path):
    _thesis(tmp_path, good=False)
    v = verdicts("sajed2019thesis", tmp_path)
    for claim_id in ("C-3 (DP-SE vs DP-SE 2)", "C-3 (modified vs DP-UCB)", "C-3 (C2, C3: DP-SE 2 vs DP-UCB)",
                     "C-3 (DP-SE vs modified, most)", "C-3 (C1 split)", "C-3 (C2, not long after)",
                     "C-3 (C1, modified faster; A25)", "C-1 (final)"):
        assert v[claim_id] == FAILS, claim_id
    assert v["C-3 (C4, large ε)"] == HOLDS  # DP-UCB is the best everywhere here, so also in C4


# ---------------------------------------------------------------------------------------------- hu2022

HEURISTIC = {("fig1", 0.25): 4863.0, ("fig1", 0.5): 3327.0, ("fig1", 1.0): 2431.0,
             ("fig2", 0.25): 6553.0, ("fig2", 0.5): 6553.0, ("fig2", 1.0): 6553.0}


def _hu(results, horizon: int, good: bool, dp_se_fig1: float = 3953.0):
    tab = Tables("hu2022")
    t = default_checkpoints(horizon)
    root = np.sqrt(t / horizon)
    for fig, inst in (("fig1", "hu_setting1"), ("fig2", "hu_setting2")):
        for panel, eps in enumerate((0.25, 0.5, 1.0)):
            if fig == "fig1":
                se = _flat_curve(t, 11_000, dp_se_fig1 if eps < 1 else 3900.0)
            else:
                se = _flat_curve(t, 59_580, 4766.4)
            lazy = (100 if good else 20_000) * root
            for alg, m in (("dp_se", se), ("anytime_lazy_ucb", HEURISTIC[(fig, eps)] * root),
                           ("lazy_dp_ts", lazy), ("adap_klucb", 120 * root)):
                tab.add(fig, alg, eps, t, m, panel=panel, instance=inst)
    tab.write(results)


def test_hu2022_holds(tmp_path):
    _hu(tmp_path, 1_000_000, good=True)
    assert verdicts("hu2022", tmp_path) == {"1": HOLDS, "2 (final)": HOLDS, "2 (all t)": HOLDS,
                                            "S-1 (DP-SE exact)": HOLDS, "S-2 (Anytime-Lazy-UCB heuristic)": HOLDS}


def test_hu2022_fails(tmp_path):
    _hu(tmp_path, 1_000_000, good=False, dp_se_fig1=4100.0)
    v = verdicts("hu2022", tmp_path)
    assert v["1"] == v["2 (final)"] == v["2 (all t)"] == v["S-1 (DP-SE exact)"] == FAILS


def test_hu2022_anchors_need_paper_horizon(tmp_path):
    _hu(tmp_path, 3000, good=True)
    v = verdicts("hu2022", tmp_path)
    assert v["S-1 (DP-SE exact)"] == v["S-2 (Anytime-Lazy-UCB heuristic)"] == INCONCLUSIVE
    assert v["1"] == HOLDS


def test_ledger_rows(tmp_path):
    _hu(tmp_path, 3000, good=True)
    df = ledger(tmp_path, ["hu2022"])
    assert list(df["paper"].unique()) == ["hu2022"] and df["verdict"].isin([HOLDS, FAILS, INCONCLUSIVE]).all()

