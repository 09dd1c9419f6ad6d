"""The release ledgers of the kernels that draw their noise from a numpy Generator: DP-SE 2 and modified DP-SE 2
(Sajed's thesis, Algorithm 10: a sparse vector per epoch, then a Laplace histogram), Lazy-DP-TS and
Anytime-Lazy-UCB (Hu & Hegde, Algorithms 1 and 3: lazy doubling epochs), AdaP-KLUCB and AdaP-UCB (Azize & Basu,
Algorithm 1: the first pull, then doubling episodes).

Recording changes no draw; the recorded noise is the Generator's Laplace noise at the recorded scale; the ranges
are each mechanism's schedule, written out here; the spent epsilon is the budget split of each paper.
"""

import inspect
import math

import numpy as np
import pytest
from scipy import stats

from dpbandits import privacy
from dpbandits.bandits import adap_klucb, adap_ucb, anytime_lazy_ucb, dp_se2, lazy_dp_ts
from dpbandits.core import registry
from dpbandits.mechanisms import ledger as L

ALPHA = 1e-3  # KS test level
#: algorithm -> (module, its kernel's name in the module)
KERNELS = {
    "dp_se2": (dp_se2, "dp_se2_kernel"),
    "dp_se2_modified": (dp_se2, "dp_se2_kernel"),
    "lazy_dp_ts": (lazy_dp_ts, "lazy_dp_ts_kernel"),
    "anytime_lazy_ucb": (anytime_lazy_ucb, "anytime_lazy_ucb_kernel"),
    "adap_klucb": (adap_klucb, "adap_klucb_kernel"),
    "adap_ucb": (adap_ucb, "adap_ucb_kernel"),
}
#: every non-default reading of each algorithm (the default reading is {})
READINGS = {
    "dp_se2": [{"check_schedule": "pow2plus1"}],
    "dp_se2_modified": [{"check_schedule": "pow2plus1"}],
    "lazy_dp_ts": [{"bonus_log": "log2"}, {"bonus_log": "log10"}, {"tie_break": "first"}],
    "anytime_lazy_ucb": [{"tie_break": "first"}],
    "adap_klucb": [{"alpha": 4.0}, {"tie_break": "first"}],
    "adap_ucb": [{"alpha": 4.0}, {"ucb_log": "t"}, {"tie_break": "first"}],
}
CASES = [(name, p) for name in KERNELS for p in [{}] + READINGS[name]]
#: (means, horizon, epsilon) beside each contract setting: more arms, longer runs, another epsilon
SETTINGS = [((0.9, 0.8, 0.5), 3000, 0.5), ((0.7, 0.6, 0.55, 0.2), 20_000, 2.0), ((0.6, 0.55, 0.5, 0.3), 200_000, 5.0)]


def setting(name, params, which):
    """(means, horizon, epsilon, resolved params): the contract's setting (which = None) or SETTINGS[which]."""
    means, horizon, eps, c_params = privacy.contract_setting(name)
    if which is not None:
        means, horizon, eps = SETTINGS[which]
    return np.array(means, dtype=float), horizon, eps, registry.get(name).resolve({**c_params, **params})


def record(name, means, horizon, eps, params, seed):
    """(head rows, all rows, pulls) of one run that records its releases (the registry's entry point)."""
    book = L.new_book(20_000)
    pulls = registry.get(name).releases_function()(means, horizon, eps, params, np.random.default_rng(seed), book)
    rows = L.rows(book)
    return rows[rows[:, L.PART] == 0], rows, np.asarray(pulls)


def with_book(kernel, book):
    """``kernel`` called with the same arguments plus ``book`` (its last parameter)."""
    names = list(inspect.signature(kernel.py_func).parameters)

    def call(*args):
        return kernel(**dict(zip(names, args, strict=False)), book=book)

    return call


# (1) recording changes nothing ------------------------------------------------------------------------------


@pytest.mark.parametrize("name,params", CASES)
def test_recording_changes_no_draw(name, params, monkeypatch):
    """The simulation's run and the same run with a book give bit-identical regret curves, pulls, reward sums and
    generator states; the registry's releases entry point pulls as the run does."""
    module, attr = KERNELS[name]
    alg = registry.get(name)
    for which in (None, 0):
        means, horizon, eps, p = setting(name, params, which)
        checkpoints = np.unique(np.linspace(1, horizon, 50).astype(np.int64))
        rng0, rng1 = np.random.default_rng(7), np.random.default_rng(7)
        plain = alg.run(means, horizon, eps, checkpoints, rng0, p)
        book = L.new_book(20_000)
        monkeypatch.setattr(module, attr, with_book(getattr(module, attr), book))
        booked = alg.run(means, horizon, eps, checkpoints, rng1, p)
        monkeypatch.undo()
        assert L.rows(book).shape[0] > 0
        for x, y in zip(plain, booked, strict=True):
            np.testing.assert_array_equal(x, y)
        assert rng0.bit_generator.state == rng1.bit_generator.state
        _, _, pulls = record(name, means, horizon, eps, p, 7)
        np.testing.assert_array_equal(pulls, plain[1])


