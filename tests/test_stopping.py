"""SVT and the stopping rules of Sajed's thesis: noise scales, exact anchors, accuracy, bounds, bad input."""

import math

import numpy as np
import pytest
from scipy import stats

from dpbandits.mechanisms.noise import laplace_scale
from dpbandits.mechanisms.stopping import (
    dp_exp_nas,
    dp_nas,
    dp_nas_scales,
    exp_nas_halting_bound,
    nas,
    sparse_vector,
    stopping_lower_bound,
    svt_accuracy,
    svt_scales,
)

P_MIN = 1e-3  # smallest acceptable p-value / tail probability of a statistical check


def two_point(mu, R, rng):
    """Stream sample(n) of i.i.d. values in {-R, R} with mean mu."""
    p = 0.5 + mu / (2 * R)
    return lambda n: np.where(rng.random(n) < p, R, -R)


def max_failures(n, p):
    """Largest failure count compatible with a failure probability <= p at level P_MIN."""
    return int(stats.binom.isf(P_MIN, n, p))


# --------------------------------------------------------------------------- noise scales


def test_svt_scales_are_three_sensitivity_over_epsilon():
    assert svt_scales(1.0, 1.0) == (3.0, 3.0)
    assert svt_scales(2.0, 0.5) == (12.0, 12.0)


@pytest.mark.parametrize("epsilon, R", [(1.0, 1.0), (0.25, 2.0), (0.1, 0.5)])
def test_dp_nas_scales_and_budget_split(epsilon, R):
    s1, s2, s3 = dp_nas_scales(epsilon, R)
    assert (s1, s2, s3) == pytest.approx((12 * R / epsilon, 12 * R / epsilon, 4 * R / epsilon), rel=1e-15)
    # eps/2 SVT on a sensitivity-2R sum query + eps/2 Laplace mechanism on the same sum
    assert (s1, s2) == svt_scales(2 * R, epsilon / 2)
    assert s3 == laplace_scale(2 * R, epsilon / 2)


def test_svt_accuracy_formula():
    assert svt_accuracy(10, 0.1, 1.0, 2.0) == pytest.approx(6 * (math.log(10) + math.log(20)) / 2.0)
    assert svt_accuracy(10, 0.1, 3.0, 2.0) == pytest.approx(3 * svt_accuracy(10, 0.1, 1.0, 2.0))


# --------------------------------------------------------------------------- SVT behaviour


def test_svt_huge_epsilon_returns_first_query_above_threshold():
    rng = np.random.default_rng(1)
    assert sparse_vector([0.0, 0.5, 2.0, 3.0, 0.0], 1.0, 1.0, 1e12, rng) == 2
    assert sparse_vector([0.0, 0.5, 0.9], 1.0, 1.0, 1e12, rng) == -1
    assert sparse_vector([], 1.0, 1.0, 1.0, rng) == -1


def test_svt_single_query_halting_probability_is_the_laplace_difference_tail():
    # q + A >= T + B  <=>  A - B >= T - q = x; for A, B iid Lap(b): Pr = exp(-x/b) (2 + x/b) / 4.
    sens, eps, n = 2.0, 0.5, 4000
    b = 3 * sens / eps
    rng = np.random.default_rng(2)
    for x_over_b in (0.0, 1.0, 2.5):
        halts = sum(sparse_vector([0.0], x_over_b * b, sens, eps, rng) == 0 for _ in range(n))
        p = math.exp(-x_over_b) * (2 + x_over_b) / 4
        assert stats.binomtest(halts, n, p).pvalue > P_MIN, (x_over_b, halts / n, p)


def test_svt_is_alpha_beta_accurate():
    # Theorem 3.2.2: w.p. >= 1 - beta, queries below T - alpha are answered 0 and one above T + alpha halts.
    k, beta, sens, eps, n = 20, 0.2, 1.0, 1.0, 2000
    alpha = svt_accuracy(k, beta, sens, eps)
    rng = np.random.default_rng(3)
    low = np.full(k, -alpha)
    false_halts = sum(sparse_vector(low, 0.0, sens, eps, rng) != -1 for _ in range(n))
    assert false_halts <= max_failures(n, beta)
    last_high = np.concatenate([np.full(k - 1, -alpha), [alpha]])
    wrong = sum(sparse_vector(last_high, 0.0, sens, eps, rng) != k - 1 for _ in range(n))
    assert wrong <= max_failures(n, beta)


