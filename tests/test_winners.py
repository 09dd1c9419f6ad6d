"""A frontier cell's winners: the best and every algorithm not shown worse, with Holm's control in the cell."""

from __future__ import annotations

import math

import pandas as pd
import pytest
from scipy import stats

from dpbandits.drawing.winners import ALPHA, cell_winners, winners


def _cell(regrets, sem=1.0, runs=30, model="pure"):
    return pd.DataFrame(
        {
            "law": "bernoulli",
            "model": model,
            "instance": "two arms",
            "epsilon": 0.5,
            "algorithm": [f"a{i}" for i in range(len(regrets))],
            "label": [f"A{i}" for i in range(len(regrets))],
            "final_regret": regrets,
            "sem": sem,
            "runs": runs,
            "ratio_to_bound": 1.0,
        }
    )


@pytest.mark.parametrize(("second", "tie"), [(51.0, True), (60.0, False)])
def test_a_cell_is_a_tie_or_a_clear_win(second, tie):
    cells = winners(_cell([50.0, second, 90.0]))
    assert len(cells) == 1
    cell = cells.iloc[0]
    assert cell["best"] == "a0" and bool(cell["tie"]) == tie
    assert cell["winners"] == ("a0+a1" if tie else "a0")


def test_the_p_values_are_welch_one_sided_and_holm_controls_the_cell():
    """Equal s.e. 1 and 30 runs each: the difference has s.e. sqrt(2) and 58 Welch degrees of freedom."""
    ranked = cell_winners(_cell([50.0, 53.0, 54.0]))
    p1 = stats.t.sf(3 / math.sqrt(2), 58)
    p2 = stats.t.sf(4 / math.sqrt(2), 58)
    assert ranked["p_worse"].iloc[1] == pytest.approx(p1) and ranked["p_worse"].iloc[2] == pytest.approx(p2)
    # Holm: the smaller p against ALPHA / 2, then the next against ALPHA
    expect_second = p2 <= ALPHA / 2
    assert bool(ranked["worse"].iloc[2]) == expect_second
    assert bool(ranked["worse"].iloc[1]) == (expect_second and p1 <= ALPHA)


def test_holm_keeps_two_borderline_rivals_in_the_winners():
    """Two rivals 3 behind (p ~ 0.019 each): each alone would be shown worse at ALPHA ~ 0.023, but Holm asks the
    smaller of two p-values to clear ALPHA / 2, so the cell is a three-way tie."""
    p = stats.t.sf(3 / math.sqrt(2), 58)
    assert ALPHA / 2 < p <= ALPHA
    assert winners(_cell([50.0, 53.0, 53.0])).iloc[0]["winners"] == "a0+a1+a2"


def test_models_never_share_a_cell():
    rows = pd.concat([_cell([50.0, 60.0]), _cell([1.0], model="approx").assign(algorithm="int")])
    cells = winners(rows).set_index("model")
    assert cells.loc["pure", "winners"] == "a0" and cells.loc["approx", "winners"] == "int"
    assert cells.loc["pure", "algorithms"] == 2 and cells.loc["approx", "algorithms"] == 1
