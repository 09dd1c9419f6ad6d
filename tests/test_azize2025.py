"""DP-KLUCB and DP-IMED (Azize, Wu, Honda, Orabona, Ito & Basu 2025, arXiv 2505.05613; reconstructed from the
abstract, docs/reconstructions.md): the phases, the release ledger, the private mean without forgetting, the
indices on hand-made states and the spent epsilon, each against formulas written out here.

The divergence d_eps(x, y) = inf over z between x and y of eps |x - z| + kl(z, y) is computed here by a bounded
numerical minimisation over z of the typed-out objective, not by the package's closed form.
"""

import math

import numpy as np
import pytest
from scipy import optimize, stats

from dpbandits import privacy
from dpbandits.bandits import dp_imed, dp_klucb
from dpbandits.bandits._dpphases import State, private_mean
from dpbandits.core import registry
from dpbandits.mechanisms import ledger as L
from dpbandits.reference.azize2025 import DPIMED, DPKLUCB

NAMES = ["dp_klucb", "dp_imed"]
GAP_MEANS = np.array([0.9, 0.5, 0.2])  # distinct gaps 0, 0.4, 0.7: the regret increment of a step names its arm


def kl(p, q):
    """Bernoulli KL divergence p ln(p/q) + (1-p) ln((1-p)/(1-q)), 0 ln 0 = 0, for q in (0, 1)."""
    out = p * math.log(p / q) if p > 0 else 0.0
    return out + ((1 - p) * math.log((1 - p) / (1 - q)) if p < 1 else 0.0)


def d_typed(x, y, eps):
    """min over z in [min(x, y), max(x, y)] of eps |x - z| + kl(z, y), by bounded minimisation and the endpoints."""
    if x == y:
        return 0.0
    lo, hi = min(x, y), max(x, y)

    def f(z):
        return eps * abs(x - z) + kl(z, y)

    z = optimize.minimize_scalar(f, bounds=(lo, hi), method="bounded", options={"xatol": 1e-13}).x
    return min(f(z), f(lo), f(hi))


def index_typed(x, n, level, eps):
    """max{q in [x, 1] : n d_eps(x, q) <= level}, by root finding on the typed divergence (q < 1 - 1e-12)."""
    top = 1.0 - 1e-12
    if n * d_typed(x, top, eps) <= level:
        return 1.0
    return optimize.brentq(lambda q: n * d_typed(x, q, eps) - level, x, top, xtol=1e-13)


def params(name, **extra):
    return registry.get(name).resolve(extra)


def actions(name, means, horizon, eps, seed, book=None):
    """(arm int[T] pulled at each round, pulls int[K]) of one fast run, read off the per-step regret increments."""
    rng = np.random.default_rng(seed)
    out, pulls, _ = registry.get(name).run(means, horizon, eps, np.arange(1, horizon + 1), rng, params(name), book=book)
    gap = means.max() - means
    steps = np.diff(np.concatenate([[0.0], out]))
    arms = np.array([int(np.argmin(np.abs(gap - s))) for s in steps])
    assert np.allclose(gap[arms], steps, atol=1e-9)
    return arms, pulls


def phases(arms, k):
    """[(arm, first entry, last entry, completed)] of the phases: rounds 1..K pull arm a at round a + 1 (length 1);
    each later phase pulls one arm for as many rounds as its entries so far; the horizon may cut the last."""
    count = [0] * k
    out, i = [], 0
    while i < len(arms):
        a = int(arms[i])
        length = max(count[a], 1)
        block = arms[i : i + length]
        assert (block == a).all(), f"round {i + 1}: a phase of arm {a} of {length} rounds was interrupted"
        out.append((a, count[a] + 1, count[a] + len(block), len(block) == length))
        count[a] += len(block)
        i += len(block)
    assert [p[0] for p in out[:k]] == list(range(k))
    return out


@pytest.mark.parametrize("name", NAMES)
def test_phases_double_each_arms_count_and_each_completed_phase_is_one_laplace_release(name):
    """The action sequence splits into the phases written out in :func:`phases`; the ledger holds, in order, one
    Laplace row per completed phase: that arm, exactly that phase's entries, weight 1, scale 1/eps, draws 0, 1, ..."""
    eps, horizon = 1.0, 300
    cut = 0
    for seed in range(4):
        book = L.new_book(1000)
        arms, pulls = actions(name, GAP_MEANS, horizon, eps, seed, book)
        found = phases(arms, 3)
        np.testing.assert_array_equal(np.bincount(arms, minlength=3), pulls)
        expected = [(L.LAPLACE, a, first, last, 1.0, 1.0 / eps) for a, first, last, done in found if done]
        rows = L.rows(book)
        got = [tuple(float(v) for v in r[[L.MECH, L.ARM, L.FIRST, L.LAST, L.WEIGHT, L.SCALE]]) for r in rows]
        assert got == expected
        np.testing.assert_array_equal(rows[:, L.DRAW], np.arange(len(rows)))
        assert (rows[:, L.PART] == 0).all()
        cut += not found[-1][3]
    assert cut > 0, "no run ended in a cut phase: the no-release-when-cut rule went unexercised"