# --------------------------------------------------------------------------- exact anchors


def first_hit(times, bound, mu):
    """First t in ``times`` with mu >= bound(t) (a noise-free halting test on a constant stream)."""
    return next(t for t in times if mu >= bound(t))


def test_constant_stream_anchors():
    # A constant stream has mean exactly mu at every t; with epsilon huge the noise is ~1e-11, so each rule
    # halts at the first t of its schedule where mu clears the (noise-free) threshold.
    mu, alpha, beta, R, eps = 0.5, 0.5, 0.1, 1.0, 1e12
    stream = lambda n: np.full(n, mu)  # noqa: E731
    ts = range(1, 10**6)
    t_nas = first_hit(ts, lambda t: R * math.sqrt(2 * math.log(4 * t * t / beta) / t) * 3, mu)
    t_nas_literal = first_hit(ts, lambda t: R * math.sqrt(math.log(4 * t * t / beta) / (2 * t)) * 3, mu)
    t_dp = first_hit(ts, lambda t: R * math.sqrt(2 / t * math.log(16 * t * t / beta)) * 3, mu)
    k_exp = first_hit(range(1, 60), lambda k: R * math.sqrt(2 / 2**k * math.log(16 * k * k / beta)) * 3, mu)
    assert nas(stream, alpha, beta, R) == (mu, t_nas)
    assert nas(stream, alpha, beta, R, width="R") == (mu, t_nas_literal)
    rng = np.random.default_rng(4)
    est, t = dp_nas(stream, alpha, beta, eps, R, rng)
    assert t == t_dp and est == pytest.approx(mu, abs=1e-9)
    est, t = dp_exp_nas(stream, alpha, beta, eps, R, rng)
    assert t == 2**k_exp and est == pytest.approx(mu, abs=1e-9)
    assert t_nas_literal < t_nas < t_dp


def test_array_stream_equals_callable_stream_and_can_run_out():
    rng = np.random.default_rng(5)
    data = np.where(rng.random(200_000) < 0.7, 1.0, -1.0)
    pos = [0]

    def sample(n):
        out = data[pos[0] : pos[0] + n]
        pos[0] += n
        return out

    for rule in (dp_nas, dp_exp_nas):
        pos[0] = 0
        a = rule(data, 0.5, 0.1, 1.0, 1.0, np.random.default_rng(6))
        b = rule(sample, 0.5, 0.1, 1.0, 1.0, np.random.default_rng(6))
        assert a == b and a[1] > 0
    assert nas(data, 0.5, 0.1, 1.0) == nas(data[:5000], 0.5, 0.1, 1.0)
    # mean 0: never halts; the rules stop at the end of the data or at max_samples
    zeros = np.zeros(3000)
    for est, t in (
        nas(zeros, 0.5, 0.1, 1.0),
        dp_nas(zeros, 0.5, 0.1, 1.0, 1.0, rng),
        dp_exp_nas(zeros, 0.5, 0.1, 1.0, 1.0, rng),
        dp_nas(lambda n: np.zeros(n), 0.5, 0.1, 1.0, 1.0, rng, max_samples=10_000),
    ):
        assert math.isnan(est) and t == -1


# --------------------------------------------------------------------------- accuracy and bounds


@pytest.mark.parametrize("rule", ["nas", "nas_literal", "dp_nas", "dp_exp_nas"])
def test_stopping_rules_are_alpha_beta_accurate(rule):
    # |estimate - mu| <= alpha |mu| with probability >= 1 - beta (Thm 4.1.1, Cor 4.1.2; NAS: Domingo et al.)
    mu, alpha, beta, eps, R, n = -0.4, 0.5, 0.1, 1.0, 1.0, 300
    rng = np.random.default_rng(7)
    results = []
    for _ in range(n):
        if rule == "nas":
            results.append(nas(two_point(mu, R, rng), alpha, beta, R))
        elif rule == "nas_literal":  # the thesis' radius is valid for data of range R: {0, R} has range R
            results.append(nas(lambda m: np.where(rng.random(m) < 0.3, R, 0.0), alpha, beta, R, width="R"))
        elif rule == "dp_nas":
            results.append(dp_nas(two_point(mu, R, rng), alpha, beta, eps, R, rng))
        else:
            results.append(dp_exp_nas(two_point(mu, R, rng), alpha, beta, eps, R, rng))
    est, t = np.array(results).T
    target = 0.3 if rule == "nas_literal" else mu
    assert np.all(t >= 1)
    assert np.sum(np.abs(est - target) > alpha * abs(target)) <= max_failures(n, beta)


