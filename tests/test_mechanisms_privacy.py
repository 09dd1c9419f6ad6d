"""Exact (closed-form) privacy checks of the mechanisms: log density ratios on neighbouring inputs."""

import itertools
import math

import numpy as np
import pytest
from scipy.stats import norm

import dpbandits
from dpbandits.audit.counters import counter_loss
from dpbandits.mechanisms.noise import (
    BinaryTreeCounter,
    HybridCounter,
    LogarithmicCounter,
    gaussian_sigma,
    laplace_logpdf,
    laplace_mechanism,
    laplace_scale,
    tree_bits,
)
from dpbandits.mechanisms.stopping import sparse_vector, svt_scales

LENGTHS = [1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 33, 64, 100]


@pytest.mark.parametrize("sensitivity", [1.0, 1 / 7, 3.0])
@pytest.mark.parametrize("epsilon", [0.1, 1.0, 2.5])
def test_laplace_mechanism_density_ratio_is_exactly_bounded(sensitivity, epsilon):
    b = laplace_scale(sensitivity, epsilon)
    assert b == pytest.approx(sensitivity / epsilon)
    y = np.linspace(-50 * b, 50 * b, 20001)
    for shift in (sensitivity, 0.3 * sensitivity):
        log_ratio = laplace_logpdf(y, b) - laplace_logpdf(y - shift, b)
        assert np.abs(log_ratio).max() <= epsilon * shift / sensitivity + 1e-12
        assert np.abs(log_ratio).max() == pytest.approx(epsilon * shift / sensitivity)  # attained (tight)


def test_laplace_mechanism_draws_at_scale_sensitivity_over_epsilon():
    scales = []

    class Recorder:
        def laplace(self, loc, scale, size):
            scales.append(scale)
            return np.zeros(size)

    laplace_mechanism(np.zeros(3), 0.25, 0.5, Recorder())
    assert scales == [0.5]


def _tree(n, epsilon):
    return lambda rng: BinaryTreeCounter(tree_bits(n) / epsilon, rng)


@pytest.mark.parametrize("n", LENGTHS)
def test_tree_counter_is_exactly_epsilon_dp(n):
    # every item lies in at most D = tree_bits(n) released nodes, each Lap(D/eps): loss = count / D * eps
    epsilon = 0.7
    loss = counter_loss(_tree(n, epsilon), n)
    counts = loss / epsilon * tree_bits(n)
    assert np.allclose(counts, np.round(counts)) and counts.max() <= tree_bits(n) + 1e-9
    assert loss.max() == pytest.approx(epsilon)  # the first item lies in all D levels: tight
    assert loss.min() > 0


@pytest.mark.parametrize("n", LENGTHS)
def test_hybrid_counter_half_split_is_epsilon_dp(n):
    epsilon = 0.4
    loss = counter_loss(lambda rng: HybridCounter(epsilon, rng, "half"), n)
    assert loss.max() <= epsilon + 1e-9
    # logarithmic part eps/2 + binary part eps/2, both attained once the stream is long enough
    assert loss.max() == pytest.approx(epsilon if n >= 4 else epsilon / 2)


@pytest.mark.parametrize("n", [5, 17, 64])
def test_hybrid_counter_without_split_is_only_two_epsilon_dp(n):
    epsilon = 0.4
    loss = counter_loss(lambda rng: HybridCounter(epsilon, rng, "none"), n)
    assert loss.max() == pytest.approx(2 * epsilon)  # the literal-prose ablation violates epsilon


def test_logarithmic_counter_loss():
    epsilon = 0.5
    loss = counter_loss(lambda rng: LogarithmicCounter(1 / epsilon, rng), 12)
    # each item lies in exactly one released increment; items after the last power of two are unreleased
    assert np.allclose(loss, [epsilon] * 8 + [0.0] * 4)


@pytest.mark.parametrize("tree_eps, factor", [("eps/K", 1 / 3), ("eps", 1.0)])
def test_private_ucb_trees_are_wired_at_their_budget(tree_eps, factor):
    params = dpbandits.ALGORITHMS["private_ucb"].resolve({"tree_eps": tree_eps})
    horizon, epsilon = 40, 1.0
    twin = dpbandits.ALGORITHMS["private_ucb"].reference_class()
    loss = counter_loss(lambda rng: twin(3, horizon, epsilon, rng, params).counters[1], horizon)
    assert loss.max() == pytest.approx(epsilon * factor)


@pytest.mark.parametrize("name", ["dp_ucb_bound", "dp_ucb_tossou"])
def test_hybrid_policies_use_epsilon_dp_counters(name):
    params = dpbandits.ALGORITHMS[name].resolve({})
    epsilon = 0.8
    twin = dpbandits.ALGORITHMS[name].reference_class()
    loss = counter_loss(lambda rng: twin(2, 30, epsilon, rng, params).counters[0], 30)
    assert loss.max() == pytest.approx(epsilon)


