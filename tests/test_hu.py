"""Hu & Hegde's Anytime-Lazy-UCB and Lazy-DP-TS and the AdaP-KLUCB baseline: fast kernels vs the papers'
invariants and vs their literal reference twins (dpbandits.reference.hu)."""

import math
from pathlib import Path

import numpy as np
import pytest
from _stats import same_distribution
from scipy import stats

import dpbandits
from dpbandits import ALGORITHMS, reference
from dpbandits.bandits._gamma import fill_betas
from dpbandits.bandits._lazy import lazy_close, lazy_count, lazy_state
from dpbandits.bandits.adap_klucb import adap_klucb_kernel
from dpbandits.bandits.anytime_lazy_ucb import anytime_lazy_ucb_kernel, certified, run_length
from dpbandits.bandits.lazy_dp_ts import lazy_dp_ts_kernel, theta_stream
from dpbandits.pipeline import sources

LAZY = ("anytime_lazy_ucb", "lazy_dp_ts")
NAMES = {"anytime_lazy_ucb": "Anytime-Lazy-UCB", "lazy_dp_ts": "Lazy-DP-TS", "adap_klucb": "AdaP-KLUCB"}
SETTING1 = [0.75, 0.625, 0.5, 0.375, 0.25]
SETTING2 = [0.5, 0.4, 0.4, 0.4, 0.4]
P_MIN = 1e-3  # per statistical test (as _stats.ALPHA)


def lazy_kernel(name, means, horizon, epsilon, checkpoints, seed):
    rng = np.random.default_rng(seed)
    m = np.asarray(means, dtype=float)
    if name == "anytime_lazy_ucb":
        return anytime_lazy_ucb_kernel(m, horizon, epsilon, checkpoints, rng, True)
    return lazy_dp_ts_kernel(m, horizon, epsilon, 1.0, checkpoints, rng, theta_stream(rng), True)


def run_policy(name, means, horizon, epsilon, seed, **params):
    """The reference runner's loop, returning the policy (for its release log) and the pulls."""
    rng = np.random.default_rng(seed)
    pol = ALGORITHMS[name].reference_class()(len(means), horizon, epsilon, rng, ALGORITHMS[name].resolve(params))
    pulls = np.zeros(len(means), dtype=np.int64)
    for t in range(1, horizon + 1):
        a = pol.select(t)
        pol.update(a, 1.0 if rng.random() < means[a] else 0.0)
        pulls[a] += 1
    return pol, pulls


def is_pow2(x):
    x = np.asarray(x)
    return bool(np.all((x >= 1) & (np.bitwise_and(x.astype(np.int64), x.astype(np.int64) - 1) == 0)))


# ---------------------------------------------------------------- registry and input checks


@pytest.mark.parametrize("name", sorted(NAMES))
def test_registered_anytime_private(name):
    alg = ALGORITHMS[name]
    assert alg.label == NAMES[name] and alg.kind == "regret" and alg.private and not alg.needs_horizon
    assert alg.module == f"dpbandits.bandits.{name}"
    expected = {f"bandits/{name}.py", "bandits/_generator.py", "bandits/_regret.py", "bandits/_params.py"}
    expected.add("mechanisms/klucb.py" if name == "adap_klucb" else "bandits/_lazy.py")
    if name == "lazy_dp_ts":
        expected.add("bandits/_gamma.py")
    reached = {str(Path(f).relative_to(sources.PACKAGE)) for f in sources.algorithm_sources(name)}
    assert expected <= reached and not {f for f in reached if f.startswith("bai/")} and "bandits/ucb.py" not in reached
    assert alg.params["tie_break"].default == "random"
    for p in alg.params.values():
        assert "[CHOICE]" in p.doc


def test_choice_defaults():
    assert ALGORITHMS["adap_klucb"].resolve({}) == {"tie_break": "random", "alpha": 3.1, "klucb_tol": 1e-9}
    assert ALGORITHMS["lazy_dp_ts"].resolve({}) == {"tie_break": "random", "bonus_log": "ln"}


