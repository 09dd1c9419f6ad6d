"""The release ledger of the private BAI algorithms (Chen, Karthik, Chee & Tan 2024: DP-BAI, Algorithm 1;
DP-BAI-Gauss, Algorithm 2; Baseline, Section 5; DP-OD, Appendix E.1): each trial's book records the releases it
really makes (item-level DP: an entry is one reward of one arm's stream), and they compose to the promise."""

import math

import numpy as np
import pytest
from _readings import readings
from scipy import optimize, stats

import dpbandits.privacy as privacy
from dpbandits import ALGORITHMS
from dpbandits.bai import section5_instance, two_arm_instance
from dpbandits.bai.table import UniformTable, reward_bounds
from dpbandits.mechanisms import ledger
from dpbandits.mechanisms.ledger import ARM, DRAW, FIRST, GAUSS, LAPLACE, LAST, MECH, NOISE, PART, SCALE, WEIGHT
from dpbandits.privacy import account

NAMES = ["dp_bai", "dp_bai_gauss", "baseline_bai", "dp_od"]
ELIMINATION = ["dp_bai", "dp_bai_gauss", "baseline_bai"]
MEANS = [0.9, 0.7, 0.6, 0.5]  # the contract's BAI setting (dpbandits.privacy.contract_setting)
DELTA = 1e-5  # dp_bai_gauss's default delta
ALPHA = 1e-3  # KS tests


def eps_of(name: str) -> float:
    """The contract's epsilon (dpbandits.privacy.contract_setting); at most 0.9 for the classical Gaussian
    mechanism, which needs epsilon < 1."""
    eps = privacy.contract_setting(name)[2]
    return min(eps, 0.9) if name == "dp_bai_gauss" else eps


CASES = [(n, p) for n in NAMES for p in readings(n)]
IDS = [f"{n}-{','.join(f'{k}={v}' for k, v in p.items()) or 'default'}" for n, p in CASES]


def means_instance():
    """MEANS as unit-vector arms (theta = MEANS) with U[mu - 0.1, mu + 0.1] rewards (0.1 = min(mu, 1 - mu))."""
    means = np.array(MEANS)
    return np.eye(means.size), means - 0.1, means + 0.1


def section5():
    """Section 5's instance (30 arms in 2 dimensions: DP-BAI's Max-Det branch) with U[0, 2 mu] rewards."""
    arms, theta = section5_instance()
    return (arms, *reward_bounds(arms @ theta))


def trial(name, horizon, params=None, seed=0, book=None, instance=None, rng=None):
    """(recommended arm, pulls) of one trial of ``name`` on MEANS (or ``instance``) recording into ``book``."""
    alg = ALGORITHMS[name]
    rng = np.random.default_rng(seed) if rng is None else rng
    return alg.releases.trial(MEANS, horizon, eps_of(name), alg.resolve(params or {}), rng, book, instance)


def recorded(name, horizon, params=None, seed=0, instance=None, rng=None):
    """(rows, pulls) of one recorded trial; the accountant finds nothing wrong with its book."""
    book = ledger.new_book(4096)
    _, pulls = trial(name, horizon, params, seed, book, instance, rng)
    rows = ledger.rows(book)
    assert account.problems(rows, pulls) == []
    return rows, pulls


# ------------------------------------------------------------------------------ (1) recording changes nothing


@pytest.mark.parametrize(("name", "params"), CASES, ids=IDS)
def test_recording_changes_no_draw_and_no_result(name, params):
    # a seed gives the same recommended arm and pulls with a book, without, and through the simulation's own
    # entry (Algorithm.run on the lazily drawn table simulate_bai builds)
    alg, horizon = ALGORITHMS[name], 1500
    for instance in (means_instance(), section5()):
        arms, lo, hi = instance
        for seed in range(4):
            plain = trial(name, horizon, params, seed, None, instance)
            book = ledger.new_book(4096)
            noted = trial(name, horizon, params, seed, book, instance)
            assert ledger.rows(book).size
            assert plain[0] == noted[0]
            np.testing.assert_array_equal(plain[1], noted[1])
            rng = np.random.default_rng(seed)
            run = alg.run(arms, horizon, eps_of(name), [rng], alg.resolve(params), table_maker(lo, hi, horizon))
            assert run[0] == plain[0]


def table_maker(lo, hi, horizon):
    """The reward-table factory simulate_bai hands Algorithm.run."""
    return lambda rng: UniformTable(lo, hi, horizon, rng)


