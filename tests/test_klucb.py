"""Bernoulli KL divergence and the KL-UCB upper index (dpbandits.mechanisms.klucb)."""

import math

import numpy as np
import pytest
from scipy.optimize import brentq
from scipy.special import rel_entr

from dpbandits.mechanisms.klucb import kl_bernoulli, klucb_upper

TOL = 1e-9
GRID = [0.0, 1e-6, 0.01, 0.1, 0.25, 0.5, 0.75, 0.9, 0.99, 1 - 1e-6, 1.0]


@pytest.mark.parametrize("p", GRID)
@pytest.mark.parametrize("q", [1e-6, 0.01, 0.3, 0.5, 0.8, 0.999])
def test_kl_matches_scipy_relative_entropy(p, q):
    expected = rel_entr(p, q) + rel_entr(1 - p, 1 - q)
    assert kl_bernoulli(p, q) == pytest.approx(expected, rel=1e-12, abs=1e-15)


def test_kl_closed_values_and_boundaries():
    assert kl_bernoulli(0.5, 0.25) == pytest.approx(0.5 * math.log(2) + 0.5 * math.log(2 / 3), rel=1e-14)
    for p in GRID:
        assert kl_bernoulli(p, p) == 0.0
    assert kl_bernoulli(0.0, 0.3) == pytest.approx(-math.log(0.7), rel=1e-14)
    assert kl_bernoulli(1.0, 0.3) == pytest.approx(-math.log(0.3), rel=1e-14)
    # q at 0 or 1 is clamped to 1e-15 from the boundary: finite, about 34.5 nats
    top = 1 - 1e-15
    expected = 0.5 * math.log(0.5 / top) + 0.5 * math.log(0.5 / (1 - top))
    assert kl_bernoulli(0.5, 1.0) == pytest.approx(expected)
    assert math.isfinite(kl_bernoulli(0.5, 0.0))


def _exact_index(p, level):
    hi = 1 - 1e-15
    if kl_bernoulli(p, hi) <= level:
        return 1.0
    return brentq(lambda q: kl_bernoulli(p, q) - level, p, hi, xtol=1e-14, rtol=1e-15)


@pytest.mark.parametrize("p", GRID[:-1])
@pytest.mark.parametrize("level", [1e-4, 0.01, 0.1, 1.0, 5.0, 30.0])
def test_klucb_upper_solves_kl_equation(p, level):
    q = klucb_upper(p, level, TOL)
    exact = _exact_index(p, level)
    assert exact - TOL <= q <= exact + 1e-15
    assert p <= q <= 1.0
    assert kl_bernoulli(p, q) <= level


@pytest.mark.parametrize("level", [1e-3, 0.2, 2.0, 20.0])
def test_klucb_upper_boundaries(level):
    # p = 0: kl(0, q) = -ln(1 - q)  =>  q = 1 - exp(-level)
    assert klucb_upper(0.0, level, TOL) == pytest.approx(-math.expm1(-level), abs=TOL)
    assert klucb_upper(1.0, level, TOL) == 1.0
    assert klucb_upper(1.5, level, TOL) == 1.0


def test_klucb_upper_degenerate_levels():
    assert klucb_upper(0.3, 0.0, TOL) == 0.3
    assert klucb_upper(0.3, 1e3, TOL) == 1.0  # solution within 1e-15 of 1 rounds to exactly 1
    assert klucb_upper(0.0, 40.0, TOL) == 1.0


def test_klucb_upper_is_monotone_in_level_and_p():
    levels = np.geomspace(1e-4, 40.0, 60)
    ps = np.linspace(0.0, 1.0, 41)
    table = np.array([[klucb_upper(p, c, TOL) for c in levels] for p in ps])
    assert np.all(np.diff(table, axis=1) >= -TOL)
    assert np.all(np.diff(table, axis=0) >= -TOL)
    assert np.all(table >= ps[:, None])