# (2) the ledger is the kernel's real releases --------------------------------------------------------------


@pytest.mark.parametrize("name", KERNELS)
def test_noise_is_standard_laplace_at_the_recorded_scale(name):
    """noise / scale of every release of one mechanism (Laplace, SVT threshold, SVT query), pooled over runs, is
    Lap(1) (KS at level ALPHA); the control, noise / (2 scale), is rejected (its KS distance to Lap(1) is 1/8, far
    above the critical value 1.95 / sqrt(1000) = 0.062 at level 1e-3)."""
    means, horizon, eps, p = setting(name, {}, None)
    mechs = (L.LAPLACE, L.SVT_THRESHOLD, L.SVT_QUERY) if name.startswith("dp_se2") else (L.LAPLACE,)
    pooled = {m: [] for m in mechs}
    seed = 0
    while min(sum(map(len, x)) for x in pooled.values()) < 1000 and seed < 10_000:
        heads, rows, pulls = record(name, means, horizon, eps, p, seed)
        assert not privacy.account.problems(rows, pulls)
        assert set(heads[:, L.MECH]) <= set(mechs)
        for m in mechs:
            pooled[m].append(heads[heads[:, L.MECH] == m, L.NOISE] / heads[heads[:, L.MECH] == m, L.SCALE])
        seed += 1
    for m in mechs:
        z = np.concatenate(pooled[m])
        assert len(z) >= 1000, L.MECHANISMS[m]
        assert stats.kstest(z, "laplace").pvalue > ALPHA, L.MECHANISMS[m]
        assert stats.kstest(z / 2.0, "laplace").pvalue < ALPHA, L.MECHANISMS[m]


@pytest.mark.parametrize("name,params", CASES)
def test_draws_are_numbered_once_each(name, params):
    """The releases' draws are 0..N-1, once each, and numbered in the order the rows were written."""
    for which in (None, 0, 1, 2):
        heads, _, _ = record(name, *setting(name, params, which), 3)
        np.testing.assert_array_equal(heads[:, L.DRAW], np.arange(len(heads)))


# (3) the ranges are each mechanism's schedule --------------------------------------------------------------


def _key(rows):
    """Sorted (mech, arm, first, last, weight, scale) tuples of ``rows``."""
    return sorted(tuple(float(v) for v in r[[L.MECH, L.ARM, L.FIRST, L.LAST, L.WEIGHT, L.SCALE]]) for r in rows)


def lazy_schedule(pulls, eps):
    """Hu & Hegde's lazy epochs: arm a's epoch i holds its pulls 2^i .. 2^(i+1) - 1 (sizes 1, 2, 4, ...); one
    release of the epoch's sum (weight 1, scale 1/eps) when all its pulls are done."""
    return [
        (L.LAPLACE, a, 2.0**i, 2.0 ** (i + 1) - 1, 1.0, 1.0 / eps)
        for a, n in enumerate(pulls)
        for i in range(64)
        if 2 ** (i + 1) - 1 <= n
    ]


def adap_schedule(pulls, eps):
    """Azize & Basu's episodes: the first pull's reward (entry 1, scale 1/eps), then episodes of N = 1, 2, 4, ...
    pulls holding entries N + 1 .. 2N, whose mean (weight 1/N) is released at scale 1/(eps N) if complete."""
    out = []
    for a, n in enumerate(pulls):
        out.append((L.LAPLACE, a, 1.0, 1.0, 1.0, 1.0 / eps))
        out += [
            (L.LAPLACE, a, 2.0**i + 1, 2.0 ** (i + 1), 2.0**-i, 1.0 / (eps * 2.0**i))
            for i in range(64)
            if 2 ** (i + 1) <= n
        ]
    return out


@pytest.mark.parametrize("name", ["lazy_dp_ts", "anytime_lazy_ucb", "adap_klucb", "adap_ucb"])
@pytest.mark.parametrize("which", [None, 0, 1, 2])
def test_epoch_ranges(name, which):
    """Every release, and no other, of the lazy epochs or the AdaP episodes the run's pulls imply."""
    schedule = lazy_schedule if "lazy" in name else adap_schedule
    means, horizon, eps, p = setting(name, {}, which)
    for seed in range(3):
        heads, rows, pulls = record(name, means, horizon, eps, p, seed)
        assert len(rows) == len(heads)
        assert _key(rows) == sorted(schedule(pulls, eps))


