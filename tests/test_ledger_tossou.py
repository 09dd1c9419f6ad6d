"""The release ledgers of DP-UCB-BOUND, DP-UCB (hybrid), DP-UCB-INT (Tossou & Dimitrakakis 2016, Algorithms 1-3),
Private-UCB, LDP-UCB-L and Sajed & Sheffet's DP-UCB (item-level DP, one row per release: dpbandits.mechanisms.ledger).

- recording changes nothing: the same pulls (and, on given draws, the same regret) with and without a book, for
  every algorithm and reading;
- the ledger is the kernel's real noise: on given standard draws eta, every release's noise is scale * eta[draw]
  and the draws are used once each; on the runs' own streams, noise / scale is standard Laplace (KS test, with a
  control at twice the scale that the test rejects);
- the ranges are the mechanisms' definitions written out here (a hybrid counter's logarithmic blocks and tree
  nodes, a binary tree's nodes, one reward per local release, DP-UCB-INT's interval means), at several horizons;
- the privacy spent at the contract's setting, as a formula of the mechanism.
"""

from __future__ import annotations

import numpy as np
import pytest
from _readings import readings
from scipy.stats import kstest

import dpbandits  # noqa: F401  (registers the algorithms)
from dpbandits import privacy
from dpbandits.bandits.dp_ucb_int import interval
from dpbandits.core import registry
from dpbandits.mechanisms import ledger
from dpbandits.mechanisms.ledger import ARM, DRAW, FIRST, LAST, NOISE, PART, SCALE, WEIGHT

NAMES = ["dp_ucb_bound", "dp_ucb_tossou", "dp_ucb_int", "private_ucb", "ldp_ucb", "dp_ucb"]
MEANS = np.array([0.7, 0.5, 0.45])  # distinct gaps 0, 0.2, 0.25: the regret's steps tell the pulled arm
EPS = 0.5


CASES = [(name, p) for name in NAMES for p in readings(name)]
IDS = [f"{n}-{'-'.join(f'{k}={v}' for k, v in p.items()) or 'default'}" for n, p in CASES]
# the readings whose release schedule int_expected_rows writes out (literal and scheduled re-release an arm)
RANGED = [(c, i) for c, i in zip(CASES, IDS, strict=True) if c[1].get("int_update") in (None, "live_bonus")]


def replayed(name, params, horizon, seed=0, book=None, checkpoints=None):
    """The kernel on given draws (u, standard Laplace eta, tie picks 0): (regret, pulls, total), eta."""
    rng = np.random.default_rng([seed, horizon])
    u, eta = rng.random(horizon), rng.laplace(size=len(MEANS) * horizon)
    ckpts = np.arange(1, horizon + 1) if checkpoints is None else checkpoints
    alg = registry.get(name)
    fn = alg.replay_function()
    extra = {} if book is None else {"book": book}
    out = fn(MEANS, EPS, ckpts, alg.resolve(params), u, eta, np.zeros(horizon, dtype=np.int64), **extra)
    return out, eta


def recorded_replay(name, params, horizon, seed=0):
    """(rows of the replayed run, eta, the arm pulled at each step int64[T]) for ``name`` on given draws."""
    book = ledger.new_book(8 * len(MEANS) * horizon)
    (regret, _, _), eta = replayed(name, params, horizon, seed, book)
    steps = np.diff(np.concatenate([[0.0], regret]))
    gaps = MEANS.max() - MEANS
    arms = np.argmin(np.abs(steps[:, None] - gaps[None, :]), axis=1)
    return ledger.rows(book), eta, arms


# --- recording changes nothing ---------------------------------------------------------------------------------


@pytest.mark.parametrize("name, params", CASES, ids=IDS)
def test_recording_changes_no_draw_pull_or_regret(name, params):
    alg = registry.get(name)
    resolved = alg.resolve(params)
    horizon = 300
    for seed in range(2):
        ran = alg.run(MEANS, horizon, EPS, np.array([horizon]), np.random.default_rng(seed), resolved)
        book = ledger.new_book(8 * len(MEANS) * horizon)
        pulls = alg.releases_function()(MEANS, horizon, EPS, resolved, np.random.default_rng(seed), book)
        np.testing.assert_array_equal(pulls, ran[1])
        assert ledger.rows(book).shape[0] > 0
        plain, _ = replayed(name, params, horizon, seed)
        with_book, _ = replayed(name, params, horizon, seed, ledger.new_book(8 * len(MEANS) * horizon))
        for a, b in zip(plain, with_book, strict=True):
            np.testing.assert_array_equal(a, b)


# --- the ledger is the kernel's real noise ---------------------------------------------------------------------