@pytest.mark.parametrize(
    ("name", "kwargs", "word"),
    [
        ("adap_klucb", {"alpha": 3.0}, "alpha"),
        ("adap_klucb", {"alpha": "3.1"}, "alpha"),
        ("adap_klucb", {"klucb_tol": 0.0}, "klucb_tol"),
        ("lazy_dp_ts", {"bonus_log": "e"}, "bonus_log"),
        ("anytime_lazy_ucb", {"tie_break": "last"}, "tie_break"),
        ("anytime_lazy_ucb", {"horizon_hint": 10}, "horizon_hint"),
        ("lazy_dp_ts", {"epsilon": 0.0}, "epsilon"),
        ("adap_klucb", {"epsilon": None}, "epsilon"),
        ("anytime_lazy_ucb", {"means": [0.5, 1.2]}, "means"),
        ("lazy_dp_ts", {"means": [0.5]}, "means"),
        ("adap_klucb", {"horizon": 1}, "horizon"),
    ],
)
def test_bad_input_names_the_argument(name, kwargs, word):
    args = {"means": [0.6, 0.4], "horizon": 20, "epsilon": 1.0, "runs": 1, "seed": 0}
    params = {k: v for k, v in kwargs.items() if k not in args}
    args.update({k: v for k, v in kwargs.items() if k in args})
    for sim in (dpbandits.simulate, reference.simulate):
        with pytest.raises(ValueError, match=word):
            sim(name, **args, **params)


# ---------------------------------------------------------------- lazy epochs


@pytest.mark.parametrize("name", LAZY)
@pytest.mark.parametrize(("means", "epsilon"), [(SETTING1, 0.25), (SETTING2, 1.0), ([0.9, 0.1], 4.0)])
def test_fast_lazy_epoch_invariants(name, means, epsilon):
    horizon = 3000
    k = len(means)
    gap = max(means) - np.asarray(means)
    steps = np.arange(1, horizon + 1)
    for seed in range(3):
        regret, n, total, obs, _ = lazy_kernel(name, means, horizon, epsilon, steps, seed)
        assert n.sum() == horizon
        assert is_pow2(obs)  # every O_j is a power of two
        assert np.all((2 * obs - 1 <= n) & (n <= 4 * obs - 2))  # n_j in [2^(r+1)-1, 2^(r+2)-2]
        np.testing.assert_allclose(regret[:k], np.cumsum(gap))  # rounds 1..K pull arms 1..K
        inc = np.diff(regret)
        assert np.all(np.isclose(inc[:, None], gap[None, :]).any(axis=1))
        assert regret[-1] == pytest.approx(gap @ n)
        assert 0 <= total <= horizon


@pytest.mark.parametrize("name", LAZY)
def test_reference_lazy_releases_are_single_use_doubling_epochs(name):
    means = [0.7, 0.5, 0.3]
    pol, pulls = run_policy(name, means, 1500, 0.5, seed=3)
    for j in range(3):
        sizes = [size for arm, size, _, _ in pol.releases if arm == j]
        assert sizes == [2**i for i in range(pol.r[j] + 1)]  # releases of arm j = r_j + 1
        assert pol.O[j] == 2 ** pol.r[j]
        assert sum(sizes) + pol.N[j] == pulls[j]  # each observation in exactly one release or the open epoch
        assert 2 ** (pol.r[j] + 1) - 1 <= pulls[j] <= 2 ** (pol.r[j] + 2) - 2


