"""KL-UCB, Thompson sampling and IMED, the non-private limits of the privacy axis: their indices on hand-made states,
written out; their kernels against their twins run for run; the KL-UCB kernel's certificates against bisection."""

import math

import numpy as np
import pytest

import dpbandits
from dpbandits import ALGORITHMS, reference
from dpbandits.bandits import kl_ucb
from dpbandits.mechanisms.klucb import klucb_upper
from dpbandits.reference.field import IMED, KLUCB

NAMES = {"kl_ucb": "KL-UCB", "thompson": "Thompson sampling", "imed": "IMED"}


def kl(p, q):
    """Bernoulli KL in nats, written out (0 ln 0 = 0)."""
    return (p * math.log(p / q) if p > 0 else 0.0) + ((1 - p) * math.log((1 - p) / (1 - q)) if p < 1 else 0.0)


def root(p, level):
    """max{q in [p, 1) : kl(p, q) <= level}, by 200 halvings of [p, 1)."""
    lo, hi = p, 1.0
    for _ in range(200):
        mid = (lo + hi) / 2
        lo, hi = (lo, mid) if kl(p, mid) > level else (mid, hi)
    return lo


def twin(cls, name, sums, pulls, **params):
    """A twin of ``cls`` holding reward sums ``sums`` over ``pulls`` (a hand-made state)."""
    k = len(sums)
    policy = cls(k, 100, None, np.random.default_rng(0), ALGORITHMS[name].resolve(params))
    policy.s, policy.n = [float(x) for x in sums], list(pulls)
    return policy


@pytest.mark.parametrize("name", sorted(NAMES))
def test_registered_non_private_anytime_with_every_law(name):
    alg = ALGORITHMS[name]
    assert alg.label == NAMES[name] and alg.kind == "regret" and not alg.private and not alg.needs_horizon
    assert alg.module == f"dpbandits.bandits.{name}" and alg.laws == ("bernoulli", "beta", "uniform")


def test_kl_ucb_twin_index_on_a_hand_made_state():
    # means 0.5 over 10 pulls and 0.8 over 100 at t = 200; index u_a = root of n_a kl(mu_a, q) = ln t + c ln ln t
    sums, pulls, t = (5, 80), (10, 100), 200
    for c, (u0, u1), best in ((0.0, (0.9042, 0.9072), 1), (3.0, (0.9671, 0.9363), 0)):
        level = math.log(t) + c * math.log(math.log(t))
        u = [root(s / n, level / n) for s, n in zip(sums, pulls, strict=True)]
        assert abs(u[0] - u0) < 1e-4 and abs(u[1] - u1) < 1e-4
        # c = 3 raises the level: the arm with 10 pulls gains more and takes the lead
        assert twin(KLUCB, "kl_ucb", sums, pulls, c=c).select(t) == best


def test_kl_ucb_arms_of_mean_one_tie_at_index_one():
    # deterministic rewards: arms 0, 1 always pay 1 (index 1 whatever n), arm 2 never; ties by the lowest index
    r = dpbandits.simulate("kl_ucb", [1.0, 1.0, 0.0], 500, None, runs=3, seed=1, tie_break="first")
    assert (r.pulls == [498, 1, 1]).all()
    r = dpbandits.simulate("kl_ucb", [1.0, 1.0, 0.0], 500, None, runs=400, seed=1)
    share = r.pulls[:, 0].mean() / 498  # uniform tie picks: arm 0 gets half of the 498 pulls, sd 0.5 / sqrt(498 * 400)
    assert abs(share - 0.5) < 4 * 0.5 / math.sqrt(498 * 400)


def test_imed_twin_index_on_hand_made_states():
    # mu = (0.6, 0.25): I_0 = ln n_0 (the best arm), I_1 = 4 kl(0.25, 0.6) + ln 4 = 2.39665
    i1 = 4 * kl(0.25, 0.6) + math.log(4)
    assert abs(i1 - 2.39665) < 1e-5
    assert twin(IMED, "imed", (6, 1), (10, 4)).select(20) == 0  # ln 10 = 2.3026 < I_1
    assert twin(IMED, "imed", (12, 1), (20, 4)).select(30) == 1  # ln 20 = 2.9957 > I_1


