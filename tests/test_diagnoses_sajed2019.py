"""Diagnoses of sajed2019 (dpbandits.diagnoses.sajed2019): each analysis driven to both outcomes on small
synthetic results folders (tests/_sajed_tables.py)."""

import numpy as np
import pytest
from _tables import Tables, write_claims

from dpbandits.diagnoses import PUBLISHED, RECONSTRUCTION, TEXT_OPEN, UNEXPLAINED, Context
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


def _gamma_reading(tmp_path, name, ucb_at_t, level="consistent"):
    """A Γ reading's folder (its support ``level`` in the text) where DP-UCB's C1 curve ends at ``ucb_at_t`` (DP-SE
    left to the default)."""
    tables = Tables(PAPER)
    tables.add(
        "fig01",
        "dp_ucb",
        1.0,
        (1000, T // 10, T),
        (50, 1000, ucb_at_t),
        instance="C1, K=5",
        sem=1.0,
        runs=RUNS,
        pulls=None,
    )
    tables.write(tmp_path, reading=name, level=level)


DONE = [T - 20000, 5000, 5000, 5000, 5000]  # DP-SE eliminated at step 25000


@pytest.mark.parametrize(
    "ucb_at_t, pulls, reading, expected",
    [
        (20000, [T - 4000, 1000, 1000, 1000, 1000], None, PUBLISHED),  # ratio 2 at T/10, 20 at T: timing alone
        (2000, DONE, ("gamma_denominator=2", 20000), TEXT_OPEN),  # reaches 5 at T under one Γ only
        (2000, DONE, ("gamma_log=2", 20000, "contradicted"), UNEXPLAINED),  # a base-2 Γ, which Section 2 rules out
        (2000, DONE, None, UNEXPLAINED),  # short at T too, DP-SE done: neither timing nor DP-SE
        (2000, [T // 5] * 5, None, RECONSTRUCTION),  # short at T, DP-SE still eliminating: against the paper's shape
    ],
)
def test_early_reaches_each_conclusion(tmp_path, ucb_at_t, pulls, reading, expected):
    ctx = _early_folder(tmp_path, (50, 1000, ucb_at_t), (50, 500, 1000 if ucb_at_t == 2000 else 500), pulls)
    if reading:
        _gamma_reading(tmp_path, *reading)
    f = early(ctx, figures=("fig01",), name="e")
    assert f.conclusion == expected, f.rule
    assert f.rule and (tmp_path / "figs" / "e.png").exists()


def _gamma_folder(tmp_path, power, default_ratio=100.0, reading="gamma_denominator=2", level=None):
    """DP-SE at 100, DP-UCB at ``default_ratio`` times it / ε; under ``reading`` (its support ``level`` in the
    text), DP-UCB's regret at T equals the default's times (Γ factor)^power."""
    curves, tables = Tables(PAPER), Tables(PAPER)
    for eps in (0.1, 0.25, 0.5, 1.0):
        base = 100 * default_ratio / eps
        curves.add("fig05", "dp_se", eps, [T], [100.0], instance="C1, K=5", sem=1.0, runs=RUNS, pulls=None)
        curves.add("fig05", "dp_ucb", eps, [T], [base], instance="C1, K=5", sem=base / 100, runs=RUNS, pulls=None)
        factor = gamma_factor(reading, "C1, K=5", T, eps)
        final = [base * factor**power]
        tables.add("fig05", "dp_ucb", eps, [T], final, instance="C1, K=5", sem=base / 100, runs=4, pulls=None)
    curves.write(tmp_path)
    tables.write(tmp_path, reading=reading, level=level)
    rows = [
        {"claim_id": "C-1 (final)", "verdict": "fails", "robustness": "depends", "changed_by": "gamma_log=2 -> holds"},
        {"claim_id": "C-1 (better)", "verdict": "holds"},
    ]
    write_claims(tmp_path, PAPER, rows)
    return Context(tmp_path, PAPER, figure_dir=tmp_path / "figs")


def test_gamma_elasticity_is_context_with_the_ledger(tmp_path):
    f = gamma_dose(_gamma_folder(tmp_path, 1.0), figures=("fig05",), claims=("C-1 (final)", "C-1 (better)"), name="g")
    assert f.numbers["elasticity"] == pytest.approx(1.0, abs=1e-6)
    assert gamma_factor("gamma_denominator=2", "C1, K=5", T, 0.5) == pytest.approx(0.5 / 2)
    assert "gamma_log=2 -> holds" in f.result
    assert "C-1 (better): holds, robust; changed by: none (no Γ reading flips it)" in f.result


@pytest.mark.parametrize(
    "power, default_ratio, reading, level, expected",
    [
        (0.0, 10.0, "gamma_denominator=2", "stated", PUBLISHED),  # ratio 10 / ε under both
        (-1.0, 3.0, "gamma_denominator=2", "stated", TEXT_OPEN),  # 3 / ε by default (3 at ε = 1), 6 / ε² under it
        (
            1.0,
            3.0,
            "gamma_log=2",
            "contradicted",
            UNEXPLAINED,
        ),  # base-2 Γ (x2.08) reaches 5; the ICML text rules it out
        (1.0, 3.0, "gamma_log=2", "consistent", TEXT_OPEN),  # ... where the text leaves the base open (the thesis)
        (0.0, 3.0, "gamma_denominator=2", "stated", UNEXPLAINED),  # no Γ reaches 5
    ],
)
def test_gamma_reaches_each_conclusion(tmp_path, power, default_ratio, reading, level, expected):
    ctx = _gamma_folder(tmp_path, power, default_ratio, reading, level)
    f = gamma_dose(ctx, figures=("fig05",), claims=("C-1 (final)",), name="g")
    assert f.conclusion == expected, (f.rule, f.result)


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
