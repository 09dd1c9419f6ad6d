"""Diagnoses of sajed2019 (dpbandits.diagnoses.sajed2019): each analysis driven to both outcomes on small
synthetic results folders (tests/_sajed_tables.py)."""

import numpy as np
import pytest
from _tables import Tables, write_claims

from dpbandits.diagnoses import PUBLISHED, RECONSTRUCTION, TEXT_OPEN, Context
from dpbandits.diagnoses._gamma import elasticity, gamma_dose, gamma_factor
from dpbandits.diagnoses._sajed import early
from dpbandits.diagnoses.sajed2019 import DIAGNOSES

PAPER, T = "sajed2019", 100_000
RUNS = 30  # runs per curve


def _early_folder(tmp_path, ucb, dp_se, pulls):
    """C1, K=5, ε=1: mean regrets (at 1000, T/10, T) of DP-UCB ``ucb`` and DP-SE ``dp_se``; every DP-SE run has
    final pull counts ``pulls``."""
    t = (1000, T // 10, T)
    tables = Tables(PAPER)
    tables.add("fig01", "dp_se", 1.0, t, dp_se, instance="C1, K=5", sem=1.0, runs=RUNS, pulls=" ".join(map(str, pulls)))
    tables.add("fig01", "dp_ucb", 1.0, t, ucb, instance="C1, K=5", sem=1.0, runs=RUNS, pulls=None)
    tables.write(tmp_path)
    write_claims(tmp_path, PAPER, [{"claim_id": "C-1 (T/10)", "verdict": "fails"}])
    return Context(tmp_path, PAPER, figure_dir=tmp_path / "figs")


def test_early_shown_when_dp_ucb_still_grows_after_T_over_10(tmp_path):
    # ratio 2 at T/10, 20 at T: DP-UCB grows 20-fold, DP-SE (eliminated at step 5000) not at all
    ctx = _early_folder(tmp_path, (50, 1000, 20000), (50, 500, 500), [T - 4000, 1000, 1000, 1000, 1000])
    f = early(ctx, figures=("fig01",), name="e")
    assert f.confirmed and f.conclusion == PUBLISHED
    assert f.numbers["DP-UCB growth T/10 to T (median factor)"] == pytest.approx(20.0)
    assert f.numbers["DP-SE runs eliminating at T/10"] == "0 of 30"
    assert f.numbers["of them at least 5 at T"] == 1
    assert (tmp_path / "figs" / "e.png").exists()


def test_early_not_shown_when_dp_se_grows_instead(tmp_path):
    # ratio 2 at T/10 and at T: both grow 2-fold; DP-SE (eliminated at step 25000) still eliminating at T/10
    ctx = _early_folder(tmp_path, (50, 1000, 2000), (50, 500, 1000), [T - 20000, 5000, 5000, 5000, 5000])
    f = early(ctx, figures=("fig01",), name="e")
    assert not f.confirmed and f.conclusion == RECONSTRUCTION
    assert f.numbers["DP-SE runs eliminating at T/10"] == "30 of 30"
    assert f.numbers["of them at least 5 at T"] == 0


def _gamma_folder(tmp_path, power):
    """DP-UCB's regret at T under gamma_denominator=2 equals the default's times (Γ factor)^power."""
    curves, reading = Tables(PAPER), Tables(PAPER)
    for eps in (0.1, 0.25, 0.5, 1.0):
        base = 10_000 / eps
        curves.add("fig05", "dp_se", eps, [T], [100.0], instance="C1, K=5", sem=1.0, runs=RUNS, pulls=None)
        curves.add("fig05", "dp_ucb", eps, [T], [base], instance="C1, K=5", sem=base / 100, runs=RUNS, pulls=None)
        factor = gamma_factor("gamma_denominator=2", "C1, K=5", T, eps)
        assert factor == pytest.approx(eps / 2)
        final = [base * factor**power]
        reading.add("fig05", "dp_ucb", eps, [T], final, instance="C1, K=5", sem=base / 100, runs=4, pulls=None)
    curves.write(tmp_path)
    reading.write(tmp_path, reading="gamma_denominator=2")
    rows = [
        {"claim_id": "C-1 (final)", "verdict": "fails", "robustness": "depends", "changed_by": "gamma_log=2 -> holds"},
        {"claim_id": "C-1 (better)", "verdict": "holds"},
    ]
    write_claims(tmp_path, PAPER, rows)
    return Context(tmp_path, PAPER, figure_dir=tmp_path / "figs")


def test_gamma_shown_when_dp_ucb_regret_follows_gamma(tmp_path):
    f = gamma_dose(_gamma_folder(tmp_path, 1.0), figures=("fig05",), claims=("C-1 (final)", "C-1 (better)"), name="g")
    assert f.confirmed and f.conclusion == TEXT_OPEN
    assert f.numbers["elasticity"] == pytest.approx(1.0, abs=1e-6)
    assert "gamma_log=2 -> holds" in f.result
    assert "C-1 (better): holds, robust; changed by: none (no Γ reading flips it)" in f.result


def test_gamma_not_shown_when_dp_ucb_regret_ignores_gamma(tmp_path):
    f = gamma_dose(_gamma_folder(tmp_path, 0.0), figures=("fig05",), claims=("C-1 (final)",), name="g")
    assert not f.confirmed and f.conclusion == RECONSTRUCTION
    assert f.numbers["elasticity"] == pytest.approx(0.0, abs=1e-6)


def test_gamma_factor_of_each_reading():
    assert gamma_factor("gamma_log=2", "C1, K=5", T, 0.5) == pytest.approx(1 / np.log(2) ** 2)
    assert gamma_factor("gamma_log=2 + gamma_denominator=2", "C1, K=5", T, 0.5) == pytest.approx(0.25 / np.log(2) ** 2)
    assert gamma_factor("noise_scale_uses=R_e", "C1, K=5", T, 0.5) is None


def test_elasticity_recovers_a_slope_with_its_error():
    import pandas as pd

    x = np.linspace(-3, 1, 9)
    b, se = elasticity(pd.DataFrame({"x": x, "y": 0.7 * x, "se": 0.01}))
    assert b == pytest.approx(0.7) and 0 < se < 0.01


def test_every_claim_diagnosed_once():
    claims = [c for d in DIAGNOSES for c in d.claims]
    assert len(claims) == len(set(claims)) and "C-1 (T/10)" in claims
