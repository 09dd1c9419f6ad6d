"""Does the installed numpy still draw what the inline samplers reproduce?

The fast kernels are exact because their inline PCG64 samplers give numpy's Generator draws word for word.
A numpy release that changes a stream (the PCG64 words, ``random``, the ziggurat exponential or normal,
``standard_gamma``, ``beta``) breaks that; this test says which. So does a wrong inline sampler:
``tests/test_samplers.py`` tells the two apart (it checks each sampler's law, not numpy's words).
``pyproject.toml`` bounds numpy by the releases it has passed on: run it on a newer numpy before raising the bound.
"""

import numpy as np

from dpbandits.bandits._draws import fill_laplace
from dpbandits.bandits._gamma import fill_betas, fill_gammas, fill_normals
from dpbandits.bandits._pcg64 import POOL, POOL_INDEX, POOL_START, new_streams, refill, set_streams_state, to_double

N = 50_000


def _twin(seed):
    g = np.random.Generator(np.random.PCG64(seed))
    return g, new_streams([g])[0]


def _same_state(g, sb) -> bool:
    """The stream's unread pool words are g's next words, and its state is g's after them."""
    i = int(sb[POOL_INDEX])
    if not np.array_equal(sb[POOL_START + i :], g.bit_generator.random_raw(POOL - i)):
        return False
    h = np.random.Generator(np.random.PCG64(0))
    set_streams_state([h], sb[None])
    return h.bit_generator.state == g.bit_generator.state


def _words(g, sb):
    refill(sb)
    return np.array_equal(sb[POOL_START:], g.bit_generator.random_raw(POOL))


def _random(g, sb):
    refill(sb)
    return np.array_equal([to_double(w) for w in sb[POOL_START:]], g.random(POOL))


def _exponential(g, sb):
    eta = np.empty(N)
    fill_laplace(sb, 1.0, eta)  # a fair sign times the ziggurat exponential
    return np.array_equal(np.abs(eta), g.standard_exponential(N)) and _same_state(g, sb)


def _normal(g, sb):
    out = np.empty(N)
    fill_normals(sb, out)
    return np.array_equal(out, g.standard_normal(N)) and _same_state(g, sb)


def _gamma(g, sb):
    shapes = 10 ** np.random.default_rng(1).uniform(-3, 6, N)  # below 1 (boosted), 1 (exponential), above
    shapes[::97] = 1.0
    out = np.empty(N)
    fill_gammas(sb, shapes, out)
    return np.array_equal(out, g.standard_gamma(shapes)) and _same_state(g, sb)


def _beta(g, sb):
    a, b = 10 ** np.random.default_rng(2).uniform(-3, 5, (2, N))  # Johnk's method below 1, gammas above
    out = np.empty(N)
    fill_betas(sb, a, b, out, False)
    return np.array_equal(out, g.beta(a, b)) and _same_state(g, sb)


STREAMS = {
    "PCG64 words": _words,
    "random()": _random,
    "standard_exponential()": _exponential,
    "standard_normal()": _normal,
    "standard_gamma()": _gamma,
    "beta()": _beta,
}


def test_this_numpy_release_draws_the_streams_the_inline_samplers_reproduce():
    differ = [name for seed, (name, same) in enumerate(STREAMS.items()) if not same(*_twin(seed))]
    assert not differ, (
        f"numpy {np.__version__} draws other {', '.join(differ)} than the inline samplers. Either numpy's stream "
        "changed (keep pyproject.toml's numpy bound below this release) or the inline sampler is wrong: "
        "tests/test_samplers.py checks each sampler's law without numpy's streams and tells which"
    )