def test_dp_exp_nas_halts_by_t_u_and_not_before_the_lower_bound():
    mu, alpha, beta, eps, R, n = 0.5, 0.5, 0.05, 0.5, 1.0, 300
    rng = np.random.default_rng(8)
    t = np.array([dp_exp_nas(two_point(mu, R, rng), alpha, beta, eps, R, rng)[1] for _ in range(n)])
    assert np.all((t > 0) & ((t & (t - 1)) == 0))  # checks only at powers of 2
    t_u = exp_nas_halting_bound(alpha, beta, eps, mu, R)
    assert np.sum(t > t_u) <= max_failures(n, beta)  # Theorem 4.1.3
    # Theorem 4.2.1: any eps-DP (alpha, beta)-stopping rule reads more than n_low samples w.p. > 1/4
    n_low = stopping_lower_bound(alpha, beta, eps, mu, R)
    assert np.sum(t > n_low) >= stats.binom.ppf(P_MIN, n, 0.25)


def test_bound_formulas():
    alpha, beta, eps, mu, R = 0.5, 0.05, 0.5, 0.25, 2.0
    ll = math.log(math.log(R / (alpha * mu)) / beta)
    t0, t1 = R**2 * ll / (alpha * mu) ** 2, R * ll / (eps * mu)
    t2 = R * math.log(1 / beta) / (eps * alpha * mu)
    assert exp_nas_halting_bound(alpha, beta, eps, -mu, R) == pytest.approx(2000 * (t0 + t1 + t2))
    n_low = R * math.log(20) / (12 * 0.5 * 0.25 * 0.5)
    assert stopping_lower_bound(alpha, beta, eps, mu, R) == pytest.approx(n_low)


# --------------------------------------------------------------------------- bad input


def test_bad_input_names_the_argument():
    rng = np.random.default_rng(0)
    s = two_point(0.5, 1.0, rng)
    cases = [
        (lambda: dp_nas(s, 0.0, 0.1, 1.0, 1.0, rng), "alpha"),
        (lambda: dp_nas(s, 1.0, 0.1, 1.0, 1.0, rng), "alpha"),
        (lambda: dp_nas(s, 0.5, 1.5, 1.0, 1.0, rng), "beta"),
        (lambda: dp_exp_nas(s, 0.5, 0.1, 0.0, 1.0, rng), "epsilon"),
        (lambda: dp_exp_nas(s, 0.5, 0.1, 1.0, -1.0, rng), "R"),
        (lambda: nas(s, 0.5, 0.1, 1.0, width="3R"), "width"),
        (lambda: nas(s, 0.5, 0.1, 1.0, max_samples=0), "max_samples"),
        (lambda: nas(lambda n: np.full(n, 2.0), 0.5, 0.1, 1.0), "stream"),
        (lambda: nas(lambda n: np.ones(n + 1), 0.5, 0.1, 1.0), "stream"),
        (lambda: nas(np.ones((3, 3)), 0.5, 0.1, 1.0), "stream"),
        (lambda: sparse_vector([[1.0]], 0.0, 1.0, 1.0, rng), "queries"),
        (lambda: sparse_vector([1.0], 0.0, 0.0, 1.0, rng), "sensitivity"),
        (lambda: sparse_vector([1.0], 0.0, 1.0, -1.0, rng), "epsilon"),
        (lambda: sparse_vector([1.0], math.nan, 1.0, 1.0, rng), "threshold"),
        (lambda: svt_accuracy(0, 0.1, 1.0, 1.0), "k"),
        (lambda: exp_nas_halting_bound(0.5, 0.1, 1.0, 0.5, 1.0), "beta"),
        (lambda: exp_nas_halting_bound(0.5, 0.05, 1.0, 2.0, 1.0), "mu"),
        (lambda: stopping_lower_bound(0.5, 0.3, 1.0, 0.5, 1.0), "beta"),
        (lambda: dp_nas_scales(True, 1.0), "epsilon"),
    ]
    for call, name in cases:
        with pytest.raises(ValueError, match=name):
            call()
