"""Noise scales and structure of the continual-release counters: Chan, Shi & Song's binary and hybrid
mechanisms as used by Tossou & Dimitrakakis 2016 (Section 2.3) and Sajed's thesis (Algorithm 5)."""

import math

import numpy as np
import pytest
from numba import njit

from dpbandits.mechanisms import noise as M


def test_laplace_scale_and_errors():
    assert M.laplace_scale(1.0, 0.5) == 2.0
    with pytest.raises(ValueError, match="epsilon"):
        M.laplace_scale(1.0, 0.0)
    x = M.laplace_mechanism(np.zeros(200_000), 1.0, 0.25, np.random.default_rng(0))
    # Var Lap(b) = 2 b^2 = 32; s.e. of the sample variance ~ sqrt((E X^4 - var^2)/n) = sqrt(20 b^4 / n)
    assert abs(x.var() - 32.0) < 5 * math.sqrt(20 * 4**4 / x.size)


def test_gaussian_sigma():
    assert M.gaussian_sigma(1.0, 0.5, 1e-5) == pytest.approx(math.sqrt(2 * math.log(1.25e5)) / 0.5)


def test_tree_levels_and_bits():
    assert M.tree_levels(50_000_000) == 27
    assert M.tree_bits(100_000) == 17


def _noise_path(counter_cls, n, *args):
    rng = np.random.default_rng(1)
    c = counter_cls(*args, rng)
    return np.array([c.insert(0.0) for _ in range(n)])


def test_binary_tree_variance_is_popcount():
    taus = np.arange(1, 33)
    reps = 4000
    rng = np.random.default_rng(2)
    paths = np.empty((reps, taus.size))
    for r in range(reps):
        c = M.BinaryTreeCounter(3.0, rng)
        paths[r] = [c.insert(1.0) - (i + 1) for i in range(taus.size)]
    expected = np.array([2 * bin(t).count("1") * 9.0 for t in taus])
    # sample variance of n draws has relative s.e. ~ sqrt((kurt-1)/n) <= sqrt(5/n) for Laplace sums
    np.testing.assert_allclose(paths.var(axis=0), expected, rtol=6 * math.sqrt(5 / reps))
    assert abs(paths.mean()) < 0.5  # unbiased


def test_tree_element_in_at_most_levels_nodes():
    # item i lies in the dyadic nodes (level j, index i >> j) completed at times (i>>j+1)<<j ... <= T
    horizon = 1000
    levels = M.tree_bits(horizon)
    for i in range(1, horizon + 1):
        nodes = {(j, (i - 1) >> j) for j in range(levels) if (((i - 1) >> j) + 1) << j <= horizon}
        assert len(nodes) <= levels


def test_hybrid_variance_formula():
    taus = [1, 2, 3, 5, 8, 9, 15, 16, 17, 100, 255, 256]
    reps = 3000
    rng = np.random.default_rng(3)
    eps = 1.0
    paths = np.empty((reps, max(taus)))
    for r in range(reps):
        c = M.HybridCounter(eps, rng)
        paths[r] = [c.insert(1.0) for _ in range(max(taus))] - np.arange(1, max(taus) + 1)
    for tau in taus:
        expected = M.hybrid_noise_variance(tau, eps)
        assert paths[:, tau - 1].var() == pytest.approx(expected, rel=6 * math.sqrt(5 / reps)), tau
    assert M.hybrid_noise_variance(16, 1.0) == pytest.approx(6.3245**2, rel=1e-3)  # hybrid counter at n = 16: sd 6.3
    assert math.sqrt(M.hybrid_noise_variance(99999, 0.1)) == pytest.approx(1363, rel=1e-3)


def test_noise_is_data_independent():
    x = np.random.default_rng(5).integers(0, 2, 300).astype(float)
    for cls, args in ((M.HybridCounter, (0.5,)), (M.BinaryTreeCounter, (2.0,))):
        a, b = cls(*args, np.random.default_rng(9)), cls(*args, np.random.default_rng(9))
        ra = np.array([a.insert(v) for v in x])
        rb = np.array([b.insert(0.0) for _ in x])
        np.testing.assert_allclose(ra - rb, np.cumsum(x), atol=1e-9)


@njit
def _incremental_tree(n, scale, seed_rng):
    nodes = np.zeros(64)
    z = 0.0
    out = np.empty(n)
    for i in range(1, n + 1):
        z = M.tree_noise_insert(nodes, z, i, scale, seed_rng)
        out[i - 1] = z
    return out


@njit
def _incremental_hybrid(n, scale, seed_rng):
    nodes = np.zeros(64)
    state = np.zeros(2)
    out = np.empty(n)
    for i in range(1, n + 1):
        out[i - 1] = M.hybrid_noise_insert(nodes, state, i, scale, scale, seed_rng)
    return out


def test_incremental_counters_equal_literal_ones():
    n = 1500
    lit = _noise_path(M.BinaryTreeCounter, n, 2.5)
    inc = _incremental_tree(n, 2.5, np.random.default_rng(1))
    np.testing.assert_allclose(inc, lit, atol=1e-9)
    lit = _noise_path(M.HybridCounter, n, 0.8)
    inc = _incremental_hybrid(n, 2.0 / 0.8, np.random.default_rng(1))
    np.testing.assert_allclose(inc, lit, atol=1e-9)


def test_logarithmic_counter_accumulates_noise():
    rng = np.random.default_rng(4)
    reps = 4000
    vals = np.empty(reps)
    for r in range(reps):
        c = M.LogarithmicCounter(1.0, rng)
        for _ in range(16):
            v = c.insert(1.0)
        vals[r] = v - 16
    # 2^4: five accumulated Lap(1) draws -> variance 10
    assert vals.var() == pytest.approx(10.0, rel=6 * math.sqrt(5 / reps))