def test_fast_epoch_close_draws_binomial_sum_and_laplace_on_it():
    """_lazy.lazy_close: Phi ~ Binomial(2^(r+1), mu), mu~ = (Phi + Lap(1/eps)) / 2^(r+1), size doubles."""
    epsilon, p, size0, reps = 0.5, 0.3, 8, 3000
    rng = np.random.default_rng(7)
    means = np.array([0.9, p])
    phis, noise = [], []
    for _ in range(reps):
        cur, size, obs, mu = lazy_state(2)
        size[1] = size0
        hits = [lazy_count(1, cur, size) for _ in range(size0)]
        assert hits == [False] * (size0 - 1) + [True]
        phi = lazy_close(1, means, epsilon, rng, cur, size, obs, mu)
        assert obs[1] == size0 and size[1] == 2 * size0 and cur[1] == 0 and obs[0] == 0
        phis.append(phi)
        noise.append(mu[1] * size0 - phi)
    assert stats.kstest(noise, stats.laplace(scale=1 / epsilon).cdf).pvalue > P_MIN
    observed = np.bincount(np.asarray(phis, dtype=int), minlength=size0 + 1)
    expected = reps * stats.binom.pmf(np.arange(size0 + 1), size0, p)
    pooled = [observed[:1].sum(), *observed[1:5], observed[5:].sum()]  # expected counts >= 5
    pooled_exp = [expected[:1].sum(), *expected[1:5], expected[5:].sum()]
    assert stats.chisquare(pooled, pooled_exp).pvalue > P_MIN


def test_fast_lazy_ucb_final_releases_are_laplace_in_the_noise_free_limit():
    """Rewards 0/1 and epsilon = 1e6: the path is deterministic, so each arm's last release is an
    unselected draw and (mu~_j - mu_j) O_j epsilon ~ Lap(1)."""
    epsilon, means = 1e6, np.array([1.0, 0.0])
    scaled, paths = [], set()
    for seed in range(1500):
        _, n, _, obs, mu = anytime_lazy_ucb_kernel(
            means, 2000, epsilon, np.array([2000]), np.random.default_rng(seed), True
        )
        paths.add((tuple(n), tuple(obs)))
        scaled += list((mu - means) * obs * epsilon)
    assert len(paths) == 1
    assert stats.kstest(scaled, stats.laplace.cdf).pvalue > P_MIN


@pytest.mark.parametrize(("o", "top"), [(1.0, True), (37.0, True), (1.0, False), (250.0, False)])
def test_clipped_beta_closed_form(o, top):
    """The kernel's draw at the clip, Beta(o+1, 1) or Beta(1, o+1) from one exponential, has that law."""
    n = 4000
    a, b = (np.full(n, o + 1.0), np.ones(n)) if top else (np.ones(n), np.full(n, o + 1.0))
    theta = np.empty(n)
    fill_betas(theta_stream(np.random.default_rng(8)), a, b, theta, True)
    law = stats.beta(o + 1, 1) if top else stats.beta(1, o + 1)
    assert stats.kstest(theta, law.cdf).pvalue > P_MIN


def test_lazy_release_noise_is_laplace_on_the_sum():
    epsilon = 0.5
    rng = np.random.default_rng(11)
    errors = []
    for _ in range(120):
        pol = ALGORITHMS["anytime_lazy_ucb"].reference_class()(2, None, epsilon, rng, {"tie_break": "random"})
        for i in range(2 * (2**10 - 1)):
            pol.update(i % 2, float(rng.random() < 0.3))
        errors += [noisy - true for _, _, true, noisy in pol.releases]
    assert len(errors) == 120 * 2 * 10
    assert stats.kstest(errors, stats.laplace(scale=1 / epsilon).cdf).pvalue > P_MIN


