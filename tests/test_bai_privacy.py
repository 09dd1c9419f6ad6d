"""Privacy structure of the BAI algorithms on explicit reward tables (Chen et al. 2024, Section 4 and Appendix)."""

import math

import numpy as np
import pytest

from dpbandits.bai import RewardTable, run_on_table, section5_instance, two_arm_instance

ALL = ["dp_bai", "dp_bai_gauss", "baseline_bai", "od_linbai", "dp_od"]


class RecordingRng:
    """Generator proxy recording every noise draw (method, scale, size)."""

    def __init__(self, seed):
        self.rng = np.random.default_rng(seed)
        self.noise = []

    def laplace(self, loc, scale, size):
        self.noise.append(("laplace", scale, size))
        return self.rng.laplace(loc, scale, size)

    def normal(self, loc, scale, size):
        self.noise.append(("normal", scale, size))
        return self.rng.normal(loc, scale, size)

    def random(self, size):
        return self.rng.random(size)


def _run(name, arms, budget, epsilon, seed=0, **params):
    table = RewardTable(np.random.default_rng(seed + 100).random((len(arms), budget)))
    rng = RecordingRng(seed)
    arm = run_on_table(name, arms, table, epsilon, rng, **params)
    return arm, table, rng


def test_dp_bai_noise_scales_and_pulls_section5():
    arms, _ = section5_instance()
    _, table, rng = _run("dp_bai", arms, 2000, 0.5)
    # s = 30, 13, 3, 1; T' = 2000 - 3 * 2; n_p = ceil(T' / (3 * 2)) = 333; Max-Det branch every phase
    n = math.ceil(1994 / 6)
    assert rng.noise == [("laplace", pytest.approx(1 / (0.5 * n), rel=1e-15), (2,))] * 3
    assert [r[0].size for r in table.reads] == [2, 2, 2]
    np.testing.assert_array_equal(table.reads[0][0], [0, 2])  # Max-Det basis {a_1, a_3}
    assert all(np.all(r[2] == n) for r in table.reads)


def test_baseline_noise_scales_and_pulls_section5():
    arms, _ = section5_instance()
    _, table, rng = _run("baseline_bai", arms, 2000, 0.5)
    t_prime = 2000 - (30 + 13 + 3)
    ns = [math.ceil(t_prime / (3 * s)) for s in (30, 13, 3)]
    assert [(m, s) for m, _, s in rng.noise] == [("laplace", (30,)), ("laplace", (13,)), ("laplace", (3,))]
    for (_, b, _), n in zip(rng.noise, ns, strict=True):
        assert b == pytest.approx(1 / (0.5 * n), rel=1e-15)
    assert [int(r[2][0]) for r in table.reads] == ns


def test_gauss_noise_scale():
    arms, _ = section5_instance()
    _, _, rng = _run("dp_bai_gauss", arms, 2000, 0.5, delta=1e-3)
    n = math.ceil(1994 / 6)
    sigma = math.sqrt(2 * math.log(1.25 / 1e-3)) / (0.5 * n)
    assert rng.noise == [("normal", pytest.approx(sigma, rel=1e-15), (2,))] * 3


@pytest.mark.parametrize("ratio", [1, 7])
def test_dp_od_noise_scale_and_design_pulls(ratio):
    arms, _ = two_arm_instance(ratio)
    _, table, rng = _run("dp_od", arms, 1000, 0.3)
    assert rng.noise == [("laplace", pytest.approx(max(ratio, 1) / 0.3, rel=1e-15), (2,))]
    np.testing.assert_array_equal(table.reads[0][2], [499, 499])  # ceil((T - 2) / 2)
    _, _, rng = _run("od_linbai", arms, 1000, None)
    assert rng.noise == []


def test_dp_od_global_l1_section5():
    arms, _ = section5_instance()
    for variant in ("phase", "global"):
        _, _, rng = _run("dp_od", arms, 2000, 0.5, dpod_l1=variant)
        assert rng.noise == [("laplace", pytest.approx(10 / 0.5, rel=1e-15), (2,))]


def _d3_arms():
    rng = np.random.default_rng(4)
    return np.vstack([np.eye(3), rng.uniform(0, 1, (9, 3))])