def check_dp_se2(rows, pulls, eps, plus_one):
    """Thesis Algorithm 10, written out: each epoch opens one sparse vector (threshold scale 6/eps) on fresh
    entries of its viable arms S, |S| >= 2 (all K arms at first, then a subset of the last epoch's); its checks at
    r = 2^l + plus_one, l = 1, 2, ... read entries start+1 .. start+r of every arm of S (weight 1, scale 6/eps: one
    head row for the lowest arm, the others parts); an epoch that halts at r releases the means of those entries
    (weight 1/r, scale 2/(eps r)). Only the last epoch may lack checks or a histogram. Returns the epoch count."""
    done = np.zeros(len(pulls))  # entries of each arm read by the epochs so far
    arms = list(range(len(pulls)))
    starts = np.flatnonzero(rows[:, L.MECH] == L.SVT_THRESHOLD).tolist()
    assert starts[:1] == [0]
    for i, j in zip(starts, starts[1:] + [len(rows)], strict=True):
        t, epoch = rows[i], rows[i + 1 : j]
        assert t[L.ARM] == -1 and math.isclose(t[L.SCALE], 6.0 / eps, rel_tol=1e-15) and t[L.GROUP] == t[L.DRAW]
        queries, hist = epoch[epoch[:, L.MECH] == L.SVT_QUERY], epoch[epoch[:, L.MECH] == L.LAPLACE]
        assert len(queries) + len(hist) == len(epoch)
        if len(queries) == 0:
            assert j == len(rows) and len(hist) == 0, "an epoch without checks is the last"
            break
        now = sorted({int(a) for a in queries[:, L.ARM]})
        assert len(now) >= 2 and set(now) <= set(arms)
        arms = now
        q = queries.reshape(-1, len(arms), L.COLUMNS)  # one block of rows per check
        r = 2 ** np.arange(1, len(q) + 1) + plus_one
        for block, rl in zip(q, r, strict=True):
            assert block[:, L.ARM].tolist() == arms
            assert block[:, L.PART].tolist() == [0.0] + [1.0] * (len(arms) - 1)
            np.testing.assert_array_equal(block[:, L.FIRST], done[arms] + 1)
            np.testing.assert_array_equal(block[:, L.LAST], done[arms] + rl)
            assert set(block[:, L.GROUP]) == {t[L.DRAW]} and set(block[:, L.SCALE]) == {t[L.SCALE]}
            assert set(block[:, L.WEIGHT]) == {1.0} and len(set(block[:, L.DRAW])) == 1
        if len(hist) == 0:
            assert j == len(rows), "an epoch with no histogram is the last"
            break
        assert hist[:, L.ARM].tolist() == arms
        np.testing.assert_array_equal(hist[:, L.FIRST], done[arms] + 1)
        np.testing.assert_array_equal(hist[:, L.LAST], done[arms] + r[-1])
        np.testing.assert_allclose(hist[:, L.WEIGHT], 1.0 / r[-1], rtol=1e-15)
        np.testing.assert_allclose(hist[:, L.SCALE], 2.0 / (eps * r[-1]), rtol=1e-15)
        done[arms] += r[-1]
    assert np.all(done <= pulls)
    return len(starts)


@pytest.mark.parametrize("name", ["dp_se2", "dp_se2_modified"])
@pytest.mark.parametrize("schedule", ["pow2", "pow2plus1"])
@pytest.mark.parametrize("which", [None, 0, 1, 2])
def test_dp_se2_ranges(name, schedule, which):
    """The sparse vectors and histograms of every epoch are Algorithm 10's (:func:`check_dp_se2`); the longest
    setting runs several epochs (eliminations)."""
    means, horizon, eps, p = setting(name, {"check_schedule": schedule}, which)
    epochs = [
        check_dp_se2(*record(name, means, horizon, eps, p, seed)[1:], eps, int(schedule == "pow2plus1"))
        for seed in range(3)
    ]
    assert min(epochs) >= 1 and (which != 2 or max(epochs) >= 2)


# (4) the spent epsilon is the papers' budget split -----------------------------------------------------------


def promise(name, eps):
    """Per-entry epsilon of each mechanism, summed from its releases' scales (every entry is read by one epoch).

    DP-SE 2: a sparse vector with threshold and query scales 6/eps (sensitivity 1: 1/b + 2/b) and a histogram
    mean (weight 1/r) at scale 2/(eps r); lazy epochs: the sum at scale 1/eps; AdaP: a mean of N at 1/(eps N)."""
    if name.startswith("dp_se2"):
        b, r = 6.0 / eps, 8
        return 1.0 / b + 2.0 / b + (1.0 / r) / (2.0 / (eps * r))
    n = 4 if "adap" in name else 1
    return (1.0 / n) / (1.0 / (eps * n))


@pytest.mark.parametrize("name", KERNELS)
def test_spent_is_the_promise(name):
    """At the contract's setting and default reading the worst entry spends exactly the promise (within the
    accountant's relative rounding 1e-9), and never more at a larger setting."""
    _, _, eps, _ = setting(name, {}, None)
    s = privacy.spent(name, runs=3)
    assert not s.problems and not s.exceeds
    assert s.promise == (eps, 0.0)
    assert abs(s.epsilon - promise(name, eps)) <= 1e-9 * eps
    means, horizon, eps1, _ = setting(name, {}, 1)
    assert privacy.spent(name, eps1, horizon, means.tolist(), runs=1).epsilon <= promise(name, eps1) * (1 + 1e-9)
