"""Diagnoses of sajed2019thesis (dpbandits.diagnoses.sajed2019thesis): the C1 split on synthetic Figure A.1
tables, the halting analyses on synthetic elimination times and on a tiny real run, both outcomes each."""

import math

import pytest
from _tables import Tables, write_claims

from dpbandits.diagnoses import PUBLISHED, RECONSTRUCTION, TEXT_OPEN, UNEXPLAINED, Context
from dpbandits.diagnoses._halting import (
    MODIFIED,
    STANDARD,
    c1_verdict,
    c2_verdict,
    dose,
    effects,
    halting_c1,
    halting_c2,
)
from dpbandits.diagnoses._thesis import c1_split, epsilon_slopes, split_reason
from dpbandits.diagnoses.sajed2019thesis import DIAGNOSES

PAPER, T = "sajed2019thesis", 1_000_000
EPS = (0.1, 0.25, 0.5, 1.0)


def _split_folder(tmp_path, ucb_power):
    """C1, K=5: DP-SE 2's regret flat in ε, DP-UCB's as 20000 ε^ucb_power."""
    tables = Tables(PAPER)
    for eps in EPS:
        ucb = 20_000 * eps**ucb_power
        tables.add("figA_1", "dp_se2", eps, [T], [40_000.0], instance="C1, K=5", sem=400.0, runs=30, pulls=None)
        tables.add("figA_1", "dp_ucb", eps, [T], [ucb], instance="C1, K=5", sem=ucb / 100, runs=30, pulls=None)
    tables.write(tmp_path)
    numbers = "small ε or K=20: wins/ties/losses=0/0/2; others: DP-UCB wins=2; others=2"
    write_claims(tmp_path, PAPER, [{"claim_id": "C-3 (C1 split)", "verdict": "fails", "numbers": numbers}])
    return Context(tmp_path, PAPER, figure_dir=tmp_path / "figs")


def test_c1_split_shown_when_dp_ucb_gains_with_epsilon(tmp_path):
    f = c1_split(_split_folder(tmp_path, -1.0), claim="C-3 (C1 split)", quotes=(), figures=("figA_1",))
    assert f.confirmed and f.conclusion == PUBLISHED
    assert f.numbers["slope difference"] == pytest.approx(-1.0, abs=1e-6)
    assert f.numbers["crossing"] == pytest.approx(0.5, rel=1e-6)  # 20000 / ε = 40000
    assert f.numbers["ledger: others: DP-UCB wins"] == "2"
    assert "DP-UCB already leads in 2 of the settings" in f.summary


def test_c1_split_suspects_the_reconstruction_when_dp_se2_gains_with_epsilon(tmp_path):
    f = c1_split(_split_folder(tmp_path, 1.0), claim="C-3 (C1 split)", quotes=(), figures=("figA_1",))
    assert not f.confirmed and f.conclusion == RECONSTRUCTION and "fairly large" in f.rule


def test_split_reason_names_the_failing_side():
    assert "leads in none" in split_reason({"small ε or K=20: wins/ties/losses": "3/3/0", "others: DP-UCB wins": "0"})
    assert "leads in 1 of" in split_reason({"small ε or K=20: wins/ties/losses": "3/2/1", "others: DP-UCB wins": "2"})


def test_c1_split_not_shown_when_dp_ucb_ignores_epsilon(tmp_path):
    f = c1_split(_split_folder(tmp_path, 0.0), claim="C-3 (C1 split)", quotes=(), figures=("figA_1",))
    assert not f.confirmed and f.conclusion == UNEXPLAINED
    assert math.isnan(f.numbers["crossing"]) or f.numbers["slope difference"] == pytest.approx(0.0, abs=1e-6)


def test_epsilon_slopes_need_both_algorithms():
    import pandas as pd

    tab = pd.DataFrame({"instance": ["C1"], "K": [5], "epsilon": [1.0], "dp_se2": [1.0], "dp_se2 s.e.": [0.1]})
    assert math.isnan(epsilon_slopes(tab)["slope difference"])


def _timer(m_power, c_power):
    """Synthetic mean elimination times ∝ M^m_power C^c_power (s.e. 1%)."""
    return lambda k, eps, v: (1000.0 * v[0] ** m_power * v[1] ** c_power, 10.0 * v[0] ** m_power * v[1] ** c_power, 29)


def test_halting_verdicts_follow_the_driver():
    # Hoeffding-driven: time ∝ M²: elasticity 2, M alone gives 25, C nothing
    assert c1_verdict(dose(_timer(2.0, 0.0)))
    shown, over, diff, _ = c2_verdict(effects(_timer(2.0, 0.0)))
    assert shown and len(over) == 10 and diff == pytest.approx(math.log(25.0))
    # privacy-driven: time ∝ C: elasticity in M 0, standard / modified = 4 from C alone
    assert not c1_verdict(dose(_timer(0.0, 1.0)))
    shown, over, diff, _ = c2_verdict(effects(_timer(0.0, 1.0)))
    assert not shown and len(over) == 10 and diff == pytest.approx(-math.log(4.0))
    # nothing above 2: not shown
    assert not c2_verdict(effects(_timer(0.0, 0.0)))[0]
    assert STANDARD == (10.0, 16.0) and MODIFIED == (2.0, 4.0)


@pytest.fixture
def tiny(tmp_path):
    write_claims(
        tmp_path,
        PAPER,
        [
            {"claim_id": "C-3 (C1, modified faster)", "verdict": "fails", "numbers": "K=5 ε=1=19.4 ± 0.9"},
            {"claim_id": "C-3 (C2, not long after)", "verdict": "fails"},
        ],
    )
    return Context(tmp_path, PAPER, seed=7, scale={"max_runs": 3, "max_horizon": 2000}, figure_dir=tmp_path / "f")


def test_halting_runs_the_kernel_at_a_capped_scale(tiny):
    """T = 2000 ends before any halt: every time is T, so neither mechanism can show."""
    f1 = halting_c1(tiny, claim="C-3 (C1, modified faster)", quotes=())
    f2 = halting_c2(tiny, claim="C-3 (C2, not long after)", quotes=())
    assert not f1.confirmed and f1.conclusion == UNEXPLAINED and "T = 2000" in f1.experiment
    assert not f2.confirmed and f2.conclusion == UNEXPLAINED and f2.numbers["settings above 2"] == 0
    assert "K=5 ε=1 19.4 ± 0.9" in f1.result


def test_c2_conclusion_text_open_when_figure_a2_holds(monkeypatch, tiny):
    import dpbandits.diagnoses._halting as h

    # standard / modified = 25 except at K = 5, where it is 1
    def timer(ctx, instance):
        return lambda k, eps, v: (1000.0 * (v[0] ** 2 if k != 5 else 1.0), 10.0, 29)

    monkeypatch.setattr(h, "_timer", timer)
    f = halting_c2(tiny, claim="C-3 (C2, not long after)", quotes=())
    assert f.confirmed and f.conclusion == TEXT_OPEN
    monkeypatch.setattr(h, "_timer", lambda ctx, instance: _timer(2.0, 0.0))
    assert halting_c2(tiny, claim="C-3 (C2, not long after)", quotes=()).conclusion == PUBLISHED


def test_every_claim_diagnosed_once():
    claims = [c for d in DIAGNOSES for c in d.claims]
    assert len(claims) == len(set(claims))
    assert {"C-1 (T/10)", "C-3 (C1 split)", "C-3 (C2, not long after)", "C-3 (C1, modified faster)"} <= set(claims)
