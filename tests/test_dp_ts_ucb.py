"""DP-TS-UCB (Hu, Huang, Zhang, Lécuyer & Hegde, ICML 2025), as reconstructed in ``bandits/dp_ts_ucb.py``: the GDP
level solves Dong, Roth & Su's (2022) Corollary 2.13 equation, the sample budget phi, the lazy batches (1, 1, 2, 4,
...), the posterior's sd, at most phi Gaussian releases per batch over exactly its entries, and the privacy spent.

The expected values are written out here: Phi through ``math.erfc``, mu by bisection, the batch ranges from their
sizes, the GDP composition of the recorded releases as the sum of (weight / scale)^2 per entry.
"""

import math

import numpy as np
import pytest
from scipy import stats

from dpbandits import privacy
from dpbandits.bandits import dp_ts_ucb
from dpbandits.core import registry
from dpbandits.mechanisms import ledger as L
from dpbandits.reference.hu2025 import DPTSUCB

DELTA = math.exp(-10)
ALPHA = 1e-3  # KS test level
#: (means, horizon, epsilon): the contract's setting, and a longer run where both branches of sigma's max occur
SETTINGS = [((0.7, 0.5, 0.45), 400, 2.0), ((0.7, 0.5, 0.45), 2000, 2.0), ((1.0, 0.0, 0.0, 0.0), 3000, 0.5)]


def phi_cdf(x):
    return 0.5 * math.erfc(-x / math.sqrt(2.0))


def gdp_delta(mu, eps):
    """delta(eps) of mu-GDP (Dong, Roth & Su 2022, Corollary 2.13)."""
    return phi_cdf(-eps / mu + mu / 2) - math.exp(eps) * phi_cdf(-eps / mu - mu / 2)


def mu_by_bisection(eps, delta):
    lo, hi = 1e-6, 50.0
    for _ in range(200):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if gdp_delta(mid, eps) < delta else (lo, mid)
    return (lo + hi) / 2


def record(means, horizon, eps, seed, **params):
    """(rows, pulls, resolved params) of one recorded run."""
    p = registry.get("dp_ts_ucb").resolve(params)
    rows, pulls = privacy.record("dp_ts_ucb", means, horizon, eps, p, seed)
    return rows, pulls, p


def batches(n):
    """[(first, last)] of the completed batches of an arm with n rewards: sizes 1, 1, 2, 4, ..."""
    out, held, size = [], 0, 1
    while held + size <= n:
        out.append((held + 1, held + size))
        held += size
        size = held
    return out


@pytest.mark.parametrize("eps", [0.01, 0.5, 2.0, 10.0])
def test_mu_solves_the_gdp_to_dp_equation(eps):
    mu = dp_ts_ucb.gdp_mu(eps, DELTA)
    assert math.isclose(gdp_delta(mu, eps), DELTA, rel_tol=1e-6)
    assert math.isclose(mu, mu_by_bisection(eps, DELTA), rel_tol=1e-9)
    # delta grows with mu: 1 % more mu is a visibly larger delta, so the check above can fail
    assert gdp_delta(1.01 * mu, eps) > 1.01 * DELTA
    with pytest.raises(ValueError, match="delta"):
        dp_ts_ucb.gdp_mu(eps, 1.0)


def test_sample_budget():
    # phi = max(1, ceil(ln(T)^(1 - alpha))): ln 400 = 5.99, ln 1e6 = 13.8
    assert dp_ts_ucb.sample_budget(400, 0.5) == 3  # 5.99^0.5 = 2.45
    assert dp_ts_ucb.sample_budget(400, 0.0) == 6
    assert dp_ts_ucb.sample_budget(400, 1.0) == 1
    assert dp_ts_ucb.sample_budget(10**6, 0.5) == 4  # 13.8^0.5 = 3.72
    assert dp_ts_ucb.sample_budget(10**6, 0.25) == 8  # 13.8^0.75 = 7.17
    assert dp_ts_ucb.sample_budget(10**6, 3.0) == 1
    assert dp_ts_ucb.sample_budget(2, 3.0) == 1  # read as alpha = 1, not ln(2)^-2 = 2.08


def test_batch_schedule_written_out():
    assert batches(1) == [(1, 1)]
    assert batches(7) == [(1, 1), (2, 2), (3, 4)]
    assert batches(8) == [(1, 1), (2, 2), (3, 4), (5, 8)]


