"""Tossou & Dimitrakakis 2016: constants, anchors and fast-vs-reference equivalence."""

import math

import numpy as np
import pytest
from _draws import recorded_reference
from _stats import same_counts, same_distribution

import dpbandits
from dpbandits.bandits._pcg64 import new_streams
from dpbandits.bandits.dp_ucb_int import input_epsilon, interval
from dpbandits.bandits.private_ucb import node_scale
from dpbandits.bandits.ucb import ucb_batch, ucb_on_draws
from dpbandits.core.instances import NAMED

TOSSOU = ["ucb", "dp_ucb_int", "dp_ucb_tossou", "dp_ucb_bound", "private_ucb"]
DELTA = math.exp(-10)


def test_corollary_3_2_input_epsilon():
    assert input_epsilon(1.0, DELTA) == pytest.approx(0.06296282196, rel=1e-9)
    assert input_epsilon(0.1, DELTA) == pytest.approx(0.00680568234, rel=1e-9)
    params = {"delta": DELTA, "v": 1.1, "eps_log": "ln"}
    assert interval(1.0, params)[1] == 16
    assert interval(0.1, params)[1] == 147
    # log-base sensitivity of Corollary 3.2 (docs/reconstructions.md, eps_log)
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


@pytest.mark.parametrize(
    ("inst", "eps", "expected"),
    [("tossou_2arm", 1.0, 4.8), ("tossou_2arm", 0.1, 44.1), ("tossou_10arm", 1.0, 63.2), ("tossou_10arm", 0.1, 580.65)],
)
def test_dp_ucb_int_initial_phase_is_deterministic(inst, eps, expected):
    means = NAMED[inst]
    k = len(means)
    f = interval(eps, {"delta": DELTA, "v": 1.1, "eps_log": "ln"})[1]
    r = dpbandits.simulate("dp_ucb_int", means, k * f + 50, eps, runs=5, seed=0, checkpoints=[k * f])
    np.testing.assert_allclose(r.regret[:, 0], expected, rtol=1e-12)


@pytest.mark.parametrize(
    ("algorithm", "params"),
    [
        ("ucb", {"tie_break": "first"}),
        ("dp_ucb_bound", {"nu_form": "tr_ln_n", "bound_sqrt": False}),
        ("private_ucb", {"tree_eps": "eps", "sqrt_term": "hoeffding"}),
    ]
    + [(name, {}) for name in TOSSOU],
)
def test_fast_loop_on_reference_draws_reproduces_reference(algorithm, params, monkeypatch):
    # The contract (tests/test_contract.py) replays each reading on 2 and 3 arms; here: combined readings,
    # the first-index tie rule, and the paper's 10-arm instance, pull for pull on the twin's draws.
    horizon, runs, eps = 1500, 3, 0.5
    ckpts = np.arange(1, horizon + 1)
    replay = dpbandits.ALGORITHMS[algorithm].replay_function()
    means = np.asarray(NAMED["tossou_10arm"] if not params else [0.5, 0.5, 0.4])
    ref, recorders = recorded_reference(monkeypatch, algorithm, means, horizon, eps, runs, ckpts, params)
    for i, rec in enumerate(recorders):
        out, pulls, total = replay(means, eps, ckpts, ref.meta["params"], rec.u, rec.eta, rec.picks)
        np.testing.assert_array_equal(pulls, ref.pulls[i])
        assert total == ref.reward_sum[i]
        np.testing.assert_allclose(out, ref.regret[i], rtol=1e-12)
    if algorithm == "ucb" and not params:
        assert sum(len(rec.picks) for rec in recorders) > 0  # the tie path was exercised


@pytest.mark.parametrize("means", [[0.5, 0.5, 0.4], NAMED["tossou_10arm"]])
def test_ucb_runs_in_a_batch_equal_runs_alone(means):
    # run r of a batch depends only on its own stream (ties included): the same result and words alone
    means, horizon, runs = np.asarray(means), 3000, 7
    ckpts = np.array([5, 100, horizon])
    streams = new_streams([np.random.default_rng([22, i]) for i in range(runs)])
    together = ucb_batch(means, horizon, ckpts, True, streams)
    for i in range(runs):
        alone = new_streams([np.random.default_rng([22, i])])
        out, pulls, total = ucb_batch(means, horizon, ckpts, True, alone)
        assert (out[0] == together[0][i]).all() and (pulls[0] == together[1][i]).all()
        assert total[0] == together[2][i] and (alone[0] == streams[i]).all()


@pytest.mark.parametrize("random_ties", [True, False])
@pytest.mark.parametrize("means", [[0.9, 0.6], [0.5, 0.5, 0.4], [0.5] * 4, NAMED["tossou_10arm"]])
def test_ucb_leader_loop_makes_the_argmax_decisions(means, random_ties):
    # the leader loop against the argmax at every step on the same streams (tie picks included):
    # bit-identical results and the same words consumed. Equal means give exact ties inside leads.
    means, horizon = np.asarray(means), 30_000
    ckpts = np.array([1, 77, 5000, 12_345, horizon])
    for seed in range(4):
        a_streams = new_streams([np.random.default_rng([26, seed])])
        b_streams = new_streams([np.random.default_rng([26, seed])])
        a = ucb_batch(means, horizon, ckpts, random_ties, a_streams, True)
        b = ucb_batch(means, horizon, ckpts, random_ties, b_streams, False)
        assert all((x == y).all() for x, y in zip(a, b, strict=True))
        assert (a_streams == b_streams).all()


