"""Max-Det collections, dimensionality reduction and G-optimal designs."""

import itertools
import math

import numpy as np
import pytest

from dpbandits.bai import section5_instance, two_arm_instance
from dpbandits.bai.goptimal import caratheodory, g_optimal, g_value, g_values
from dpbandits.bai.maxdet import coefficients, maxdet, maxdet_exhaustive, maxdet_maxvol
from dpbandits.bai.projection import orthonormal_coordinates


def _absdet(x, idx):
    return abs(np.linalg.det(x[idx]))


@pytest.mark.parametrize("d", [1, 2, 3, 4, 5])
def test_maxdet_coefficients_bounded(d):
    rng = np.random.default_rng(d)
    for _ in range(40):
        x = rng.normal(size=(int(rng.integers(d + 1, 25)), d)) * rng.uniform(0.1, 10, size=d)
        for idx in (maxdet_exhaustive(x), maxdet_maxvol(x)):
            beta = coefficients(x, idx)
            assert np.abs(beta).max() <= 1 + 1e-9
            np.testing.assert_allclose(beta @ x[idx], x, atol=1e-9 * np.abs(x).max())
            np.testing.assert_array_equal(beta[idx], np.eye(d))


def test_exhaustive_is_global_and_maxvol_mostly_agrees():
    """maxvol is a single-swap local optimum: never better than exhaustive, usually equal."""
    rng = np.random.default_rng(7)
    for d, min_rate in [(1, 1.0), (2, 0.95), (3, 0.9)]:
        agree = 0
        for _ in range(100):
            x = rng.normal(size=(int(rng.integers(d + 2, 13)), d))
            e, m = maxdet_exhaustive(x), maxdet_maxvol(x)
            brute = max(_absdet(x, list(c)) for c in itertools.combinations(range(len(x)), d))
            assert _absdet(x, e) == pytest.approx(brute, rel=1e-12)
            assert _absdet(x, m) <= _absdet(x, e) * (1 + 1e-12)
            agree += np.array_equal(e, m)
        assert agree / 100 >= min_rate


def test_maxdet_ties_and_dispatch():
    # duplicate rows: |det| ties, the lexicographically smallest tuple wins
    x = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 0.0], [0.0, 1.0]])
    np.testing.assert_array_equal(maxdet_exhaustive(x), [0, 1])
    rng = np.random.default_rng(3)
    x = rng.normal(size=(40, 3))
    np.testing.assert_array_equal(maxdet(x, exhaustive_limit=0), maxdet_maxvol(x))
    np.testing.assert_array_equal(maxdet(x), maxdet_exhaustive(x))
    assert math.comb(40, 3) < 200_000


def test_section5_maxdet_is_extreme_pair():
    arms, _ = section5_instance()
    np.testing.assert_array_equal(maxdet(arms), [0, 2])


def test_orthonormal_coordinates_preserve_geometry():
    rng = np.random.default_rng(0)
    x = rng.normal(size=(6, 2)) @ rng.normal(size=(2, 5))  # rank 2 in R^5
    c = orthonormal_coordinates(x)
    assert c.shape == (6, 2)
    np.testing.assert_allclose(c @ c.T, x @ x.T, atol=1e-10)  # Gram matrix kept
    idx = maxdet(c)
    beta = coefficients(c, idx)
    np.testing.assert_allclose(beta @ x[idx], x, atol=1e-9)  # relations hold in original coords
    assert orthonormal_coordinates(np.zeros((3, 2))).shape == (3, 0)


@pytest.mark.parametrize("d", [1, 2, 3, 4, 6])
def test_g_optimal_kiefer_wolfowitz(d):
    rng = np.random.default_rng(10 + d)
    x = rng.normal(size=(40, d)) * rng.uniform(0.2, 5, size=d)
    pi = g_optimal(x)
    assert pi.min() >= 0 and pi.sum() == pytest.approx(1.0, abs=1e-12)
    assert d <= g_value(x, pi) <= d * (1 + 1e-4)  # Kiefer-Wolfowitz: optimum is d
    assert np.count_nonzero(pi) <= d * (d + 1) // 2 + 1
    # equivalence theorem: support rows sit on the ellipsoid (within tolerance)
    g = g_values(x, pi)
    assert np.all(g[pi > 0] >= d * (1 - 1e-3))


@pytest.mark.parametrize("solver", ["fw_away", "fw"])
@pytest.mark.parametrize("ratio", [1, 2, 10, 100])
def test_g_optimal_two_vectors_is_half_half(ratio, solver):
    arms, _ = two_arm_instance(ratio)
    np.testing.assert_allclose(g_optimal(arms, solver=solver), [0.5, 0.5], atol=1e-12)


def test_g_optimal_section5_is_half_half():
    arms, _ = section5_instance()
    pi = g_optimal(arms)
    expected = np.zeros(len(arms))
    expected[[0, 2]] = 0.5
    np.testing.assert_allclose(pi, expected, atol=1e-6)


def test_caratheodory_keeps_moment_matrix():
    rng = np.random.default_rng(5)
    x = rng.normal(size=(30, 3))
    pi = rng.random(30)
    pi /= pi.sum()
    out = caratheodory(x, pi)
    assert np.count_nonzero(out) <= 7 and out.min() >= 0
    assert out.sum() == pytest.approx(1.0, abs=1e-12)
    np.testing.assert_allclose((x.T * out) @ x, (x.T * pi) @ x, atol=1e-12)