@pytest.mark.parametrize("which", range(len(SETTINGS)))
def test_releases_are_at_most_phi_gaussian_samples_per_batch_over_its_entries(which):
    """Every release is Gaussian, reads one completed batch (sizes 1, 1, 2, 4, ...) with weight 1/n and sd
    max(1/sqrt(n), sqrt(phi)/(mu n)); a batch gives at most phi of them, and every completed batch gives one but
    perhaps the one completed at the last round. Both branches of the max occur in the longer runs."""
    means, horizon, eps = SETTINGS[which]
    mu = mu_by_bisection(eps, DELTA)
    phi = max(1, math.ceil(math.log(horizon) ** 0.5))
    full, branches = 0, set()
    for seed in range(3):
        rows, pulls, _ = record(means, horizon, eps, seed)
        assert privacy.account.problems(rows, pulls) == []
        assert (rows[:, L.MECH] == L.GAUSS).all() and (rows[:, L.PART] == 0).all()
        np.testing.assert_array_equal(rows[:, L.DRAW], np.arange(len(rows)))
        n = rows[:, L.LAST] - rows[:, L.FIRST] + 1
        np.testing.assert_array_equal(rows[:, L.WEIGHT], 1.0 / n)
        sigma = np.maximum(1.0 / np.sqrt(n), math.sqrt(phi) / (mu * n))
        np.testing.assert_allclose(rows[:, L.SCALE], sigma, rtol=1e-9)
        branches |= set(np.where(1.0 / np.sqrt(n) >= math.sqrt(phi) / (mu * n), "sqrt", "gdp").tolist())
        for a, held in enumerate(pulls):
            mine = rows[rows[:, L.ARM] == a]
            ranges, counts = np.unique(mine[:, [L.FIRST, L.LAST]], axis=0, return_counts=True)
            assert counts.max() <= phi
            full += int((counts == phi).sum())
            expected = batches(int(held))
            got = [tuple(int(v) for v in r) for r in ranges]
            assert got == expected or (got == expected[:-1] and expected[-1][1] == held), (a, got, expected)
    assert full > 0, "no batch gave its phi samples: the cap is not exercised"
    if which:
        assert branches == {"sqrt", "gdp"}, branches


def test_noise_is_normal_at_the_recorded_scale():
    """noise / scale of the releases, pooled over runs, is N(0, 1) (KS at level ALPHA); the control noise /
    (2 scale) is rejected."""
    z, seed = [], 0
    while sum(map(len, z)) < 1000:
        rows, _, _ = record(*SETTINGS[1], seed)
        z.append(rows[:, L.NOISE] / rows[:, L.SCALE])
        seed += 1
    z = np.concatenate(z)
    assert stats.kstest(z, "norm").pvalue > ALPHA
    assert stats.kstest(z / 2.0, "norm").pvalue < ALPHA


def gdp_spent(rows, pulls):
    """float64: the largest sum over an entry's releases of (weight / scale)^2 (the squared GDP level of their
    composition), written out entry by entry."""
    worst = 0.0
    for a, held in enumerate(pulls):
        total = np.zeros(int(held) + 1)
        for r in rows[rows[:, L.ARM] == a]:
            total[int(r[L.FIRST]) : int(r[L.LAST]) + 1] += (r[L.WEIGHT] / r[L.SCALE]) ** 2
        worst = max(worst, total.max())
    return worst


@pytest.mark.parametrize("horizon", [400, 20_000])
def test_spent_is_the_promise(horizon):
    """The worst entry's releases compose to mu-GDP exactly (so (epsilon, delta)-DP), and reach it (the noise is
    not wasted, so a smaller one would fail). The PLD accountant agrees up to its rounding of noise multipliers
    down to powers of 1.01: at most the epsilon of (1.01 mu)-GDP at delta."""
    means, _, eps = SETTINGS[0]
    mu = mu_by_bisection(eps, DELTA)
    for seed in range(2):
        rows, pulls, _ = record(means, horizon, eps, seed)
        assert math.isclose(gdp_spent(rows, pulls), mu**2, rel_tol=1e-9)
    s = privacy.spent("dp_ts_ucb", horizon=horizon, means=list(means), epsilon=eps, runs=2)
    assert s.problems == [] and s.releases > 0
    lo, hi = eps, 2 * eps  # epsilon of (1.01 mu)-GDP at DELTA, by bisection: delta(eps) falls with eps
    for _ in range(100):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if gdp_delta(1.01 * mu, mid) > DELTA else (lo, mid)
    assert s.epsilon <= hi * (1 + 1e-6), s.text()


def test_twin_posterior_reads_only_its_batch_and_offers_the_max_after_phi():
    """On hand-made rewards: batches 1, 1, 2, 4; each posterior is its batch's mean with sd max(1/sqrt(n),
    sqrt(phi)/(mu n)); after phi samples an arm offers their maximum and draws nothing."""
    rng = np.random.default_rng(0)
    twin = DPTSUCB(2, 400, 2.0, rng, {"tie_break": "random", "delta": DELTA, "alpha": 0.5})
    mu, phi = mu_by_bisection(2.0, DELTA), 3
    assert twin.phi == phi and math.isclose(twin.mu, mu, rel_tol=1e-9)
    rewards = [1.0, 0.0, 0.25, 0.75, 0.5, 0.5, 1.0, 0.0]
    expected = {1: (1.0, 1), 2: (0.0, 1), 4: (0.5, 2), 8: (0.5, 4)}
    for i, x in enumerate(rewards, start=1):
        twin.update(0, x)
        mean, sigma, n, first = twin.posterior[0]
        if i in expected:
            assert (mean, n, first) == (expected[i][0], expected[i][1], i - n + 1)
            assert math.isclose(sigma, max(1 / math.sqrt(n), math.sqrt(phi) / (mu * n)), rel_tol=1e-12)
    twin.update(1, 0.0)
    twin.samples = [[0.1, 0.9, 0.3], [0.5, 0.6, 0.7]]
    state = rng.bit_generator.state
    assert twin.select(10) == 0 and rng.bit_generator.state == state
    twin.samples[1] = [0.5, 0.95, 0.7]
    assert twin.select(11) == 1