@pytest.mark.parametrize("name, params", CASES, ids=IDS)
def test_on_given_draws_each_release_adds_its_scale_times_its_own_draw(name, params):
    rows, eta, _ = recorded_replay(name, params, 400)
    heads = rows[rows[:, PART] == 0]
    draws = heads[:, DRAW].astype(np.int64)
    np.testing.assert_array_equal(heads[:, NOISE], heads[:, SCALE] * eta[draws])
    assert np.unique(draws).size == draws.size, "a draw feeds two releases"
    if name == "dp_ucb_tossou":  # K counters draw every step; a node that holds none of its arm's rewards is no row
        assert draws.max() < len(MEANS) * 400
    elif name == "dp_ucb_int":  # every draw is a release
        np.testing.assert_array_equal(np.sort(draws), np.arange(draws.size))
    else:  # one draw per step
        np.testing.assert_array_equal(np.sort(draws), np.arange(400))


# the runs' own streams: enough releases that a noise twice as large fails the KS test at 1e-3
KS_HORIZON = {"dp_ucb_int": 3000}


@pytest.mark.parametrize("name", NAMES)
def test_on_the_runs_own_streams_noise_over_scale_is_standard_laplace(name):
    horizon = KS_HORIZON.get(name, 400)
    params = registry.get(name).resolve({})
    std = []
    for seed in range(3):
        rows, _ = privacy.record(name, MEANS, horizon, EPS, params, seed)
        heads = rows[rows[:, PART] == 0]
        std.append(heads[:, NOISE] / heads[:, SCALE])
    x = np.concatenate(std)
    assert x.size >= 250
    assert kstest(x, "laplace").pvalue > 1e-3
    assert kstest(x / 2.0, "laplace").pvalue < 1e-3  # control: the ledger's scale half the noise's


# --- the ranges are the mechanisms' definitions ----------------------------------------------------------------


def lowbit_level(m: int) -> int:
    """Trailing zero bits of m >= 1: the level of the tree node completed at insertion m."""
    return (m & -m).bit_length() - 1


def hybrid_part(tau: int) -> tuple[int, int]:
    """(first item, level factor k) of what a hybrid counter releases at insertion tau: at tau = 2^k the
    logarithmic part's block 2^(k-1)+1..2^k (factor 0: scale log_scale), else in the tree of 2^k + m the node
    completed at m, items tau - 2^i + 1..tau, i = trailing zeros of m (scale k node_scale)."""
    k = tau.bit_length() - 1
    if tau == 1 << k:
        return ((1 << (k - 1)) + 1 if k else 1), 0
    return tau - (1 << lowbit_level(tau - (1 << k))) + 1, k


def expected_rows(name, params, arms, horizon):
    """[(arm, first, last, weight, scale, draw)] that ``name`` releases when it pulls ``arms`` (step t: arms[t-1])."""
    k = len(MEANS)
    counts = np.zeros((horizon + 1, k), dtype=np.int64)  # counts[t, a]: arm a's pulls in steps 1..t
    for t, a in enumerate(arms, start=1):
        counts[t] = counts[t - 1]
        counts[t, a] += 1
    split = 1.0 if params.get("hybrid_split") == "none" else 2.0
    out = []
    for t in range(1, horizon + 1):
        a, n = int(arms[t - 1]), int(counts[t, arms[t - 1]])
        if name == "dp_ucb_bound":  # arm a's counter, insertion n
            first, level = hybrid_part(n)
            out.append((a, first, n, 1.0, (level or 1) * (split / EPS), t - 1))
        elif name == "dp_ucb_tossou":  # every arm's counter, insertion t; its items are steps
            first, level = hybrid_part(t)
            for i in range(k):
                lo, hi = counts[first - 1, i] + 1, counts[t, i]
                if lo <= hi:
                    out.append((i, lo, hi, 1.0, (level or 1) * (split / EPS), (t - 1) * k + i))
        elif name == "private_ucb":  # D = bits of T levels, eps/K (or eps) per tree
            eps_tree = EPS if params.get("tree_eps") == "eps" else EPS / k
            out.append((a, n - (1 << lowbit_level(n)) + 1, n, 1.0, horizon.bit_length() / eps_tree, t - 1))
        elif name == "dp_ucb":  # L = ceil(log2 T) + 1 levels, eps per tree
            levels = int(np.ceil(np.log2(horizon))) + 1
            out.append((a, n - (1 << lowbit_level(n)) + 1, n, 1.0, levels / EPS, t - 1))
        elif name == "ldp_ucb":  # each reward once
            out.append((a, n, n, 1.0, 1.0 / EPS, t - 1))
    return out


def int_expected_rows(params, arms, horizon):
    """DP-UCB-INT's releases (frozen and live_bonus): at t = K f + 1 every arm's mean of its f rewards, then at
    step t the arm pulled at t - 1 if its count n is a multiple of f: the mean of n rewards, scale n^(v/2-1)."""
    alg = registry.get("dp_ucb_int")
    resolved = alg.resolve(params)
    f = interval(EPS, resolved)[1]
    v = resolved["v"]
    k = len(MEANS)
    counts = np.zeros(k, dtype=np.int64)
    out = []
    for t in range(1, horizon + 1):
        due = range(k) if t == k * f + 1 else [int(arms[t - 2])] if t > k * f + 1 else []
        for i in due:
            n = int(counts[i])
            if n % f == 0:
                out.append((i, 1, n, 1.0 / n, float(n) ** (v / 2 - 1), len(out)))
        counts[arms[t - 1]] += 1
    return out