@pytest.mark.parametrize("random_ties", [True, False])
@pytest.mark.parametrize("k", [3, 4])
def test_ucb_leader_loop_breaks_ties_like_the_argmax(k, random_ties):
    # equal means and rewards from coarse deciders: exact ties right after an arm won twice, inside
    # the leader loop. Lowest index wins, or (random ties) the tie goes to the argmax's pick; flipping
    # either rule in the loop changes about 1 in 300 of these short runs.
    rng = np.random.default_rng([27, k])
    means, horizon = np.full(k, 0.5), 40
    for _ in range(3000):
        u = np.where(rng.random(horizon) < 0.5, 0.25, 0.75)
        picks = rng.integers(0, 2, 200)
        a = ucb_on_draws(means, np.array([horizon]), random_ties, u, picks, True)
        b = ucb_on_draws(means, np.array([horizon]), random_ties, u, picks, False)
        assert (a[1] == b[1]).all() and a[2] == b[2]


def test_each_fast_run_consumes_its_own_stream_only():
    # one Generator per run, advanced by the kernel: the same seed gives the same run, and a
    # different run index a different one
    means = NAMED["tossou_2arm"]
    for algorithm in TOSSOU:
        a = dpbandits.simulate(algorithm, means, 3000, 0.5, runs=3, seed=5)
        b = dpbandits.simulate(algorithm, means, 3000, 0.5, runs=2, seed=5, first_run=1)
        np.testing.assert_array_equal(a.pulls[1:], b.pulls)
        np.testing.assert_array_equal(a.regret[1:], b.regret)
        assert len({tuple(p) for p in a.pulls}) > 1


def test_fast_and_reference_sample_the_same_distribution_under_combined_readings():
    # one reading at a time is the contract's (tests/test_contract.py); two axes at once here
    means = [0.7, 0.5, 0.45]
    for algorithm, params in [
        ("dp_ucb_bound", {"nu_form": "tr_ln_n", "bound_sqrt": False}),
        ("private_ucb", {"tree_eps": "eps", "sqrt_term": "hoeffding"}),
    ]:
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
    # With the reconstructed bonus c_t/n (docs/reconstructions.md) the indices balance when
    # c_t (1/n2 - 1/n1) ~= Delta, i.e. n1 - n2 ~= Delta n1 n2 / c_t: almost round robin.
    horizon, k, eps = 5000, 2, 1.0
    r = dpbandits.simulate("private_ucb", NAMED["tossou_2arm"], horizon, eps, runs=5, seed=0)
    ln_t = math.log(horizon)
    c_t = k * ln_t**2 * (math.log(k * horizon * ln_t) + 4 * ln_t) / eps
    n1, n2 = r.pulls[:, 0], r.pulls[:, 1]
    predicted = 0.3 * n1 * n2 / c_t
    np.testing.assert_allclose(n1 - n2, predicted, rtol=0.25)


def test_release_stats_on_a_hand_counted_log():
    """Arm 1 released 3 times at count 5, arm 0 at counts 5 and 10: 5 releases over 3 intervals; arm 1's first
    reward is read 3 times, 3 x 5^-0.55 by simple composition, 3 times its one release at count 5."""
    from dpbandits.diagnoses._starving import release_stats

    log = [(11, 0, 5), (11, 1, 5), (12, 1, 5), (13, 1, 5), (16, 0, 10)]
    per, spent, multiple = release_stats(log, 1.1)
    assert per == pytest.approx(5 / 3)
    assert spent == pytest.approx(3 * 5**-0.55)
    assert multiple == pytest.approx(3.0)
    with pytest.raises(ValueError, match="empty"):
        release_stats([], 1.1)


@pytest.mark.parametrize("update", ["frozen", "literal", "live_bonus", "scheduled"])
def test_twin_release_log_follows_each_reading_rule(update):
    """The twin's log against the rule written out from its own pulls: K = 2, f = 5 (target eps 4): frozen and
    live_bonus release an arm at the first decision after each 5th pull, literal every arm at every decision while
    its count is a multiple of 5, scheduled every arm at t = 11, 16, 21, ..."""
    from dpbandits.reference.tossou import DPUCBInt

    params = {"tie_break": "random", "delta": math.exp(-10), "v": 1.1, "eps_log": "ln", "int_update": update}
    rng = np.random.default_rng(3)
    twin, counts, expected = DPUCBInt(2, 80, 4.0, rng, params), [0, 0], []
    assert twin.f == 5
    last = [0, 0]
    for t in range(1, 81):
        for a in range(2) if t > 10 else ():
            n = counts[a]
            if update == "scheduled":
                fire = (t - 11) % 5 == 0
            else:
                fire = n % 5 == 0 and (update == "literal" or n != last[a])
            if fire:
                expected.append((t, a, n))
                last[a] = n
        a = twin.select(t)
        twin.update(a, float(rng.random() < (0.9, 0.6)[a]))
        counts[a] += 1
    assert twin.releases == expected
    if update == "scheduled":
        assert len(expected) == 2 * len(range(11, 81, 5))