@pytest.mark.parametrize("name", ALL)
@pytest.mark.parametrize("instance", ["section5", "d3", "two_arm"])
def test_each_entry_read_once_and_phases_disjoint(name, instance):
    arms = {"section5": section5_instance()[0], "d3": _d3_arms(), "two_arm": two_arm_instance(5)[0]}[instance]
    budget = 700
    for seed in range(3):
        _, table, _ = _run(name, arms, budget, 0.5, seed=seed)
        seen = set()
        for arms_read, start, counts, _ in table.reads:  # one read per phase
            assert np.unique(arms_read).size == arms_read.size
            cells = {(int(a), j) for a, s, c in zip(arms_read, start, counts, strict=True) for j in range(s, s + c)}
            assert not cells & seen
            seen |= cells
        assert len(seen) == sum(int(r[2].sum()) for r in table.reads) <= budget
        # consecutive blocks of each row, starting at column 0
        for a in range(len(arms)):
            cols = sorted(j for i, j in seen if i == a)
            assert cols == list(range(len(cols)))


def test_phase_counts_match_schedule():
    arms = _d3_arms()  # K = 12, d = 3: dexp gives M phases; OD-LinBAI R = 2
    from dpbandits.bai.schedule import phase_sizes

    m = len(phase_sizes(12, 3)) - 1
    for name, phases in [("dp_bai", m), ("baseline_bai", m), ("od_linbai", 2), ("dp_od", 2)]:
        _, table, _ = _run(name, arms, 600, 0.5)
        assert len(table.reads) == phases


@pytest.mark.parametrize("name", ["dp_bai", "baseline_bai"])
def test_single_entry_change_moves_one_phase_mean(name):
    """T3: flipping one table entry changes at most one pre-noise mean, by at most 1/n_p."""
    arms = _d3_arms()
    budget = 600
    base = np.random.default_rng(1).random((len(arms), budget))
    for trial in range(20):
        gen = np.random.default_rng(trial)
        i, j = int(gen.integers(len(arms))), int(gen.integers(40))
        flipped = base.copy()
        flipped[i, j] = 1.0 - flipped[i, j]
        reads = []
        for x in (base, flipped):
            table = RewardTable(x)
            run_on_table(name, arms, table, 0.5, np.random.default_rng(99))
            reads.append(table.reads)
        changed = 0
        for (a0, s0, c0, m0), (a1, s1, _, m1) in zip(*reads, strict=False):
            if not (np.array_equal(a0, a1) and np.array_equal(s0, s1)):
                break  # transcripts diverged after the changed phase
            diff = np.abs(m0 - m1)
            changed += np.count_nonzero(diff > 0)
            assert np.all(diff <= 1.0 / c0 + 1e-15)
            if changed:
                break
        assert changed <= 1


def test_huge_epsilon_is_noiseless():
    """T5: with epsilon = 1e9 and exact linear rewards DP-BAI always finds the best arm."""
    arms, theta = section5_instance()
    means = arms @ theta
    table = np.repeat(means[:, None], 2000, axis=1)
    for seed in range(5):
        for name in ("dp_bai", "baseline_bai", "dp_od"):
            assert run_on_table(name, arms, table, 1e9, np.random.default_rng(seed)) == 0
        assert run_on_table("od_linbai", arms, table, None, np.random.default_rng(seed)) == 0


def test_ratio_one_couples_dp_bai_and_dp_od():
    """At r = 1 DP-BAI and DP-OD make the same pulls and the same noise draws."""
    arms, theta = two_arm_instance(1)
    agree = 0
    for seed in range(200):
        x = np.random.default_rng(seed).uniform(0, 2 * (arms @ theta)[:, None], (2, 300))
        out = [run_on_table(n, arms, x, 2.0, np.random.default_rng(seed)) for n in ("dp_bai", "dp_od")]
        agree += out[0] == out[1]
    assert agree == 200


def test_table_validation():
    arms, _ = two_arm_instance(2)
    with pytest.raises(ValueError, match="table"):
        run_on_table("dp_bai", arms, np.full((2, 10), 1.5), 1.0, np.random.default_rng(0))
    with pytest.raises(ValueError, match="table"):
        run_on_table("dp_bai", arms, np.zeros((3, 10)), 1.0, np.random.default_rng(0))
    with pytest.raises(ValueError, match="budget"):
        run_on_table("dp_bai", arms, np.zeros((2, 2)), 1.0, np.random.default_rng(0))