@pytest.mark.parametrize("horizon", [37, 150, 777])
@pytest.mark.parametrize("name, params", [c for c, _ in RANGED], ids=[i for _, i in RANGED])
def test_the_ranges_are_the_mechanisms_definitions(name, params, horizon):
    rows, _, arms = recorded_replay(name, params, horizon)
    if name == "dp_ucb_int":
        expected = int_expected_rows(params, arms, horizon)
    else:
        expected = expected_rows(name, params, arms, horizon)
    got = rows[:, [ARM, FIRST, LAST, WEIGHT, SCALE, DRAW]]
    want = np.array(expected, dtype=float).reshape(-1, 6)
    assert got.shape == want.shape, f"{got.shape[0]} releases recorded, {want.shape[0]} by the definition"
    np.testing.assert_array_equal(got[:, [0, 1, 2, 5]], want[:, [0, 1, 2, 5]])
    np.testing.assert_allclose(got[:, [3, 4]], want[:, [3, 4]], rtol=1e-13)


# --- the privacy spent at the contract's setting ---------------------------------------------------------------


def contract_pulls(name):
    """(epsilon, horizon, max pulls of an arm, rows) of run [0, 0] at the contract's setting."""
    means, horizon, epsilon, params = privacy.contract_setting(name)
    rows, pulls = privacy.record(name, means, horizon, epsilon, registry.get(name).resolve(params), [0, 0])
    return epsilon, horizon, int(pulls.max()), len(means), rows


def test_tree_counters_spend_one_share_per_level_of_the_longest_stream():
    # entry 1 of the most-pulled arm (n pulls) lies in one node per level 0..floor(log2 n), each of scale
    # levels / eps_tree: bits(n) * (1 / (levels / eps_tree))
    eps, horizon, n, k, _ = contract_pulls("private_ucb")
    assert privacy.spent("private_ucb", runs=1).epsilon == pytest.approx(
        n.bit_length() * (1 / (horizon.bit_length() / (eps / k))), rel=1e-12
    )
    eps, horizon, n, _, _ = contract_pulls("dp_ucb")
    levels = int(np.ceil(np.log2(horizon))) + 1
    spent = privacy.spent("dp_ucb", runs=1).epsilon
    assert spent == pytest.approx(n.bit_length() * (1 / (levels / eps)), rel=1e-12) and spent <= eps


def test_hybrid_counters_spend_at_most_half_for_each_part():
    # "half": the logarithmic part eps/2 (one block of scale 2/eps per entry), the tree of 2^k + m at most k
    # nodes of scale k * 2/eps; the most-pulled arm's counter, n items, fills trees k = 1.. fully below n
    eps, _, n, _, _ = contract_pulls("dp_ucb_bound")
    top = n.bit_length() - 1
    full = max([k * (1 / (k * 2 / eps)) for k in range(1, top)] + [0.0])
    last = (n - (1 << top)).bit_length() * (1 / (top * 2 / eps)) if top else 0.0
    spent = privacy.spent("dp_ucb_bound", runs=1).epsilon
    assert spent == pytest.approx(1 / (2 / eps) + max(full, last), rel=1e-12) and spent <= eps * (1 + 1e-12)
    eps = privacy.contract_setting("dp_ucb_tossou")[2]
    assert privacy.spent("dp_ucb_tossou", runs=2).epsilon <= (1 / (2 / eps) + 1 / (2 / eps)) * (1 + 1e-12)


def test_local_laplace_spends_epsilon_exactly():
    eps = privacy.contract_setting("ldp_ucb")[2]
    assert privacy.spent("ldp_ucb", runs=1).epsilon == pytest.approx(1 / (1 / eps), rel=1e-12)


def test_dp_ucb_int_entry_one_pays_every_interval_release():
    # entry 1 of an arm is in every release of it, means of n = f, 2f, ..., J f rewards: (1/n) / n^(v/2-1) each
    eps, _, _, _, rows = contract_pulls("dp_ucb_int")
    resolved = registry.get("dp_ucb_int").resolve(privacy.contract_setting("dp_ucb_int")[3])
    f, v = interval(eps, resolved)[1], resolved["v"]
    releases = max(int(np.sum(rows[:, ARM] == a)) for a in range(3))
    expected = sum((1 / (j * f)) / (j * f) ** (v / 2 - 1) for j in range(1, releases + 1))
    assert privacy.spent("dp_ucb_int", runs=1).pure == pytest.approx(expected, rel=1e-12)