def test_the_means_instance_is_unit_vectors_with_centred_uniform_rewards():
    # the default book runs on MEANS embedded as unit vectors: the same trial as on means_instance() written out
    for name in NAMES:
        a = ALGORITHMS[name].releases(
            MEANS, 900, eps_of(name), ALGORITHMS[name].resolve({}), np.random.default_rng(3), None
        )
        b = trial(name, 900, seed=3, instance=means_instance())[1]
        np.testing.assert_array_equal(a, b)


# ------------------------------------------------------------------- (2) the ledger is the kernel's releases


class StandardDraws:
    """A Generator whose ``laplace`` and ``normal`` return loc + scale * eta[i], eta's values in order; ``used``
    counts them. Rewards and tie picks come from ``numpy.random.default_rng(seed)``."""

    def __init__(self, seed, eta):
        self.rng, self.eta, self.used = np.random.default_rng(seed), eta, 0

    def laplace(self, loc=0.0, scale=1.0, size=None):
        n = int(np.prod(size))
        out = loc + scale * self.eta[self.used : self.used + n].reshape(size)
        self.used += n
        return out

    normal = laplace

    def random(self, size=None):
        return self.rng.random(size)


@pytest.mark.parametrize("name", NAMES)
def test_on_replay_each_release_is_one_standard_draw_times_its_scale(name):
    for instance in (means_instance(), section5()):
        for seed in range(3):
            eta = np.random.default_rng(100 + seed).standard_normal(500)
            rng = StandardDraws(seed, eta)
            rows, _ = recorded(name, 2000, seed=seed, instance=instance, rng=rng)
            heads = rows[rows[:, PART] == 0]
            draws = heads[:, DRAW].astype(int)
            np.testing.assert_array_equal(np.sort(draws), np.arange(rng.used))  # each draw used, once
            np.testing.assert_array_equal(heads[:, NOISE], heads[:, SCALE] * eta[draws])
            assert set(heads[:, MECH]) == {GAUSS if name == "dp_bai_gauss" else LAPLACE}


@pytest.mark.parametrize("name", NAMES)
def test_recorded_noise_is_the_standard_law_at_the_recorded_scale(name):
    # 150 trials of 6 releases (K = 4: phases of 4 and 2 arms or coordinates): the pooled noise / scale is
    # standard Laplace (Gaussian); the control noise / (2 scale) must be rejected at the same level
    rows = np.vstack([recorded(name, 1200, seed=s)[0] for s in range(150)])
    heads = rows[rows[:, PART] == 0]
    assert len(heads) >= 800
    law = "norm" if name == "dp_bai_gauss" else "laplace"
    std = heads[:, NOISE] / heads[:, SCALE]
    assert stats.kstest(std, law).pvalue > ALPHA
    assert stats.kstest(std / 2.0, law).pvalue < ALPHA


# ----------------------------------------------------------------- (3) the ranges are the mechanism's own


def elimination_scale(name, n):
    """Noise scale for a mean of n: Laplace 1/(eps n); Gaussian sqrt(2 ln(1.25/delta)) / (eps n) (Dwork & Roth
    2014, Theorem A.1, sensitivity 1/n)."""
    if name == "dp_bai_gauss":
        return math.sqrt(2.0 * math.log(1.25 / DELTA)) / (eps_of(name) * n)
    return 1.0 / (eps_of(name) * n)


# (instance, its active-set sizes s_1..s_{M+1} under the dexp schedule, dimension d)
SCHEDULES = {"means": (means_instance, [4, 2, 1], 4), "section5": (section5, [30, 13, 3, 1], 2)}


@pytest.mark.parametrize("name", ELIMINATION)
@pytest.mark.parametrize("where", list(SCHEDULES))
def test_elimination_releases_read_each_phase_s_fresh_rewards(name, where):
    # Algorithm 1: phase p releases the means of k_p arms (s_p; d in the Max-Det branch, s_p > max(d, d^2/4)),
    # each of n_p = ceil(T' / (M k_p)) fresh rewards, T' = T - sum_p k_p; the means are noised with weight 1/n_p
    make, sizes, d = SCHEDULES[where]
    maxdet = name != "baseline_bai"
    k = [d if maxdet and s > max(d, math.ceil(d * d / 4)) else s for s in sizes[:-1]]
    for horizon in (600, 2000, 4000):
        t_prime, phases = horizon - sum(k), len(k)
        for seed in range(3):
            rows, pulls = recorded(name, horizon, seed=seed, instance=make())
            assert (rows[:, PART] == 0).all() and len(rows) == sum(k)
            pos, i = np.zeros(len(pulls), dtype=np.int64), 0
            for k_p in k:
                n = math.ceil(t_prime / (phases * k_p))
                for r in rows[i : i + k_p]:
                    a = int(r[ARM])
                    assert (r[FIRST], r[LAST]) == (pos[a] + 1, pos[a] + n)
                    assert r[WEIGHT] == pytest.approx(1.0 / n, rel=1e-15)
                    assert r[SCALE] == pytest.approx(elimination_scale(name, n), rel=1e-15)
                    pos[a] += n
                assert len(set(rows[i : i + k_p, ARM])) == k_p
                i += k_p
            np.testing.assert_array_equal(pos, pulls)


