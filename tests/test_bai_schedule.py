"""Phase schedules (test vectors of the reconstructed schedules, docs/reconstructions.md); OD-LinBAI budgets."""

import pytest

from dpbandits.bai.schedule import (
    maxdet_branch,
    od_keep,
    od_phase_budget,
    od_phases,
    phase_sizes,
    reserve,
    stage1_target,
)

VECTORS = {
    (1000, 3): [1000, 423, 77, 5, 3, 2, 1],
    (30, 2): [30, 13, 3, 1],
    (2, 2): [2, 1],
    (1000, 16): [1000, 532, 181, 71, 64, 32, 16, 8, 4, 2, 1],
    (1000, 4): [1000, 424, 78, 6, 4, 2, 1],
    (100, 5): [100, 53, 18, 7, 4, 2, 1],
}


@pytest.mark.parametrize(("k", "d"), list(VECTORS))
def test_dexp_test_vectors(k, d):
    assert phase_sizes(k, d) == VECTORS[(k, d)]


def test_variants():
    assert phase_sizes(30, 2, "one_shot") == [30, 1]
    assert phase_sizes(1000, 3, "one_shot") == [1000, 3, 2, 1]
    assert phase_sizes(30, 2, "halving") == [30, 15, 8, 4, 2, 1]
    assert phase_sizes(2, 5, "dexp") == [2, 1]  # K <= g_0: halving only
    assert stage1_target(1000, 16) == 64
    with pytest.raises(ValueError, match="schedule"):
        phase_sizes(30, 2, "geometric")


def test_branch_rule_and_reserve():
    assert maxdet_branch(3, 2) and not maxdet_branch(2, 2)
    assert not maxdet_branch(9, 6) and maxdet_branch(10, 6) and maxdet_branch(7, 6, "s_gt_d")
    sizes = phase_sizes(30, 2)
    assert reserve(sizes, 2, use_maxdet=True) == 6  # c_p = d in every phase
    assert reserve(sizes, 2, use_maxdet=False) == 30 + 13 + 3
    assert reserve([2, 1], 2, use_maxdet=True) == 2  # uniform branch: c_1 = s_1


def test_od_linbai_budget():
    assert [od_phases(d) for d in (1, 2, 3, 4, 5, 8, 9)] == [1, 1, 2, 2, 3, 3, 4]
    assert [od_keep(5, r) for r in (1, 2, 3)] == [3, 2, 1]
    assert od_phase_budget(1000, 2, 2) == 998  # m = T - min(K, 3)
    assert od_phase_budget(2000, 30, 2) == 1997
    assert od_phase_budget(100, 50, 4) == (100 - 10 - 2) / 2  # sum_{r=1}^{R-1} ceil(d/2^r) = 2