def lazy_dp_ts_numpy(means, horizon, epsilon, seed):
    """Algorithm 3 on numpy Generators, the kernel's draws in its order: thetas from
    ``Generator(rng.bit_generator.jumped())`` (numpy's beta; exp(-E/a) or 1 - exp(-E/b) where a parameter
    is 1), epoch closes and tie picks from ``rng``. Returns (pulls, obs, mu)."""
    rng = np.random.default_rng(seed)
    draws = np.random.Generator(rng.bit_generator.jumped())
    k = len(means)
    cur, size, obs, mu = np.zeros(k, dtype=int), np.ones(k, dtype=int), np.zeros(k), np.zeros(k)
    pulls = np.zeros(k, dtype=int)
    for t in range(1, horizon + 1):
        a = t - 1
        if t > k:
            theta = np.empty(k)
            for j in range(k):
                m = min(max(mu[j] + 3.0 * math.log(t) / epsilon / obs[j], 0.0), 1.0)
                x, y = m * obs[j] + 1.0, (1.0 - m) * obs[j] + 1.0
                if y == 1.0:
                    theta[j] = math.exp(-draws.standard_exponential() / x)
                elif x == 1.0:
                    theta[j] = -math.expm1(-draws.standard_exponential() / y)
                else:
                    theta[j] = draws.beta(x, y)
            best = np.flatnonzero(theta == theta.max())
            a = best[rng.integers(0, best.size)] if best.size > 1 else best[0]
        pulls[a] += 1
        cur[a] += 1
        if cur[a] == size[a]:
            phi = rng.binomial(size[a], means[a])
            obs[a] = size[a]
            mu[a] = (phi + rng.laplace(0.0, 1.0 / epsilon)) / size[a]
            size[a] *= 2
            cur[a] = 0
    return pulls, obs, mu


@pytest.mark.parametrize(("means", "epsilon"), [(SETTING1, 0.25), ([0.9, 0.5, 0.4], 4.0), ([0.6, 0.6], 1e3)])
def test_lazy_dp_ts_kernel_makes_numpys_draws(means, epsilon):
    """The kernel against the literal loop on numpy Generators (same seed): the same pulls, O_j and
    private means bit for bit, so its thetas are numpy's Beta draws on the jumped stream."""
    horizon = 4000
    for seed in range(3):
        _, n, _, obs, mu = lazy_kernel("lazy_dp_ts", means, horizon, epsilon, np.array([horizon]), seed)
        pulls, obs_np, mu_np = lazy_dp_ts_numpy(means, horizon, epsilon, seed)
        np.testing.assert_array_equal(n, pulls)
        np.testing.assert_array_equal(obs, obs_np)
        np.testing.assert_array_equal(mu, mu_np)


def test_lazy_dp_ts_runs_depend_only_on_their_seed():
    whole = dpbandits.simulate("lazy_dp_ts", SETTING1, 600, 0.5, runs=5, seed=9)
    a = dpbandits.simulate("lazy_dp_ts", SETTING1, 600, 0.5, runs=2, seed=9)
    b = dpbandits.simulate("lazy_dp_ts", SETTING1, 600, 0.5, runs=3, seed=9, first_run=2)
    np.testing.assert_array_equal(whole.regret, np.vstack([a.regret, b.regret]))
    np.testing.assert_array_equal(whole.pulls, np.vstack([a.pulls, b.pulls]))
    np.testing.assert_array_equal(whole.reward_sum, np.concatenate([a.reward_sum, b.reward_sum]))


@pytest.mark.parametrize("name", LAZY)
def test_anytime_prefix_does_not_depend_on_horizon(name):
    ck = np.array([10, 100, 500, 1000])
    short = lazy_kernel(name, SETTING1, 1000, 0.5, ck, 5)
    long = lazy_kernel(name, SETTING1, 4000, 0.5, np.append(ck, 4000), 5)
    np.testing.assert_array_equal(short[0], long[0][:-1])


def _heuristic_regret(means, epsilon, horizon):
    """Noise ignored: a bad arm stops once O >= O*, Delta = sqrt(3 ln T / O*) + 3 ln T/(eps O*); it then has
    2^(k+1) - 1 pulls with 2^k the smallest power of two >= O*."""
    big_l = 3 * math.log(horizon)
    total = 0.0
    for d in max(means) - np.asarray(means):
        if d > 0:
            a, b = big_l / epsilon, math.sqrt(big_l)
            o_star = ((2 * a) / (-b + math.sqrt(b * b + 4 * a * d))) ** 2
            total += d * (2 ** (math.ceil(math.log2(o_star)) + 1) - 1)
    return total


