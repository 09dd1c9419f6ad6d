"""AdaP-UCB (Azize & Basu 2022) and LDP-UCB-L (Ren et al. 2020): the papers' invariants on the fast kernels and
the twins (dpbandits.reference.after); fast vs twin in distribution is the contract's (tests/test_contract.py)."""

import math

import numpy as np
import pytest
from scipy import stats

import dpbandits
from dpbandits import ALGORITHMS
from dpbandits.bandits.adap_ucb import adap_ucb_kernel
from dpbandits.drawing import theory

SETTING1 = [0.75, 0.625, 0.5, 0.375, 0.25]  # Azize & Basu's Figure 2 instance
P_MIN = 1e-3  # per statistical test (as _stats.ALPHA)


def twin(name, means, horizon, epsilon, seed, **params):
    """The reference runner's loop, returning the policy (its state and release log) and the pulls."""
    rng = np.random.default_rng(seed)
    pol = ALGORITHMS[name].reference_class()(len(means), horizon, epsilon, rng, ALGORITHMS[name].resolve(params))
    pulls = np.zeros(len(means), dtype=np.int64)
    for t in range(1, horizon + 1):
        a = pol.select(t)
        pol.update(a, 1.0 if rng.random() < means[a] else 0.0)
        pulls[a] += 1
    return pol, pulls


def test_fast_adap_ucb_episodes_double():
    # Algorithm 1, line 7: each episode doubles the arm's count, so every N_a is a power of two except the arm
    # whose last episode the horizon cut, and the private mean rests on the last episode (N_a / 2 samples)
    steps = np.arange(1, 5001)
    gap = max(SETTING1) - np.asarray(SETTING1)
    for seed in range(4):
        regret, n, total, last, _ = adap_ucb_kernel(
            np.asarray(SETTING1), 5000, 0.5, 3.1, math.log(2.0), steps, np.random.default_rng(seed), True
        )
        full = (n & (n - 1)) == 0
        assert n.sum() == 5000 and full.sum() >= len(SETTING1) - 1
        np.testing.assert_array_equal(last[full], np.maximum(n[full] // 2, 1))
        assert regret[-1] == pytest.approx(gap @ n)


def test_adap_ucb_release_is_laplace_on_the_episode_mean():
    # Section 4: the private mean of an episode of n rewards is their mean + Lap(1/(eps n))
    epsilon, scaled = 0.5, []
    for seed in range(40):
        pol, _ = twin("adap_ucb", [0.6, 0.5, 0.4], 3000, epsilon, seed)
        scaled += [(noisy - true) * epsilon * n for _, n, true, noisy in pol.releases]
    assert len(scaled) > 600
    assert stats.kstest(scaled, stats.laplace.cdf).pvalue > P_MIN


def test_adap_ucb_stays_below_its_theorem_7_bound():
    # Theorem 7 bounds the expected regret at every T (anytime algorithm); 200 runs put the mean within a few
    # standard errors of the truth, far below a bound that is loose by a factor > 10 here
    t = np.array([1000, 10000, 40000])
    r = dpbandits.simulate("adap_ucb", SETTING1, 40000, 1.0, runs=200, seed=3, checkpoints=t)
    bound = theory.bound_for("adap_ucb", SETTING1, t, 1.0, ALGORITHMS["adap_ucb"].resolve({}), 40000)
    mean, sem = r.regret.mean(axis=0), r.regret.std(axis=0, ddof=1) / np.sqrt(200)
    assert np.all(mean + 4 * sem < bound), (mean, bound)
    # the bound's two regimes: independent of epsilon once epsilon >= every gap, 1/epsilon below the gaps
    hi = theory.adap_ucb_thm7(SETTING1, t, 1.0, {"alpha": 3.1})
    np.testing.assert_allclose(hi, theory.adap_ucb_thm7(SETTING1, t, 2.0, {"alpha": 3.1}))
    lo = theory.adap_ucb_thm7(SETTING1, t, 0.01, {"alpha": 3.1}) - 4 * 3.1 / 0.1
    np.testing.assert_allclose(lo, 2 * (theory.adap_ucb_thm7(SETTING1, t, 0.02, {"alpha": 3.1}) - 4 * 3.1 / 0.1))


def test_ldp_ucb_privatises_each_reward_with_laplace():
    # every reward reaches the learner as X + Lap(1/eps): the noise on each update is standard Laplace / eps
    epsilon, scaled = 0.7, []
    for seed in range(10):
        rng = np.random.default_rng(seed)
        pol = ALGORITHMS["ldp_ucb"].reference_class()(3, 300, epsilon, rng, ALGORITHMS["ldp_ucb"].resolve({}))
        for t in range(1, 301):
            a = pol.select(t)
            x = float(rng.random() < 0.5)
            before = pol.sums[a]
            pol.update(a, x)
            scaled.append((pol.sums[a] - before - x) * epsilon)
    assert stats.kstest(scaled, stats.laplace.cdf).pvalue > P_MIN


def test_fast_ldp_ucb_forced_exploration():
    # an arm pulled at most c ln(t + 1) times is pulled first: at T every arm has > c ln(T + 1) - K pulls. With
    # rewards 1, 0, 0 and epsilon 1e6 the index alone (c = 0) stops pulling a 0-arm near n = 2 ln t, below that
    horizon, means = 3000, [1.0, 0.0, 0.0]
    floor = 4.0 * math.log(horizon + 1) - len(means)
    for explore_c in (4.0, 0.0):
        r = dpbandits.simulate("ldp_ucb", means, horizon, 1e6, runs=50, seed=2, explore_c=explore_c)
        assert r.pulls.sum(axis=1).tolist() == [horizon] * 50
        assert (r.pulls.min() > floor) == (explore_c > 0), (explore_c, r.pulls.min(), floor)