@pytest.mark.parametrize("name", NAMES)
def test_recorded_noise_is_laplace_at_the_recorded_scale(name):
    """noise / scale over many releases is Lap(1) (KS, level 1e-3); the control noise / (2 scale) is rejected (its
    KS distance to Lap(1) is 1/8, far above the critical value 1.95 / sqrt(n) at n >= 1000)."""
    z = []
    seed = 0
    while sum(map(len, z)) < 1000:
        book = L.new_book(1000)
        registry.get(name).releases_function()(GAP_MEANS, 2000, 0.5, params(name), np.random.default_rng(seed), book)
        rows = L.rows(book)
        z.append(rows[:, L.NOISE] / rows[:, L.SCALE])
        seed += 1
    z = np.concatenate(z)
    assert stats.kstest(z, "laplace").pvalue > 1e-3
    assert stats.kstest(z / 2.0, "laplace").pvalue < 1e-3


@pytest.mark.parametrize("kernel", [dp_klucb.dp_klucb_kernel, dp_imed.dp_imed_kernel])
def test_released_total_keeps_every_phase_no_forgetting(kernel):
    """With rewards fixed (means 1 and 0) a phase's sum is its length times the mean, so the total the kernel keeps
    per arm must be sum over that arm's rows of (mean (last - first + 1) + noise): every phase, not the last only."""
    means, eps, horizon = np.array([1.0, 0.0, 0.0]), 2.0, 500
    extra = (0.0, 1e-9) if kernel is dp_klucb.dp_klucb_kernel else ()
    for seed in range(3):
        book = L.new_book(1000)
        rng = np.random.default_rng(seed)
        *_, noisy = kernel(means, horizon, eps, *extra, np.array([horizon]), rng, True, 0, book)
        rows = L.rows(book)
        for a in range(3):
            mine = rows[rows[:, L.ARM] == a]
            assert len(mine) >= 2
            total = (means[a] * (mine[:, L.LAST] - mine[:, L.FIRST] + 1) + mine[:, L.NOISE]).sum()
            assert noisy[a] == pytest.approx(total, rel=1e-12, abs=1e-12)


def test_private_mean_is_all_released_sums_over_all_entries_clipped():
    # (3.0, -0.5, 10.0, 2.25) over (4, 2, 8, 6) entries: 0.75, -0.25 -> 0, 1.25 -> 1, 0.375
    state = State(np.array([3.0, -0.5, 10.0, 2.25]), np.array([4, 2, 8, 6]), np.zeros(4), np.zeros(1))
    assert [private_mean(state, a) for a in range(4)] == [0.75, 0.0, 1.0, 0.375]
    twin = DPIMED(4, 100, 1.0, np.random.default_rng(0), params("dp_imed"))
    twin.released, twin.N = list(state.noisy), list(state.n)
    assert [twin.mean(a) for a in range(4)] == [0.75, 0.0, 1.0, 0.375]


def test_the_twin_releases_and_keeps_every_phase():
    # rewards 1 on arm 0, 0 on arm 1: every release is length * reward + its noise, and the total keeps them all
    twin = DPKLUCB(2, 200, 1.0, np.random.default_rng(1), params("dp_klucb"))
    for t in range(1, 201):
        a = twin.select(t)
        twin.update(a, 1.0 if a == 0 else 0.0)
    for a in (0, 1):
        mine = [r for r in twin.releases if r[0] == a]
        assert [r[1] for r in mine] == [1] + [2**i for i in range(len(mine) - 1)]
        assert all(s == (a == 0) * n for _, n, s, _ in mine)
        assert twin.released[a] == pytest.approx(sum(r[3] for r in mine), rel=1e-12)
        assert twin.N[a] == sum(r[1] for r in mine)


CASES = [  # (x, n, level, eps): interior solutions at small and large eps, an index of 1, a mean of 1
    (0.3, 10, math.log(100), 1.0),
    (0.6, 40, math.log(1000), 4.0),
    (0.05, 3, math.log(20), 0.5),
    (0.5, 1, math.log(3), 1.0),  # n eps (1 - x) = 0.5 <= ln 3: index 1
    (1.0, 5, 2.0, 1.0),
]