def test_anytime_lazy_ucb_heuristic_regret():
    assert _heuristic_regret(SETTING1, 0.25, 10**6) == pytest.approx(4863, abs=1)  # computed by hand from Algorithm 1
    assert _heuristic_regret(SETTING1, 1.0, 10**6) == pytest.approx(2431, abs=1)
    assert _heuristic_regret(SETTING2, 0.5, 10**6) == pytest.approx(6553, abs=1)
    for means, epsilon in [(SETTING1, 1.0), (SETTING2, 0.25)]:
        r = dpbandits.simulate("anytime_lazy_ucb", means, 10**6, epsilon, 6, 0, checkpoints=[10**6])
        ratio = r.regret[:, -1].mean() / _heuristic_regret(means, epsilon, 10**6)
        assert 0.6 < ratio < 1.4  # loose: the heuristic ignores the noise and partial epochs


def test_anytime_lazy_ucb_noise_free_limit_matches_reference_exactly():
    """With 0/1 rewards and epsilon = 1e9 (noise ~1e-9) the run is deterministic: the fast kernel and the
    reference twin must give the same regret path (which of the equal bad arms is pulled may differ)."""
    for means in ([1.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0, 0.0]):
        ck = np.arange(1, 3001)
        fast = dpbandits.simulate("anytime_lazy_ucb", means, 3000, 1e9, 2, 1, checkpoints=ck)
        ref = reference.simulate("anytime_lazy_ucb", means, 3000, 1e9, 1, 2, checkpoints=ck)
        np.testing.assert_allclose(fast.regret, np.repeat(ref.regret, 2, axis=0))
        ref_pulls = np.repeat(np.sort(ref.pulls, axis=1), 2, axis=0)
        np.testing.assert_array_equal(np.sort(fast.pulls, axis=1), ref_pulls)


@pytest.mark.parametrize("k", [2, 5, 20])
def test_anytime_lazy_ucb_collapse_makes_the_per_round_decisions(k):
    """Collapsed rounds (certified leader runs) against the per-round loop on the same generator: the
    same pulls, releases and reward draws bit for bit; regret equal up to summation rounding."""
    means = np.linspace(0.75, 0.25, k)
    for seed, horizon in [(0, 200_000), *((s, 20_000) for s in range(1, 9))]:
        ck = np.unique(np.geomspace(1, horizon, 150).astype(np.int64))
        for epsilon in (0.25, 1.0, 1e9):
            fast = anytime_lazy_ucb_kernel(means, horizon, epsilon, ck, np.random.default_rng(seed), True, True)
            slow = anytime_lazy_ucb_kernel(means, horizon, epsilon, ck, np.random.default_rng(seed), True, False)
            for x, y in zip(fast[1:], slow[1:], strict=True):
                np.testing.assert_array_equal(x, y)
            np.testing.assert_allclose(fast[0], slow[0], rtol=1e-9)


def test_certified_finds_a_crossing_between_the_ends():
    """Arm 1 (steeper in s^2) passes arm 0 and falls back inside [s1, s2]: both ends alone look safe."""
    mu, hoeff, lap = np.array([0.0, -1.0]), np.array([0.0, 2.0]), np.array([0.5, 0.0])
    # lead of arm 0: 1 - 2 s + 0.5 s^2 > 0 at s = 0.5 and s = 3.5, negative near the vertex s = 2
    assert certified(0, 0.5, 0.5, mu, hoeff, lap) and certified(0, 3.5, 3.5, mu, hoeff, lap)
    assert not certified(0, 0.5, 3.5, mu, hoeff, lap)
    assert certified(0, 3.5, 9.0, mu, hoeff, lap)