def test_imed_with_deterministic_rewards_is_deterministic():
    # arms 0, 1 pay 1, arm 2 never: I = ln n for arms 0 and 1, I_2 = kl(0, 1 - 1e-15) = 34.5 > ln T, so arms 0, 1
    # alternate from t = 4 (a tie at n_0 = n_1 goes to arm 0 under tie_break "first")
    horizon = 501
    r = dpbandits.simulate("imed", [1.0, 1.0, 0.0], horizon, None, runs=3, seed=1, tie_break="first")
    assert (r.pulls == [math.ceil((horizon - 1) / 2), (horizon - 1) // 2, 1]).all()


@pytest.mark.parametrize(("means", "same"), [((1.0, 1.0), 2 / 3), ((0.0, 0.0), 1 / 3)])
def test_thompson_posterior_after_one_pull(means, same):
    # Beta(1, 1) priors: round 1 pulls an arm uniformly; after a success it draws Beta(2, 1) against Beta(1, 1), so
    # it pulls the same arm again with P(Beta(2, 1) > U) = 2/3; after a failure Beta(1, 2): 1/3
    runs = 20000
    r = dpbandits.simulate("thompson", means, 2, None, runs=runs, seed=3)
    again = (r.pulls.max(axis=1) == 2).mean()
    assert abs(again - same) < 4 * math.sqrt(same * (1 - same) / runs)


def test_thompson_counts_successes_of_fractional_rewards():
    # Agrawal & Goyal's trial: a reward r in (0, 1) is a success with probability r, so under any law of mean m the
    # decisions are those under Bernoulli(m) rewards; uniform rewards on [0, 1] have a third of the variance, and
    # counting them as fractional successes would pull the worse arm less
    means, horizon, runs = (0.5, 0.3), 30, 6000
    bern = dpbandits.simulate("thompson", means, horizon, None, runs=runs, seed=4)
    unif = dpbandits.simulate("thompson", means, horizon, None, runs=runs, seed=5, rewards="uniform")
    a, b = bern.pulls[:, 1], unif.pulls[:, 1]
    assert abs(a.mean() - b.mean()) < 4 * math.sqrt((a.var() + b.var()) / runs)


CASES = [
    ((0.7, 0.5, 0.45), 1500),
    ((0.5, 0.5, 0.4), 1200),  # equal means: ties of equal states
    ((1.0, 1.0, 0.0), 300),  # means of 1: KL-UCB's index 1, IMED's kl against 1
    ((0.05, 0.02, 0.01, 0.0), 1500),
    ((0.99, 0.98, 0.5), 1500),
]


@pytest.mark.parametrize("name", sorted(NAMES))
@pytest.mark.parametrize("rewards", ["bernoulli", "beta"])
def test_kernel_reproduces_its_twin_run_for_run(name, rewards):
    # the kernels draw rewards, Beta variates and tie picks from the run's generator in the twin's order, so on the
    # same seed fast and twin make the same pulls (KL-UCB: its certificates decide as every index bisected would)
    settings = [{}] + ([{"c": 3.0, "klucb_tol": 1e-4}, {"tie_break": "first"}] if name == "kl_ucb" else [])
    for params in settings:
        for means, horizon in CASES:
            fast = dpbandits.simulate(name, means, horizon, None, runs=4, seed=7, rewards=rewards, **params)
            twin = reference.simulate(name, means, horizon, None, runs=4, seed=7, rewards=rewards, **params)
            np.testing.assert_array_equal(fast.pulls, twin.pulls, err_msg=f"{name} {means} {params}")
            np.testing.assert_array_equal(fast.reward_sum, twin.reward_sum)
            np.testing.assert_allclose(fast.regret, twin.regret, rtol=1e-12)


def _scratch(k):
    return kl_ucb.Scratch(np.full(k, -1.0), np.zeros(k), np.full(k, -np.inf), np.empty(k))


def test_kl_ucb_certificates_agree_with_bisection():
    # below(p, level, x) may only say True when klucb_upper(p, level, tol) < x, lower_bound never exceeds the
    # bisected index, a certificate (cu, ck) only holds where kl(p, cu) > ck; near-boundary x included
    rng = np.random.default_rng(11)
    told = tight = 0
    for _ in range(3000):
        p = float(rng.choice([rng.random(), 0.0, rng.random() ** 8, 1 - rng.random() ** 8]))
        level = float(rng.choice([rng.random(), 10 ** rng.uniform(-6, 1)]))
        tol = float(rng.choice([1e-9, 1e-4, 1e-15]))
        u = klucb_upper(p, level, tol)
        x = kl_ucb.lower_bound(p, level, tol, np.full(1, -1.0), 0)
        assert x <= u, (p, level, tol, x, u)
        tight += u - x < 1e-8 + tol
        for shift in (-1e-3, -1e-9, -1e-12, 0.0, 1e-12, 1e-9, 1e-6, 1e-3):
            probe = min(max(u + shift, 0.0), 1.0)
            scratch = _scratch(1)
            if kl_ucb.below(p, level, probe, scratch, 0):
                told += 1
                assert u < probe, (p, level, tol, probe, u)
                if scratch.ck[0] > -np.inf:
                    assert scratch.cu[0] < probe and kl(p, scratch.cu[0]) > scratch.ck[0]
    # the checks decide: most probes above the index are certified, most bounds are tight
    assert told > 3000 and tight > 2000, (told, tight)


def test_kl_ucb_keeps_its_lead_only_when_certain():
    # arms (mean, pulls): leader 0.7 x 40 and rival 0.5 x 40 at t = 200; certificates of the rival decide alone
    s, n = np.array([28.0, 20.0]), np.array([40, 40])
    level = math.log(200)
    scratch = _scratch(2)
    assert not kl_ucb.keeps_lead(s, n, level, 1e-9, 0, scratch)  # no certificate yet
    x = kl_ucb.lower_bound(0.7, level / 40, 1e-9, scratch.guess, 0)
    assert kl_ucb.below(0.5, level / 40, x, scratch, 1)
    assert kl_ucb.keeps_lead(s, n, level, 1e-9, 0, scratch)
    assert root(0.7, level / 40) > root(0.5, level / 40) + 0.1
    # the rival's certificate lapses when its level passes ck (ln t grows), or when it is pulled (ck = -inf)
    assert not kl_ucb.keeps_lead(s, n, 40 * scratch.ck[1], 1e-9, 0, scratch)
    scratch.ck[1] = -np.inf
    assert not kl_ucb.keeps_lead(s, n, level, 1e-9, 0, scratch)