@pytest.mark.parametrize(("x", "n", "level", "eps"), CASES)
def test_dp_klucb_index_solves_n_d_eps_equals_the_level(x, n, level, eps):
    expected = index_typed(x, n, level, eps)
    assert dp_klucb.dp_klucb_upper(x, n, level, eps, 1e-12) == pytest.approx(expected, abs=1e-9)
    twin = DPKLUCB(2, 100, eps, np.random.default_rng(0), params("dp_klucb", klucb_tol=1e-12))
    assert twin.upper(x, n, level) == pytest.approx(expected, abs=1e-9)
    if expected < 1.0:  # the bracket's end is feasible and 1e-6 above it is not
        q = dp_klucb.dp_klucb_upper(x, n, level, eps, 1e-12)
        assert n * d_typed(x, q, eps) <= level + 1e-9 < n * d_typed(x, q + 1e-6, eps)


def test_dp_klucb_level_and_the_twins_choice_on_a_hand_made_state():
    for t, c in [(2, 5.0), (3, 0.0), (1000, 0.0), (1000, 3.0), (50, -0.5)]:
        expected = math.log(t) + (c * math.log(math.log(t)) if t >= 3 else 0.0)
        assert dp_klucb.dp_klucb_level(t, c) == pytest.approx(expected, rel=1e-15)
    # arm 0: mean 0.6 over 200 entries, arm 1: -0.5 / 8 clipped to 0; a higher level favours the less pulled arm 1
    # (typed indices 0.722 > 0.669 at c = 0, 0.761 < 0.920 at c = 3)
    eps, t = 2.0, 1000
    picks = {}
    for c in (0.0, 3.0):
        twin = DPKLUCB(2, t, eps, np.random.default_rng(0), params("dp_klucb", c=c))
        twin.released, twin.N = [120.0, -0.5], [200, 8]
        level = math.log(t) + c * math.log(math.log(t))
        typed = [index_typed(0.6, 200, level, eps), index_typed(0.0, 8, level, eps)]
        assert twin.choose(t) == int(np.argmax(typed))
        picks[c] = twin.choose(t)
    assert picks == {0.0: 0, 3.0: 1}, "the state does not tell the two levels apart"


def test_dp_imed_index_on_a_hand_made_state():
    # means 0.75, 0.5, 1.25 -> 1 (the best, clipped), -0.1 -> 0; counts 4, 2, 8, 10
    eps = 0.7
    noisy, n = np.array([3.0, 1.0, 10.0, -1.0]), np.array([4, 2, 8, 10])
    state = State(noisy, n, np.zeros(4), np.zeros(1))
    dp_imed.dp_imed_index(state, eps)
    means = [0.75, 0.5, 1.0, 0.0]
    # d_eps(x, 1) = eps (1 - x): kl(z, 1) is infinite below z = 1, so z = 1
    typed = [n[a] * eps * (1 - means[a]) + math.log(n[a]) for a in range(4)]
    np.testing.assert_allclose(-state.index, typed, rtol=1e-12)
    # an interior best 0.8: the typed divergence; the argmin is the twin's choice
    noisy = np.array([3.0, 1.0, 6.4, -1.0])
    state = State(noisy, n, np.zeros(4), np.zeros(1))
    dp_imed.dp_imed_index(state, eps)
    means = [0.75, 0.5, 0.8, 0.0]
    typed = [n[a] * d_typed(means[a], 0.8, eps) + math.log(n[a]) for a in range(4)]
    np.testing.assert_allclose(-state.index, typed, rtol=1e-9)
    twin = DPIMED(4, 100, eps, np.random.default_rng(0), params("dp_imed"))
    twin.released, twin.N = list(noisy), list(n)
    assert twin.choose(50) == int(np.argmin(typed)) == 1  # fewer pulls beat the best arm's ln 8


@pytest.mark.parametrize("name", NAMES)
def test_spent_epsilon_is_epsilon(name):
    """Every entry is read by one release of weight 1 at scale 1/eps: the worst entry spends exactly eps (within the
    accountant's relative rounding 1e-9), at the contract's setting and at a long horizon."""
    for kwargs in ({}, {"epsilon": 0.5, "horizon": 20_000, "runs": 2}):
        s = privacy.spent(name, **kwargs)
        eps = kwargs.get("epsilon", registry.get(name).contract.bernoulli.epsilon)
        assert not s.problems and not s.exceeds
        assert s.promise == (eps, 0.0)
        assert abs(s.epsilon - eps) <= 1e-9 * eps