@pytest.mark.parametrize("params", [{}, {"dpod_l1": "global"}, {"g_design": "fw"}])
def test_dp_od_releases_read_each_phase_design_pulls(params):
    # Appendix E.1 on unit-vector arms (d = K = 4, R = 2): m = (T - min(K, d(d+1)/2) - ceil(d/2)) / R; phase 1
    # pulls every arm ceil(m/4) times (uniform G-optimal design) and coordinate i of u_1 is arm i's sum
    # (weight 1, Lap(1/eps): max l1 = 1); phase 2 pulls the 2 survivors ceil(m/2) times, their coordinates are
    # orthonormal (sum over coordinates of weight^2 = 1), noised with Lap(L_2/eps)
    eps = eps_of("dp_od")
    for horizon in (600, 2000, 4000):
        m = (horizon - 4 - 2) / 2
        for seed in range(3):
            rows, pulls = recorded("dp_od", horizon, params, seed)
            one, two = rows[rows[:, FIRST] == 1], rows[rows[:, FIRST] > 1]
            np.testing.assert_array_equal(one[:, ARM], [0, 1, 2, 3])
            assert (one[:, LAST] == math.ceil(m / 4)).all() and (one[:, WEIGHT] == 1.0).all()
            assert (one[:, SCALE] == 1.0 / eps).all() and (one[:, PART] == 0).all()
            survivors = sorted(set(two[:, ARM].astype(int)))
            assert len(survivors) == 2
            assert (two[:, FIRST] == math.ceil(m / 4) + 1).all()
            assert (two[:, LAST] == math.ceil(m / 4) + math.ceil(m / 2)).all()
            l1 = max(two[two[:, ARM] == a, WEIGHT].sum() for a in survivors)
            for a in survivors:
                assert (two[two[:, ARM] == a, WEIGHT] ** 2).sum() == pytest.approx(1.0, rel=1e-12)
            big_l = 1.0 if params.get("dpod_l1") == "global" else l1
            assert two[:, SCALE] == pytest.approx(big_l / eps, rel=1e-12)
            np.testing.assert_array_equal(pulls, one[:, LAST] + [math.ceil(m / 2) * (a in survivors) for a in range(4)])


@pytest.mark.parametrize("ratio", [0.5, 1.0, 7.0])
def test_dp_od_two_arms_release_ratio_and_one(ratio):
    # two_arm_instance(r): a_1 = (r, 0), a_2 = (0, 1), one phase, each arm pulled ceil((T - 2) / 2) times;
    # u = (r * sum_1, sum_2) + Lap(max(r, 1) / eps) each
    arms, theta = two_arm_instance(ratio)
    for horizon in (500, 1000):
        rows, _ = recorded("dp_od", horizon, instance=(arms, *reward_bounds(arms @ theta)))
        n = math.ceil((horizon - 2) / 2)
        scale = max(ratio, 1.0) / eps_of("dp_od")
        expected = [[0, 1, n, ratio, scale], [1, 1, n, 1.0, scale]]
        np.testing.assert_allclose(rows[:, [ARM, FIRST, LAST, WEIGHT, SCALE]], expected, rtol=1e-15)


