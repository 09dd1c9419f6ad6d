"""The inline block samplers draw the laws they claim: Kolmogorov-Smirnov tests against scipy's distributions.

``tests/test_numpy_streams.py`` and ``tests/test_gamma.py`` check that the samplers give numpy's Generator draws
word for word; that holds only as long as numpy's streams do not change. These tests check the law itself and do not
depend on numpy's streams: ``bandits._draws.fill_laplace`` and the noise part of ``fill_draws`` against Laplace(0, b),
``fill_draws``' Bernoulli deciders against Uniform(0, 1), ``bandits._gamma.fill_gammas`` (``standard_gamma``)
against Gamma(shape, 1) and ``fill_betas`` (``beta``, both forms) against Beta(a, b). Each test also checks its
control: the same statistic on the halved draws rejects.
"""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats

from dpbandits.bandits._draws import critical_chunks, fill_draws, fill_laplace
from dpbandits.bandits._gamma import fill_betas, fill_gammas
from dpbandits.bandits._pcg64 import new_streams

N = 30_000  # draws per test: KS detects a shift of the CDF by about 1.95 / sqrt(N) = 0.011 at ALPHA
ALPHA = 1e-3


def stream(seed: int) -> np.ndarray:
    """An inline PCG64 stream (uint64[STREAM]) seeded with ``seed``."""
    return new_streams([np.random.Generator(np.random.PCG64(seed))])[0]


def assert_law(sampler: str, law: str, draws: np.ndarray, dist) -> None:
    """``draws`` pass a KS test of ``dist`` at ALPHA, and the halved draws fail it (the control)."""
    p = stats.kstest(draws, dist.cdf).pvalue
    assert p > ALPHA, f"{sampler} draws {law}: rejected by a KS test of {draws.size} draws, p={p:.2e} < {ALPHA}"
    control = stats.kstest(0.5 * draws, dist.cdf).pvalue
    assert control < ALPHA, f"the KS control of {sampler} ({law}, halved draws) does not reject: p={control:.2e}"


@pytest.mark.parametrize("scale", [1.0, 0.25])
def test_fill_laplace_draws_laplace(scale):
    eta = np.empty(N)
    fill_laplace(stream(11), scale, eta)
    assert_law("bandits._draws.fill_laplace", f"Laplace(0, {scale})", eta, stats.laplace(0.0, scale))


@pytest.mark.parametrize("means", [[0.5, 0.7], [0.1, 0.5, 0.9]])
def test_fill_draws_noise_is_laplace_and_deciders_uniform(means):
    scale = 2.0
    u, eta = np.empty(N), np.empty(N)
    fill_draws(stream(12), critical_chunks(np.array(means)), scale, u, eta)
    assert_law("bandits._draws.fill_draws (noise)", f"Laplace(0, {scale})", eta, stats.laplace(0.0, scale))
    assert_law("bandits._draws.fill_draws (deciders)", "Uniform(0, 1)", u, stats.uniform(0.0, 1.0))
    for p in means:  # a decider below p is a reward 1: Binomial(N, p) successes, 5 standard deviations
        assert abs(np.mean(u < p) - p) < 5 * np.sqrt(p * (1 - p) / N), f"fill_draws: P(u < {p}) = {np.mean(u < p)}"


@pytest.mark.parametrize("shape", [0.4, 1.0, 2.5, 30.0])  # the boosted small-shape path, exponential, Marsaglia-Tsang
def test_standard_gamma_draws_gamma(shape):
    out = np.empty(N)
    fill_gammas(stream(13), np.full(N, shape), out)
    assert_law("bandits._gamma.standard_gamma", f"Gamma({shape}, 1)", out, stats.gamma(shape))


@pytest.mark.parametrize(
    ("a", "b", "closed"),
    [
        (0.5, 0.7, False),  # Johnk's method
        (2.0, 3.5, False),  # two gammas
        (4.0, 1.0, True),  # exp(-E/a)
        (1.0, 6.0, True),  # 1 - exp(-E/b)
        (7.0, 3.0, True),  # neither shape 1: two gammas, as Lazy-DP-TS's posterior
    ],
)
def test_beta_draws_beta(a, b, closed):
    out = np.empty(N)
    fill_betas(stream(14), np.full(N, a), np.full(N, b), out, closed)
    assert_law(f"bandits._gamma.beta (closed={closed})", f"Beta({a}, {b})", out, stats.beta(a, b))


def test_the_law_check_fails_on_a_wrong_law():
    eta = np.empty(N)
    fill_laplace(stream(15), 1.0, eta)
    with pytest.raises(AssertionError, match=r"fill_laplace draws Laplace\(0, 2.0\).*p="):
        assert_law("bandits._draws.fill_laplace", "Laplace(0, 2.0)", eta, stats.laplace(0.0, 2.0))
    with pytest.raises(AssertionError, match="control"):  # 10 draws: the halved ones pass too (no power), told
        assert_law("bandits._draws.fill_laplace", "Laplace(0, 1.0)", eta[:10], stats.laplace(0.0, 1.0))