def test_counter_loss_detects_broken_counters():
    class Unnoised:  # noise only on the first release: later releases reveal the data
        def __init__(self, rng):
            self.rng, self.s, self.tau = rng, 0.0, 0

        def insert(self, x):
            self.tau += 1
            self.s += x
            return self.s + (self.rng.laplace(0.0, 1.0) if self.tau == 1 else 0.0)

    assert np.isinf(counter_loss(Unnoised, 4)[1:]).all()

    class DataDependent(Unnoised):
        def insert(self, x):
            self.s += x
            return self.s + (self.rng.laplace(0.0, 1.0) if x > 0 else 0.0)

    with pytest.raises(ValueError, match="depends on the data"):
        counter_loss(DataDependent, 3)

    class Squared(Unnoised):
        def insert(self, x):
            self.s += x * x
            return self.s + self.rng.laplace(0.0, 1.0)

    with pytest.raises(ValueError, match="not linear"):
        counter_loss(Squared, 3)


def _gaussian_delta(epsilon, sigma, sensitivity):
    """Exact delta(epsilon) of the Gaussian mechanism (Balle & Wang 2018, Theorem 8)."""
    a, c = sensitivity / (2 * sigma), epsilon * sigma / sensitivity
    return norm.cdf(a - c) - math.exp(epsilon) * norm.cdf(-a - c)


@pytest.mark.parametrize("epsilon", [0.05, 0.3, 0.9])
@pytest.mark.parametrize("delta", [1e-6, 1e-3, 0.1])
@pytest.mark.parametrize("sensitivity", [1.0, 0.125])
def test_gaussian_sigma_meets_delta_exactly(epsilon, delta, sensitivity):
    sigma = gaussian_sigma(sensitivity, epsilon, delta)
    assert _gaussian_delta(epsilon, sigma, sensitivity) <= delta
    if delta <= 1e-3:  # the classical sigma is loose; a tenth of it must fail (under-noised control)
        assert _gaussian_delta(epsilon, sigma / 10, sensitivity) > delta


def _laplace_cdf(x, scale):
    e = 0.5 * np.exp(-np.abs(x) / scale)
    return np.where(x < 0, e, 1 - e)


def _svt_probabilities(q, threshold, scale):
    """P(SVT output = i) for i = 0..k-1 and P(-1) (last), by quadrature over the threshold noise B.

    Output i <=> q_j + A_j < T + B for j < i and q_i + A_i >= T + B, all noises Lap(scale).
    """
    b = np.linspace(-40 * scale, 40 * scale, 40001)
    density = np.exp(-np.abs(b) / scale) / (2 * scale)
    below = _laplace_cdf(threshold + b[None, :] - np.asarray(q)[:, None], scale)  # P(q_j + A_j < T + b)
    prefix = np.cumprod(np.vstack([np.ones_like(b), below]), axis=0)
    integrands = np.vstack([prefix[:-1] * (1 - below), prefix[-1:]])
    return np.trapezoid(integrands * density, b, axis=1)


def test_sparse_vector_is_epsilon_dp_on_all_neighbours():
    epsilon, sensitivity, threshold = 1.0, 1.0, 2.0
    b_scale, a_scale = svt_scales(sensitivity, epsilon)
    assert b_scale == a_scale == pytest.approx(3 * sensitivity / epsilon)
    q = np.array([0.0, 1.0, 2.5, 0.5])
    p = _svt_probabilities(q, threshold, a_scale)
    assert p.sum() == pytest.approx(1.0, abs=1e-6)
    p_control = _svt_probabilities(q, threshold, a_scale / 4)
    worst, worst_control = 0.0, 0.0
    for shift in itertools.product((-1.0, 0.0, 1.0), repeat=q.size):
        q2 = q + sensitivity * np.array(shift)
        worst = max(worst, np.abs(np.log(p / _svt_probabilities(q2, threshold, a_scale))).max())
        control = p_control / _svt_probabilities(q2, threshold, a_scale / 4)
        worst_control = max(worst_control, np.abs(np.log(control)).max())
    assert epsilon / 2 < worst <= epsilon + 1e-6
    assert worst_control > epsilon  # a quarter of the noise violates epsilon

    # the implementation samples exactly these probabilities
    rng, runs = np.random.default_rng(11), 20000
    out = np.array([sparse_vector(q, threshold, sensitivity, epsilon, rng) for _ in range(runs)])
    freq = np.array([np.mean(out == i) for i in [*range(q.size), -1]])
    assert np.all(np.abs(freq - p) <= 4.5 * np.sqrt(p * (1 - p) / runs))
