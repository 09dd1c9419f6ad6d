"""Tossou & Dimitrakakis 2016: constants, anchors and fast-vs-reference equivalence."""

import math

import numpy as np
import pytest
from _stats import same_counts, same_distribution

import dpbandits
from dpbandits.bandits.dp_ucb_int import input_epsilon, interval
from dpbandits.bandits.private_ucb import node_scale
from dpbandits.instances import NAMED

TOSSOU = ["ucb", "dp_ucb_int", "dp_ucb_tossou", "dp_ucb_bound", "private_ucb"]
DELTA = math.exp(-10)


def test_corollary_3_2_input_epsilon():
    assert input_epsilon(1.0, DELTA) == pytest.approx(0.06296282196, rel=1e-9)
    assert input_epsilon(0.1, DELTA) == pytest.approx(0.00680568234, rel=1e-9)
    params = {"delta": DELTA, "v": 1.1, "eps_log": "ln"}
    assert interval(1.0, params)[1] == 16
    assert interval(0.1, params)[1] == 147
    # log-base sensitivity quoted by the spec
    assert interval(1.0, {**params, "eps_log": "log10"})[1] == 12
    assert interval(0.1, {**params, "eps_log": "log2"})[1] == 176


def test_corollary_round_trip():
    # eps = eps'(2 eps' zeta(v) + sqrt(2 zeta(v) ln(1/delta))), the second branch of Cor. 3.1
    z = 10.584448464950801
    for eps in (0.1, 0.5, 1.0, 3.0):
        e = input_epsilon(eps, DELTA)
        assert e * (2 * e * z + math.sqrt(2 * z * math.log(1 / DELTA))) == pytest.approx(eps, rel=1e-12)


def test_private_ucb_node_scale():
    assert node_scale(2, 100_000, 1.0, "eps/K") == 34.0
    assert node_scale(10, 100_000, 0.1, "eps/K") == pytest.approx(1700.0)
    assert node_scale(10, 100_000, 1.0, "eps") == 17.0


@pytest.mark.parametrize(("inst", "eps", "expected"), [("tossou_2arm", 1.0, 4.8), ("tossou_2arm", 0.1, 44.1),
                                                      ("tossou_10arm", 1.0, 63.2), ("tossou_10arm", 0.1, 580.65)])
def test_dp_ucb_int_initial_phase_is_deterministic(inst, eps, expected):
    means = NAMED[inst]
    k = len(means)
    f = interval(eps, {"delta": DELTA, "v": 1.1, "eps_log": "ln"})[1]
    r = dpbandits.simulate("dp_ucb_int", means, k * f + 50, eps, runs=5, seed=0, checkpoints=[k * f])
    np.testing.assert_allclose(r.regret[:, 0], expected, rtol=1e-12)


@pytest.mark.parametrize("algorithm", TOSSOU)
def test_fast_kernel_is_bit_identical_to_reference(algorithm):
    for means in (NAMED["tossou_2arm"], [0.5, 0.5, 0.4]):
        fast = dpbandits.simulate(algorithm, means, 1500, 0.5, runs=3, seed=11)
        ref = dpbandits.reference.simulate(algorithm, means, 1500, 0.5, runs=3, seed=11)
        np.testing.assert_array_equal(fast.pulls, ref.pulls)
        np.testing.assert_allclose(fast.regret, ref.regret, rtol=1e-12)
        np.testing.assert_array_equal(fast.reward_sum, ref.reward_sum)


@pytest.mark.parametrize(
    ("algorithm", "params"),
    [("ucb", {}), ("dp_ucb_int", {"int_update": "literal"}), ("dp_ucb_int", {"int_update": "live_bonus"}),
     ("dp_ucb_tossou", {"hybrid_split": "none"}), ("dp_ucb_bound", {"nu_form": "tr_ln_n", "bound_sqrt": False}),
     ("private_ucb", {"tree_eps": "eps", "sqrt_term": "hoeffding"})],
)
def test_fast_and_reference_sample_the_same_distribution(algorithm, params):
    # independent seeds for the two engines: a distributional (not bitwise) comparison
    means = [0.7, 0.5, 0.45]
    fast = dpbandits.simulate(algorithm, means, 400, 2.0, runs=300, seed=1, **params)
    ref = dpbandits.reference.simulate(algorithm, means, 400, 2.0, runs=300, seed=2, **params)
    assert same_distribution(fast.regret[:, -1], ref.regret[:, -1])
    assert same_counts(fast.pulls, ref.pulls)


def test_ucb_beats_round_robin_and_respects_bound():
    means = NAMED["tossou_2arm"]
    r = dpbandits.simulate("ucb", means, 20_000, None, runs=20, seed=0)
    # UCB1 bound: sum 8 ln T / Delta + (1 + pi^2/3) Delta
    bound = 8 * math.log(20_000) / 0.3 + (1 + math.pi**2 / 3) * 0.3
    assert r.regret[:, -1].mean() < bound
    assert r.regret[:, -1].mean() < 0.1 * 20_000 * 0.3 / 2


def test_private_ucb_bonus_dominates_allocation():
    # With the reconstructed bonus c_t/n (spec §3.5) the indices balance when
    # c_t (1/n2 - 1/n1) ~= Delta, i.e. n1 - n2 ~= Delta n1 n2 / c_t: almost round robin.
    horizon, k, eps = 5000, 2, 1.0
    r = dpbandits.simulate("private_ucb", NAMED["tossou_2arm"], horizon, eps, runs=5, seed=0)
    ln_t = math.log(horizon)
    c_t = k * ln_t**2 * (math.log(k * horizon * ln_t) + 4 * ln_t) / eps
    n1, n2 = r.pulls[:, 0], r.pulls[:, 1]
    predicted = 0.3 * n1 * n2 / c_t
    np.testing.assert_allclose(n1 - n2, predicted, rtol=0.25)
