"""_gamma: numpy's standard normal, standard gamma and Beta samplers on an inline PCG64 stream, word for
word against ``np.random.Generator(PCG64)`` on the same state (values and the generator state after)."""

import math

import numpy as np
import pytest

from dpbandits.bandits._gamma import fill_betas, fill_gammas, fill_normals
from dpbandits.bandits._pcg64 import POOL, POOL_INDEX, POOL_START, new_streams, set_streams_state

SHAPES = [0.3, 0.999, 1.0, 1.5, 7.3, 1e3, 1e6, 1e-3, 0.0]
BETA_GRID = [1e-3, 0.3, 1.0, 1.0 + 2**-52, 2.5, 1e5, 1e6]


def twin(seed):
    """(Generator, stream on a copy of its state)."""
    g = np.random.Generator(np.random.PCG64(seed))
    return g, new_streams([g])[0]


def assert_same_state(g, sb):
    """The stream's unread pool words are g's next words, and its state is g's after them."""
    i = int(sb[POOL_INDEX])
    np.testing.assert_array_equal(sb[POOL_START + i :], g.bit_generator.random_raw(POOL - i))
    h = np.random.Generator(np.random.PCG64(0))
    set_streams_state([h], sb[None])
    assert h.bit_generator.state == g.bit_generator.state


def split_fill(fill, sb, n, *args):
    """float64[n] drawn by two calls of odd sizes (the second starts mid-pool)."""
    cut = 1001
    first, rest = np.empty(cut), np.empty(n - cut)
    fill(sb, *(x[:cut] for x in args), first)
    fill(sb, *(x[cut:] for x in args), rest)
    return np.concatenate([first, rest])


def test_normals_word_for_word():
    g, sb = twin(1)
    n = 10**6  # ~1.5e4 words past the fast path, ~280 of them in the base layer (the tail)
    out = split_fill(fill_normals, sb, n)
    np.testing.assert_array_equal(out, g.standard_normal(n))
    assert_same_state(g, sb)


@pytest.mark.parametrize("shape", SHAPES)
def test_gammas_word_for_word(shape):
    g, sb = twin(2)
    n = 200_000
    out = split_fill(fill_gammas, sb, n, np.full(n, shape))
    np.testing.assert_array_equal(out, g.standard_gamma(shape, n))
    assert_same_state(g, sb)


def test_gammas_random_shapes_word_for_word():
    shapes = 10 ** np.random.default_rng(3).uniform(-3, 6, 200_000)
    shapes[::97] = 1.0
    shapes[::101] = 0.0
    g, sb = twin(4)
    out = split_fill(fill_gammas, sb, shapes.size, shapes)
    np.testing.assert_array_equal(out, g.standard_gamma(shapes))
    assert_same_state(g, sb)


def beta_grid(reps):
    """(a, b): every pair of BETA_GRID ``reps`` times in random order, plus tiny a, b (numpy's shortcut)."""
    a, b = (x.ravel() for x in np.meshgrid(BETA_GRID, BETA_GRID))
    a, b = np.append(np.tile(a, reps), [1e-104] * reps), np.append(np.tile(b, reps), [1e-105] * reps)
    order = np.random.default_rng(5).permutation(a.size)
    return a[order], b[order]


def test_betas_word_for_word():
    a, b = beta_grid(4000)
    g, sb = twin(6)
    out = split_fill(lambda s, x, y, o: fill_betas(s, x, y, o, False), sb, a.size, a, b)
    np.testing.assert_array_equal(out, g.beta(a, b))
    assert_same_state(g, sb)
    assert np.all((out >= 0) & (out <= 1))


def test_betas_closed_forms_word_for_word():
    """closed=True: numpy's beta except Beta(a, 1) = exp(-E/a) and Beta(1, b) = 1 - exp(-E/b)."""
    a, b = beta_grid(300)
    g, sb = twin(7)
    out = split_fill(lambda s, x, y, o: fill_betas(s, x, y, o, True), sb, a.size, a, b)
    expected = []
    for x, y in zip(a, b, strict=True):
        if y == 1.0:
            expected.append(math.exp(-g.standard_exponential() / x))
        elif x == 1.0:
            expected.append(-math.expm1(-g.standard_exponential() / y))
        else:
            expected.append(g.beta(x, y))
    np.testing.assert_array_equal(out, expected)
    assert_same_state(g, sb)