def test_dp_od_weights_are_the_projected_coefficients():
    # d = 3, R = 2: phase 2 keeps a_1 = (0.7, 0.3, 0), a_2 = (0.2, 0.8, 0) and projects them onto an orthonormal
    # basis of their plane; u_2's coefficients are their coordinates there, whose l1 norms exceed the original
    # ones (an l1 norm is not rotation invariant). The ledger records them: under dpod_l1="global" (L = max
    # l1 in the original coordinates = 1) an entry of phase 2 spends eps * l1(projected) > eps.
    arms = np.array([[0.7, 0.3, 0.0], [0.2, 0.8, 0.0], [0.0, 0.0, 1.0]])
    mu = arms @ np.array([0.5, 0.4, 0.1])
    instance = (arms, *reward_bounds(mu, "uniform_centered", 0.1))
    _, _, vt = np.linalg.svd(arms[:2], full_matrices=False)
    projected = np.abs(arms[:2] @ vt.T).sum(axis=1)  # l1 norms of the two survivors' coordinates
    eps = eps_of("dp_od")
    for l1, spent in (("phase", eps), ("global", eps * projected.max())):
        rows, pulls = recorded("dp_od", 600, {"dpod_l1": l1}, instance=instance)
        two = rows[rows[:, FIRST] > 1]
        assert set(two[:, ARM]) == {0, 1}  # phase 1 kept a_1, a_2 (the largest means, 0.47 and 0.42, vs 0.1)
        np.testing.assert_allclose([two[two[:, ARM] == a, WEIGHT].sum() for a in (0, 1)], projected, rtol=1e-12)
        worst = max(pure_sum(rows, a, j) for a in range(3) for j in range(1, pulls[a] + 1))
        assert worst == pytest.approx(spent, rel=1e-12)
    assert projected.max() > 1.08


def pure_sum(rows, arm, j) -> float:
    """Basic composition at entry j of ``arm``: the sum of weight / scale over the Laplace rows reading it."""
    reads = (rows[:, ARM] == arm) & (rows[:, FIRST] <= j) & (rows[:, LAST] >= j) & (rows[:, MECH] == LAPLACE)
    return float((rows[reads, WEIGHT] / rows[reads, SCALE]).sum())


# --------------------------------------------------------------------------- (4) the spent epsilon, per entry


@pytest.mark.parametrize("name", ["dp_bai", "baseline_bai", "dp_od"])
def test_pure_spent_at_the_contract_setting_is_epsilon(name):
    # every entry is read by one release: a mean of n (weight 1/n, Lap(1/(eps n))), or dp_od's unit-vector
    # coordinate (weight 1, Lap(L/eps), L = 1): (1/n) / (1/(eps n)) = 1 / (1/eps) = eps
    n, eps = 1000, eps_of(name)
    s = privacy.spent(name)
    assert s.epsilon == pytest.approx((1 / n) / (1 / (eps * n)), rel=1e-12)
    assert not s.exceeds and not s.problems


def gaussian_epsilon(sigma: float, delta: float) -> float:
    """epsilon at delta of one Gaussian release of sensitivity 1 (Balle & Wang 2018, Theorem 8):
    delta(eps) = Phi(1/(2 sigma) - eps sigma) - e^eps Phi(-1/(2 sigma) - eps sigma)."""
    curve = lambda e: (  # noqa: E731
        stats.norm.cdf(0.5 / sigma - e * sigma) - math.exp(e) * stats.norm.cdf(-0.5 / sigma - e * sigma) - delta
    )
    return optimize.brentq(curve, 0.0, 50.0)


def test_gauss_spent_is_one_gaussian_release_per_entry():
    # each entry: one mean of n with sigma = sqrt(2 ln(1.25/delta)) / (eps n), noise multiplier sigma n; the
    # accountant rounds multipliers down by at most a factor 1.01 (an upper bound)
    eps = eps_of("dp_bai_gauss")
    multiplier = math.sqrt(2.0 * math.log(1.25 / DELTA)) / eps
    s = privacy.spent("dp_bai_gauss", epsilon=eps)
    assert gaussian_epsilon(multiplier, DELTA) * (1 - 1e-6) <= s.epsilon
    assert s.epsilon <= gaussian_epsilon(multiplier / 1.01, DELTA) * (1 + 1e-6)
    assert s.epsilon < eps and not s.exceeds
    assert s.setting["means"] == MEANS and s.setting["horizon"] == privacy.contract_setting("dp_bai_gauss")[1]


@pytest.mark.parametrize(("name", "params"), CASES, ids=IDS)
def test_every_reading_spends_at_most_the_promise(name, params):
    for horizon, means in ((4000, MEANS), (30_000, [0.9, 0.8, 0.7, 0.6, 0.5, 0.4, 0.3, 0.2])):
        s = privacy.spent(name, epsilon=eps_of(name), horizon=horizon, means=means, params=params, runs=3)
        assert not s.exceeds, s.text()