def test_run_length_stops_at_the_round_before_the_leader_changes():
    """Arm 1 (a larger bonus) overtakes arm 0 near t = 1000: the certified run ends just before."""
    mu, lap = np.array([0.6, 0.5]), np.zeros(2)
    hoeff = np.array([0.0, 0.1 / math.sqrt(math.log(1000.5))])
    m = run_length(0, 10, 10**5, mu, hoeff, lap)
    index = [mu + hoeff * math.sqrt(math.log(t)) for t in range(10, 10 + m + 1)]
    assert all(np.argmax(x) == 0 and x[0] > x[1] for x in index[:-1])
    assert np.argmax(index[-1]) == 1 and 990 <= 10 + m <= 1001


# ---------------------------------------------------------------- AdaP-KLUCB


def adap(means, horizon, epsilon, checkpoints, seed, tie_break="random"):
    rng = np.random.default_rng(seed)
    return adap_klucb_kernel(
        np.asarray(means, dtype=float), horizon, epsilon, 3.1, 1e-9, checkpoints, rng, tie_break == "random"
    )


@pytest.mark.parametrize(("means", "epsilon"), [(SETTING1, 0.25), (SETTING1, 1.0), ([0.8, 0.3, 0.5], 0.5)])
def test_fast_adap_episode_invariants(means, epsilon):
    horizon = 5000
    gap = max(means) - np.asarray(means)
    steps = np.arange(1, horizon + 1)
    for seed in range(4):
        regret, n, total, last, _ = adap(means, horizon, epsilon, steps, seed)
        assert n.sum() == horizon and 0 <= total <= horizon
        assert is_pow2(last)
        full = np.array([is_pow2(x) for x in n])
        assert full.sum() >= len(means) - 1  # N_a powers of two, except the arm of a cut last episode
        np.testing.assert_array_equal(last[full], np.maximum(n[full] // 2, 1))
        inc = np.diff(np.concatenate([[0.0], regret]))
        for j, g in enumerate(gap):  # collapsed episodes fill the regret grid one pull at a time
            assert np.isclose(inc, g).sum() == n[j]
        assert regret[-1] == pytest.approx(gap @ n)


def test_reference_adap_releases():
    means = [0.7, 0.5, 0.3]
    pol, pulls = run_policy("adap_klucb", means, 4000, 0.5, seed=4)
    for j in range(3):
        sizes = [size for arm, size, _, _ in pol.releases if arm == j]
        assert sizes == [1] + [2**i for i in range(len(sizes) - 1)]  # init pull, then episodes 1, 2, 4, ...
        assert pol.n[j] == sizes[-1]
    done = np.array([sum(s for a, s, _, _ in pol.releases if a == j) for j in range(3)])
    assert np.sum(pulls - done) == pol.length - pol.left  # only the open episode is unreleased
    assert np.sum(pulls != done) <= 1


def test_adap_release_noise_is_laplace_on_the_mean():
    epsilon = 0.5
    scaled = []
    for seed in range(40):
        pol, _ = run_policy("adap_klucb", [0.6, 0.5, 0.4], 3000, epsilon, seed)
        scaled += [(noisy - true) * epsilon * n for _, n, true, noisy in pol.releases]
    assert len(scaled) > 800
    assert stats.kstest(scaled, stats.laplace.cdf).pvalue > P_MIN


def test_fast_adap_release_is_laplace_on_the_episode_mean():
    """Rewards (1, 0, 0), epsilon = 1e6: arm 0's index is exactly 1 and the others' below 1 until
    t ~ 7e4, so arm 0 plays episodes 1, 2, ..., 512 ending at T = 3 + 1023; its release is then
    1 + Lap(1/(512 eps)) and the other arms keep their initial 0 + Lap(1/eps)."""
    epsilon, means = 1e6, np.array([1.0, 0.0, 0.0])
    scaled = []
    for seed in range(2000):
        _, n, total, last, mu = adap(means, 1026, epsilon, np.array([1026]), seed)
        np.testing.assert_array_equal(n, [1024, 1, 1])
        np.testing.assert_array_equal(last, [512, 1, 1])
        assert total == 1024
        scaled.append((mu - means) * last * epsilon)
    scaled = np.array(scaled)
    assert stats.kstest(scaled[:, 0], stats.laplace.cdf).pvalue > P_MIN  # episode of 512 pulls
    assert stats.kstest(scaled[:, 1:].ravel(), stats.laplace.cdf).pvalue > P_MIN  # initial pulls


def test_adap_ties_are_broken_uniformly():
    """At t_l = K + 1 with small epsilon every clipped index is exactly 1.0: "first" takes arm 0,
    "random" a uniform arm."""
    means, runs = [0.6, 0.5, 0.4], 600
    first_episode = {}
    for tie_break in ("random", "first"):
        arms = []
        for seed in range(runs):
            n = adap(means, 4, 0.05, np.array([4]), seed, tie_break)[1]
            arms.append(int(np.argmax(n)))
        first_episode[tie_break] = np.bincount(arms, minlength=3)
    # "first" loses arm 0 only if its noise is below -alpha ln 4 / eps: probability 0.5 * 4^-3.1 < 0.7%
    assert runs - first_episode["first"][0] <= 16  # Binomial(600, 0.007) exceeds 16 w.p. < 1e-4
    assert stats.chisquare(first_episode["random"]).pvalue > P_MIN


def test_adap_anytime_prefix_does_not_depend_on_horizon():
    ck = np.array([10, 100, 500, 1000])
    short = adap(SETTING1, 1000, 0.5, ck, 5)
    long = adap(SETTING1, 4000, 0.5, np.append(ck, 4000), 5)
    np.testing.assert_array_equal(short[0], long[0][:-1])


# ---------------------------------------------------------------- fast vs reference in distribution


# Configurations chosen for power: with 200 runs a side, changing a bonus constant 3 -> 2.5 (lazy) or
# alpha 3.1 -> 3.6 (AdaP) moves the mean regret area by 5-9 standard errors.
EQUIVALENCE = [
    ("anytime_lazy_ucb", [0.9, 0.5, 0.4], 1.0, 1500, {}),
    ("lazy_dp_ts", [0.9, 0.5, 0.4], 4.0, 800, {}),
    ("adap_klucb", [0.9, 0.5, 0.4], 1.0, 3000, {}),
    ("adap_klucb", [0.7, 0.5, 0.4], 0.25, 3000, {"tie_break": "first"}),
]


@pytest.mark.parametrize(("name", "means", "epsilon", "horizon", "params"), EQUIVALENCE)
def test_fast_matches_reference_in_distribution(name, means, epsilon, horizon, params):
    runs = 200
    ck = np.arange(10, horizon + 1, 10)
    fast = dpbandits.simulate(name, means, horizon, epsilon, runs, 1, checkpoints=ck, **params)
    ref = reference.simulate(name, means, horizon, epsilon, runs, 2, checkpoints=ck, **params)
    # regret statistics are rounded: the engines sum the same gaps in different orders, and KS must
    # see one atom, not two floats 1e-13 apart
    samples = [(fast.regret[:, c], ref.regret[:, c]) for c in (ck.size // 8, -1)]
    samples.append((fast.regret.mean(axis=1), ref.regret.mean(axis=1)))  # area under the regret curve
    samples = [(np.round(x, 6), np.round(y, 6)) for x, y in samples]
    samples += [(fast.pulls[:, j], ref.pulls[:, j]) for j in range(len(means))]
    samples.append((fast.reward_sum, ref.reward_sum))
    for x, y in samples:
        assert same_distribution(x, y, P_MIN)
        assert same_mean(x, y)


def same_mean(x, y):
    """Two-sided large-sample (Welch) z-test of equal means at level P_MIN; exact if both are constant."""
    se = math.sqrt(np.var(x, ddof=1) / x.size + np.var(y, ddof=1) / y.size)
    if se == 0:
        return x[0] == y[0]
    return 2 * stats.norm.sf(abs(np.mean(x) - np.mean(y)) / se) > P_MIN
