"""Reward laws (``dpbandits.core.laws``): the samplers of the fast kernels (``bandits._laws``) and of the twins
(``reference._rewards``), the ``rewards`` argument, the configuration key, and the default's bit-identity.

Sampler tolerances: a mean of n draws is within 5 standard errors sqrt(var / n) of the law's mean, and the
sample variance around the known mean within 5 standard errors sqrt(var((x - m)^2) / n) of the law's variance
(a false alarm has probability below 1e-6 per check).
"""

from __future__ import annotations

import hashlib

import numpy as np
import pytest
from numba import njit

import dpbandits
from dpbandits import ALGORITHMS, reference
from dpbandits.bandits import _laws
from dpbandits.bandits._pcg64 import new_streams
from dpbandits.core.laws import BETA_CONCENTRATION, LAWS, check_rewards, variance
from dpbandits.reference import _rewards

REGRET = [n for n, a in ALGORITHMS.items() if a.kind == "regret"]
N = 100_000  # draws per sampler check
MEANS = (0.03, 0.25, 0.5, 0.6, 0.97)
OTHER = [law for law in LAWS if law != "bernoulli"]


@njit(cache=True)
def _generator_draws(rng, law, p, n):
    out = np.empty(n)
    for j in range(n):
        out[j] = _laws.reward(rng, law, p)
    return out


@njit(cache=True)
def _generator_sums(rng, law, p, pulls, n):
    out = np.empty(n)
    for j in range(n):
        out[j] = _laws.reward_sum(rng, law, pulls, p)
    return out


@njit(cache=True)
def _stream_draws(sb, law, p, n):
    out = np.empty(n)
    for j in range(n):
        out[j] = _laws.stream_reward(sb, law, p)
    return out


def fast_generator(law, p, n, seed=0):
    return _generator_draws(np.random.default_rng(seed), LAWS.index(law), p, n)


def fast_stream(law, p, n, seed=0):
    return _stream_draws(new_streams([np.random.default_rng(seed)])[0], LAWS.index(law), p, n)


def twin(law, p, n, seed=0):
    rng = np.random.default_rng(seed)
    return np.array([_rewards.REWARDS[law](rng, p) for _ in range(n)])


SAMPLERS = {"kernel_generator": fast_generator, "kernel_stream": fast_stream, "twin": twin}


def assert_law(x: np.ndarray, law: str, m: float, what: str) -> None:
    """Support, mean and variance of the draws ``x`` of law ``law`` with mean ``m``."""
    n, var = x.size, variance(law, m)
    assert np.all((x >= 0.0) & (x <= 1.0)), f"{what}: a draw outside [0, 1]"
    if law == "uniform":
        w = min(m, 1 - m)
        assert np.all((x >= m - w) & (x <= m + w)), f"{what}: a draw outside [m - w, m + w]"
    assert abs(x.mean() - m) < 5 * np.sqrt(var / n), f"{what}: mean {x.mean():.5f}, law's {m}"
    dev = (x - m) ** 2
    assert abs(dev.mean() - var) <= 5 * np.sqrt(dev.var() / n), f"{what}: variance {dev.mean():.5f}, law's {var:.5f}"


@pytest.mark.parametrize("sampler", SAMPLERS)
@pytest.mark.parametrize("law", LAWS)
def test_samplers_draw_the_law(sampler, law):
    if sampler == "kernel_stream" and law == "bernoulli":
        pytest.skip("the stream kernels' Bernoulli rewards are their block deciders (test_numpy_streams)")
    for m in MEANS:
        assert_law(SAMPLERS[sampler](law, m, N), law, m, f"{sampler} {law} m={m}")


@pytest.mark.parametrize("law", LAWS)
def test_a_reward_sum_is_the_sum_of_the_laws_draws(law):
    # law 0: one Binomial(n, m); others: n draws summed; both have mean n m and variance n var
    pulls, runs, m = 37, 20_000, 0.3
    s = _generator_sums(np.random.default_rng(1), LAWS.index(law), m, pulls, runs)
    assert np.all((s >= 0) & (s <= pulls))
    assert abs(s.mean() - pulls * m) < 5 * np.sqrt(pulls * variance(law, m) / runs)
    dev = (s - pulls * m) ** 2
    assert abs(dev.mean() - pulls * variance(law, m)) <= 5 * np.sqrt(dev.var() / runs)


@pytest.mark.parametrize("law", LAWS)
@pytest.mark.parametrize("m", [0.0, 1.0])
def test_a_mean_of_0_or_1_is_a_point_mass(law, m):
    for sampler, draw in SAMPLERS.items():
        if sampler == "kernel_stream" and law == "bernoulli":
            continue
        assert np.all(draw(law, m, 1000) == m), f"{sampler} {law} m={m}"
    assert np.all(_generator_sums(np.random.default_rng(2), LAWS.index(law), m, 9, 100) == 9 * m)


def test_tiny_and_near_one_means_stay_in_the_unit_interval():
    for m in (5e-324, 1e-300, 1e-12, 1 - 1e-12, np.nextafter(1.0, 0.0)):
        for law in OTHER:
            for draw in SAMPLERS.values():
                x = draw(law, m, 200)
                assert np.all(np.isfinite(x) & (x >= 0) & (x <= 1)), (law, m)


def test_the_laws_variances_are_ordered_at_every_mean():
    # uniform < beta (c = 1: half the Bernoulli's) < bernoulli at every mean in (0, 1), so the laws differ
    assert BETA_CONCENTRATION == 1.0
    for m in np.linspace(0.001, 0.999, 999):
        assert variance("uniform", m) < variance("beta", m) < variance("bernoulli", m), m
    assert variance("beta", 0.5) == 1 / 8 and variance("uniform", 0.5) == 1 / 12


