"""The frontier's lower bounds: each formula, with its theorem's constant, on two instances by hand."""

from __future__ import annotations

import math

import numpy as np
import pytest

from dpbandits.drawing.bounds import BOUNDS, asymptotic, binding, lower_bounds, pulls_asked
from dpbandits.mechanisms.klucb import d_eps


def kl(p, q):
    """Bernoulli KL written out (0 < p, q < 1)."""
    return p * math.log(p / q) + (1 - p) * math.log((1 - p) / (1 - q))


def deps(x, y, eps, grid=200_001):
    """d_eps(x, y) = min over z between x and y of eps |x - z| + kl(z, y), by brute force on a grid."""
    z = np.linspace(min(x, y), max(x, y), grid)[1:-1]
    values = eps * np.abs(x - z) + z * np.log(z / y) + (1 - z) * np.log((1 - z) / (1 - y))
    return min(float(values.min()), eps * abs(x - y), kl(x, y))


@pytest.mark.parametrize(("x", "y", "eps"), [(0.5, 0.6, 0.1), (0.5, 0.6, 3.0), (0.25, 0.75, 0.5), (0.9, 0.7, 1.0)])
def test_d_eps_is_the_smallest_cost_of_moving_the_mean_then_the_law(x, y, eps):
    assert d_eps(x, y, eps) == pytest.approx(deps(x, y, eps), rel=1e-6, abs=1e-12)
    assert d_eps(x, y, eps) <= min(kl(x, y), eps * abs(x - y)) + 1e-15
    assert d_eps(x, x, eps) == 0.0


def test_two_arms_by_hand():
    """Means (0.6, 0.5), T = e^10 (ln T = 10): one suboptimal arm of gap 0.1."""
    horizon = math.exp(10)
    means = [0.6, 0.5]
    for eps in (0.01, 0.1, 10.0):
        got = asymptotic(means, horizon, eps)
        assert got["lai_robbins"] == pytest.approx(0.1 * 10 / kl(0.5, 0.6))
        assert got["azize_basu"] == pytest.approx(0.1 * 10 / min(kl(0.5, 0.6), 6 * eps * 0.1))
        assert got["shariff_sheffet"] == pytest.approx(10 / (6 * eps))
        assert got["azize_2025"] == pytest.approx(0.1 * 10 / deps(0.5, 0.6, eps), rel=1e-6)
        assert got["uniform_play"] == pytest.approx(horizon * 0.05)
    small = asymptotic(means, horizon, 0.01)
    assert small["azize_basu"] == pytest.approx(10 / 0.06)  # 6 eps Delta < kl: Delta / (6 eps Delta) ln T
    public = asymptotic(means, horizon, None)
    assert all(np.isnan(public[b]) for b, spec in BOUNDS.items() if spec.private)


def test_five_arms_by_hand():
    """C2 with K = 5 (means 3/4 down to 1/4 by 1/8), T = 10^5 at eps = 0.5: four suboptimal arms."""
    means = [0.75, 0.625, 0.5, 0.375, 0.25]
    horizon, eps = 10**5, 0.5
    log_t = math.log(horizon)
    gaps = [0.125, 0.25, 0.375, 0.5]
    mus = means[1:]
    got = asymptotic(means, horizon, eps)
    assert got["lai_robbins"] == pytest.approx(sum(g / kl(m, 0.75) for g, m in zip(gaps, mus, strict=True)) * log_t)
    assert got["azize_basu"] == pytest.approx(
        sum(g / min(kl(m, 0.75), 6 * eps * g) for g, m in zip(gaps, mus, strict=True)) * log_t
    )
    assert got["shariff_sheffet"] == pytest.approx(4 * log_t / (6 * eps))
    assert got["azize_2025"] == pytest.approx(
        sum(g / deps(m, 0.75, eps) for g, m in zip(gaps, mus, strict=True)) * log_t, rel=1e-6
    )
    assert got["uniform_play"] == pytest.approx(horizon * sum(gaps) / 5)
    # the d_eps bound is the largest: d_eps <= min(kl, eps Delta) <= min(kl, 6 eps Delta)
    assert got["azize_2025"] >= got["azize_basu"] >= got["shariff_sheffet"]
    assert got["azize_2025"] >= got["lai_robbins"]


def test_a_bound_is_capped_at_the_regret_of_always_pulling_the_worst_arm():
    means, horizon = [0.75, 0.7], 1000
    raw, capped = asymptotic(means, horizon, 0.01), lower_bounds(means, horizon, 0.01)
    assert raw["azize_2025"] > horizon * 0.05  # ~ ln(1000) / 0.01 = 690 > 50
    for bound in BOUNDS:
        assert capped[bound] == pytest.approx(min(raw[bound], horizon * 0.05))
    assert capped["uniform_play"] == raw["uniform_play"]


def test_the_pulls_a_bound_asks_of_an_arm():
    means, horizon = [0.6, 0.5, 0.5], 10**4
    assert pulls_asked(means, horizon, None, "lai_robbins") == pytest.approx(math.log(horizon) / kl(0.5, 0.6))
    # m ln T / (6 eps) = sum_a Delta_a ln T / (6 eps Delta_a): arm a is asked ln T / (6 eps Delta_a) pulls
    assert pulls_asked(means, horizon, 0.1, "shariff_sheffet") == pytest.approx(math.log(horizon) / 0.06)
    assert np.isnan(pulls_asked(means, horizon, None, "azize_2025"))


def test_which_models_each_bound_binds():
    assert binding("none") == ["lai_robbins"] and binding("approx") == ["lai_robbins"]
    assert binding("pure") == binding("local") == ["lai_robbins", "azize_basu", "shariff_sheffet", "azize_2025"]