@pytest.mark.parametrize("engine", [dpbandits.simulate, reference.simulate])
@pytest.mark.parametrize("bad", ["gauss", "Beta", "", None, 1, True, ["beta"]])
def test_an_unknown_law_is_refused_naming_rewards(engine, bad):
    with pytest.raises(ValueError, match=r"^rewards=.* accepted: \['bernoulli', 'beta', 'uniform'\]"):
        engine("ucb", [0.9, 0.6], 10, 1.0, runs=1, seed=0, rewards=bad)
    with pytest.raises(ValueError, match="^rewards="):
        check_rewards(bad)


def test_an_algorithm_that_draws_only_bernoulli_refuses_other_laws(monkeypatch):
    from dataclasses import replace

    monkeypatch.setitem(ALGORITHMS, "ucb", replace(ALGORITHMS["ucb"], laws=("bernoulli",)))
    with pytest.raises(ValueError, match=r"^rewards='beta': algorithm 'ucb' draws only \['bernoulli'\]"):
        dpbandits.simulate("ucb", [0.9, 0.6], 10, None, runs=1, seed=0, rewards="beta")
    with pytest.raises(ValueError, match="algorithm 'x': laws must"):
        replace(ALGORITHMS["ucb"], name="x", laws=("beta",))


def test_every_built_in_regret_algorithm_runs_every_law():
    for name in REGRET:
        if ALGORITHMS[name].module.startswith("dpbandits."):
            assert ALGORITHMS[name].laws == LAWS, name


def test_a_law_other_than_the_default_changes_the_seeds_and_is_recorded():
    args = ("dp_se", [0.9, 0.6], 500, 1.0)
    base = dpbandits.simulate(*args, runs=2, seed=0)
    same = dpbandits.simulate(*args, runs=2, seed=0, rewards="bernoulli")
    keys = {base.meta["config_key"]}
    assert same.meta["config_key"] == base.meta["config_key"] and base.meta["rewards"] == "bernoulli"
    for law in OTHER:
        out = dpbandits.simulate(*args, runs=2, seed=0, rewards=law)
        twin_out = reference.simulate(*args, runs=1, seed=0, rewards=law)
        assert out.meta["rewards"] == twin_out.meta["rewards"] == law
        assert out.meta["config_key"] == twin_out.meta["config_key"]
        keys.add(out.meta["config_key"])
    assert len(keys) == len(LAWS)
    assert dpbandits.simulate(*args, runs=1, seed=0, rewards="beta").meta["beta_concentration"] == BETA_CONCENTRATION


# sha256 (16 hex) of regret, pulls and reward sums of 6 runs of every built-in regret algorithm at means
# (0.7, 0.5, 0.45, 0.3), T = 3000, eps = 0.5, seed 7, and the configuration key, computed by the code before the
# reward laws were added (commit 963b8b6): the default law must reproduce them bit for bit
DEFAULT_PINS = {
    "adap_klucb": ("e70931a3f4a782f8", 6012477675146067023),
    "anytime_lazy_ucb": ("e5c37e54dbe4751e", 7513780857790153741),
    "dp_se": ("94a1f81d4abc29f2", 2083910179669227935),
    "dp_se2": ("34fda39b47b2efe1", 2261130067543386621),
    "dp_se2_modified": ("fc51d19d35f1733b", 7162069385632643113),
    "dp_ucb": ("faf3cbc936f9e093", 4191767718683926455),
    "dp_ucb_bound": ("2e2a2cac6398db97", 903850149348390228),
    "dp_ucb_int": ("17a45b7d60e7be56", 935445919522769421),
    "dp_ucb_tossou": ("ef8d1b8df8b45821", 4491575172435379994),
    "lazy_dp_ts": ("9c0069861e752ff3", 4290124563412500336),
    "private_ucb": ("dccce8fbfcb6f6b8", 5453048727825194236),
    "ucb": ("9772625e5e14bee3", 7336879057577714009),
}


@pytest.mark.parametrize("name", sorted(DEFAULT_PINS))
def test_the_default_law_is_bit_identical_to_before(name):
    r = dpbandits.simulate(name, [0.7, 0.5, 0.45, 0.3], 3000, 0.5, 6, seed=7)
    digest = hashlib.sha256(r.regret.tobytes() + r.pulls.tobytes() + r.reward_sum.tobytes()).hexdigest()[:16]
    assert (digest, r.meta["config_key"]) == DEFAULT_PINS[name]


@pytest.mark.parametrize("name", REGRET)
@pytest.mark.parametrize("law", OTHER)
def test_point_mass_arms_pay_exactly_their_mean_in_every_kernel(name, law):
    # means 1, 0, 0: every reward is fixed under every law, so the reward sum is the best arm's pull count
    out = dpbandits.simulate(name, [1.0, 0.0, 0.0], 400, 1.0, runs=20, seed=5, rewards=law)
    np.testing.assert_array_equal(out.reward_sum, out.pulls[:, 0])


def test_the_cost_hint_counts_a_draw_per_pull_under_another_law():
    # collapsed kernels step under another law: DP-SE's hint (0.3 ns a pull) must not announce Bernoulli's cost
    from dpbandits.core.laws import DRAW_NS, cost_ns
    from dpbandits.core.simulate import announce_cost

    alg = ALGORITHMS["dp_se"]
    assert cost_ns(alg, "bernoulli") == alg.cost_ns and cost_ns(alg, "beta") == alg.cost_ns + DRAW_NS["beta"] > 100
    assert announce_cost(alg, 10**9, "uniform") == pytest.approx((alg.cost_ns + DRAW_NS["uniform"]) * 1e-9 * 10**9)
