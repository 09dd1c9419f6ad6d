"""DP-UCB (Mishra-Thakurta tree UCB as in Sajed 2019 thesis Algorithm 6): Gamma, tree noise process,
exact random draws, reduction to UCB, pull-for-pull agreement with the reference, distributions."""

import math

import numpy as np
import pytest
from _stats import same_counts, same_distribution
from numba import njit
from scipy import stats

import dpbandits
from dpbandits import ALGORITHMS, reference
from dpbandits.bandits._counters import tree_noise_step
from dpbandits.bandits._draws import (
    SERIES_FROM,
    critical_chunks,
    fill_draws,
    fill_laplace,
    fill_sqrt_log,
    fill_uniforms,
)
from dpbandits.bandits._pcg64 import (
    POOL,
    POOL_INDEX,
    POOL_START,
    new_streams,
    refill,
    set_streams_state,
    uniform_int,
)
from dpbandits.bandits.dp_ucb import BLOCK, LEAD_CHUNK, dp_ucb_batch, dp_ucb_on_draws, gamma_bonus, node_scale
from dpbandits.bandits.ucb import ucb_on_draws
from dpbandits.core.instances import sajed_instance
from dpbandits.core.seeding import run_generator
from dpbandits.mechanisms.noise import BinaryTreeCounter, tree_levels, tree_noise_insert
from dpbandits.reference.sajed import DPUCB

T_PAPER = 5 * 10**7


# --------------------------------------------------------------------------- registry, Gamma, scales


def test_registered():
    alg = ALGORITHMS["dp_ucb"]
    assert (alg.label, alg.kind, alg.private, alg.needs_horizon) == ("DP-UCB (tree)", "regret", True, True)
    assert alg.resolve({}) == {"beta": None, "gamma_log": "e", "gamma_denominator": "eps"}
    assert "[RECON]" in alg.params["gamma_log"].doc and "[RECON]" in alg.params["gamma_denominator"].doc


@pytest.mark.parametrize(
    "k, ln_value, log2_value",
    [
        (3, 12391.1, 25790),
        (5, 12551.6, 26125),
        (10, 12769.5, 26578),
        (20, 12987.3, 27031),
    ],
)
def test_gamma_spec_table(k, ln_value, log2_value):
    # Gamma * eps for T = 5e7, beta = 1/T ("/2" of the thesis' Algorithm 6 read as "/eps", docs/reconstructions.md)
    for eps in (0.1, 1.0):
        assert gamma_bonus(k, T_PAPER, eps, 1 / T_PAPER) * eps == pytest.approx(ln_value, abs=0.06)
        assert gamma_bonus(k, T_PAPER, eps, 1 / T_PAPER, "2") * eps == pytest.approx(log2_value, abs=0.6)
    ln_t = math.log(T_PAPER)
    assert gamma_bonus(k, T_PAPER, 0.5, 1e-3) == pytest.approx(
        ln_t**2 * math.log(k * T_PAPER * ln_t / 1e-3) / 0.5, rel=1e-14
    )
    # the literal "/2" of the thesis' Algorithm 6, line 3 (the gamma_denominator reading)
    assert gamma_bonus(k, T_PAPER, 0.1, 1 / T_PAPER, "e", "2") == pytest.approx(ln_value / 2, abs=0.03)


@pytest.mark.parametrize(
    "horizon, levels, gamma_levels", [(1000, 11, 3632.28), (1024, 11, 3638.02), (1025, 12, 4354.89)]
)
def test_gamma_levels_and_log2_throughout_by_hand(horizon, levels, gamma_levels):
    # K = 3, eps = 0.5, beta = 0.01. "levels": every log T of Gamma is the tree's L = ceil(log2 T) + 1 (11 for
    # T = 1000 and 1024, 12 for 1025), the outer log natural; "2all": every log in base 2, the inner one too
    k, eps, beta = 3, 0.5, 0.01
    twin = {
        v: DPUCB(k, horizon, eps, None, {"beta": beta, "gamma_log": v, "gamma_denominator": "eps"})
        for v in ("levels", "2all")
    }
    by_hand = levels**2 * math.log(k * horizon * levels / beta) / eps
    assert by_hand == pytest.approx(gamma_levels, abs=0.01)
    for got in (gamma_bonus(k, horizon, eps, beta, "levels"), twin["levels"].gamma):
        assert got == pytest.approx(by_hand, rel=1e-14)
    log2_t = math.log(horizon) / math.log(2)
    by_hand = log2_t**2 * (math.log(k * horizon * log2_t / beta) / math.log(2)) / eps
    for got in (gamma_bonus(k, horizon, eps, beta, "2all"), twin["2all"].gamma):
        assert got == pytest.approx(by_hand, rel=1e-13)
    assert gamma_bonus(k, horizon, 0.1, beta, "2all", "2") == pytest.approx(by_hand * eps / 2, rel=1e-13)
    # at the papers' T = 5e7 (K = 5, beta = 1/T): L = 27 and log2 T = 25.575
    ln_t = math.log(T_PAPER)
    default = ln_t**2 * math.log(5 * T_PAPER**2 * ln_t)
    assert gamma_bonus(5, T_PAPER, 1.0, 1 / T_PAPER, "levels") / default == pytest.approx(
        27**2 * math.log(5 * T_PAPER**2 * 27) / default, rel=1e-13
    )
    assert gamma_bonus(5, T_PAPER, 1.0, 1 / T_PAPER, "2all") == pytest.approx(25.5754**2 * 58.1495, rel=1e-5)


def test_node_scale():
    assert tree_levels(T_PAPER) == 27
    for eps in (0.1, 0.25, 0.5, 1.0):
        assert node_scale(T_PAPER, eps) == pytest.approx(27 / eps, rel=1e-15)
    assert node_scale(1024, 1.0) == 11 and node_scale(1025, 1.0) == 12  # ceil(log2 T) + 1


# --------------------------------------------------------------------------- tree noise process


class ScriptedLaplace:
    """Generator stand-in whose ``laplace`` returns the next scripted value."""

    def __init__(self, values):
        self.values = iter(values)

    def laplace(self, loc=0.0, scale=1.0):
        return loc + next(self.values)


def incremental_release_noise(etas):
    levels = np.zeros(65)
    base = 0.0
    out = []
    for m, eta in enumerate(etas, start=1):
        base = tree_noise_step(levels, base, m, eta)
        out.append(levels[(m & -m).bit_length() - 1])
    return np.array(out)


def test_tree_noise_matches_literal_counter_and_dyadic_nodes():
    n = 1500
    etas = np.random.default_rng(8).laplace(0.0, 3.0, n)
    levels = tree_levels(n)
    literal = BinaryTreeCounter(1.0, ScriptedLaplace(etas), levels)
    lit = np.array([literal.insert(0.0) for _ in range(n)])  # zero stream: release = noise
    inc = incremental_release_noise(etas)
    assert inc == pytest.approx(lit, rel=1e-12, abs=1e-12)
    # node (j, q) covers items (q-1) 2^j + 1 .. q 2^j and gets the draw of insertion q 2^j
    ctz = [(m & -m).bit_length() - 1 for m in range(n + 1)]
    node = {(ctz[m], m >> ctz[m]): etas[m - 1] for m in range(1, n + 1)}
    for m in range(1, n + 1):
        bits = [j for j in range(levels) if (m >> j) & 1]
        assert len(bits) == bin(m).count("1")
        assert inc[m - 1] == pytest.approx(sum(node[(j, m >> j)] for j in bits), rel=1e-12, abs=1e-12)
    # every item lies in at most L completed nodes
    for item in (1, 2, 3, 64, 777, n):
        covering = [(j, q) for (j, q) in node if (q - 1) * 2**j < item <= q * 2**j]
        assert 1 <= len(covering) <= levels


def test_tree_noise_matches_mechanisms_incremental_counter():
    n, scale = 1000, 2.5
    etas = np.random.default_rng(9).laplace(0.0, scale, n)
    rng = np.random.default_rng(9)
    nodes, z, ref = np.zeros(64), 0.0, []
    for m in range(1, n + 1):
        z = tree_noise_insert(nodes, z, m, scale, rng)
        ref.append(z)
    assert incremental_release_noise(etas) == pytest.approx(np.array(ref), rel=1e-12, abs=1e-12)


# --------------------------------------------------------------------------- random draws and sqrt(2 ln t)


@pytest.mark.parametrize("t0", [1, 1000, SERIES_FROM - 5, SERIES_FROM, 10**6 + 7, T_PAPER - BLOCK])
def test_sqrt_log_within_an_ulp(t0):
    g = np.empty(BLOCK)
    fill_sqrt_log(g, t0)
    exact = np.array([math.sqrt(2 * math.log(t0 + j)) for j in range(BLOCK)])
    if t0 < SERIES_FROM:
        assert (g == exact).all()
    else:
        assert np.abs(g - exact).max() <= 1.1 * np.spacing(exact).max()


def draw_blocks(means, scale, blocks, seed):
    sb = new_streams([np.random.default_rng(seed)])[0]
    crit = critical_chunks(np.asarray(means, dtype=float))
    u, eta = np.empty(BLOCK * blocks), np.empty(BLOCK * blocks)
    for b in range(blocks):
        fill_draws(sb, crit, scale, u[b * BLOCK : (b + 1) * BLOCK], eta[b * BLOCK : (b + 1) * BLOCK])
    return u, eta


@njit
def stream_words(sb, n):
    """The next n words of stream ``sb``, read as the kernels do."""
    out = np.empty(n, dtype=np.uint64)
    i = np.int64(sb[POOL_INDEX])
    for j in range(n):
        if i >= POOL:
            refill(sb)
            i = 0
        out[j] = sb[POOL_START + i]
        i += 1
    sb[POOL_INDEX] = i
    return out


def test_inline_stream_is_numpys_pcg64():
    # the pooled words are the Generator's own raw words, across refills; writing the state back
    # leaves the Generator past every pooled word
    rng, twin = np.random.default_rng(31), np.random.default_rng(31)
    streams = new_streams([rng])
    n = 3 * POOL + 17
    assert (stream_words(streams[0], n) == twin.bit_generator.random_raw(n)).all()
    set_streams_state([rng], streams)
    twin.bit_generator.random_raw(4 * POOL - n)
    assert rng.bit_generator.state == twin.bit_generator.state
    # numpy's ziggurat exponential, draw for draw (rejections included), with a fair independent sign
    eta = np.empty(200_000)
    fill_laplace(new_streams([np.random.default_rng(32)])[0], 2.5, eta)
    assert (np.abs(eta) == 2.5 * np.random.default_rng(32).standard_exponential(eta.size)).all()
    assert abs((eta > 0).mean() - 0.5) < 4.5 * 0.5 / math.sqrt(eta.size)
    assert stats.kstest(eta, stats.laplace(scale=2.5).cdf).pvalue > 1e-3
    with pytest.raises(ValueError, match="rng"):
        new_streams([np.random.Generator(np.random.MT19937(0))])


def test_uniforms_and_tie_picks_are_exact():
    sb = new_streams([np.random.default_rng(33)])[0]
    u = np.empty(300_000)
    fill_uniforms(sb, critical_chunks(np.array([0.3, (7 + 0.5) / 65536])), u)
    for p in (0.3, 0.5, (7 + 0.5) / 65536, 7 / 65536):
        x = (u < p).sum()
        assert abs(x - u.size * p) < 4.5 * math.sqrt(u.size * p * (1 - p))
    for m in (2, 3, 5, 7):
        picks = np.array([uniform_int(sb, m) for _ in range(14_000)])
        assert picks.min() == 0 and picks.max() == m - 1
        assert stats.chisquare(np.bincount(picks, minlength=m)).pvalue > 1e-3


def test_draws_give_exact_bernoulli_and_laplace():
    # a mean whose 16-bit chunk is critical (decided by the refining uniform), and common ones
    p_crit = (40000 + 0.37) / 65536
    means = [0.75, 0.7, 0.3, p_crit]
    u, eta = draw_blocks(means, 2.0, 1000, seed=10)
    n = u.size
    for p in means:
        z = ((u < p).sum() - n * p) / math.sqrt(n * p * (1 - p))
        assert abs(z) < 4.5
    chunk = np.floor(u * 65536)
    crit = chunk == 40000
    assert crit.sum() > 0
    off = ~np.isin(chunk, [np.floor(p * 65536) for p in means])
    assert (u[off] * 65536 - chunk[off] == 0.5).all()  # undecided chunks only are refined
    assert ((u[crit] >= 40000 / 65536) & (u[crit] < 40001 / 65536)).all()
    assert stats.kstest(eta, stats.laplace(scale=2.0).cdf).pvalue > 1e-3
    assert abs((eta > 0).mean() - 0.5) < 4.5 * 0.5 / math.sqrt(n)


def test_block_draws_are_the_generators_words():
    # fill_draws against a plain decoding of the same PCG64 stream with numpy's own methods: per triple
    # of steps one raw word (three 16-bit chunks, three signs), then per step a refining random() if
    # its chunk is critical and one standard_exponential(). Critical chunks, ziggurat rejections and
    # pool refills all occur, so the fast path and the general path both meet the plain decoding.
    means = [0.75, 0.7, 0.3, (40000 + 0.37) / 65536]
    scale, blocks = 2.0, 400
    u, eta = draw_blocks(means, scale, blocks, seed=12)
    rng = np.random.default_rng(12)
    crit = {math.floor(p * 65536) for p in means}
    plain_u, plain_eta = np.empty_like(u), np.empty_like(eta)
    refined = 0
    for j in range(0, u.size, 3):
        bits = int(rng.bit_generator.random_raw()) >> 11
        for q in range(3):
            c = (bits >> (16 * q)) & 0xFFFF
            if c in crit:
                plain_u[j + q] = (c + rng.random()) / 65536
                refined += 1
            else:
                plain_u[j + q] = (c + 0.5) / 65536
            x = scale * rng.standard_exponential()
            plain_eta[j + q] = -x if (bits >> (48 + q)) & 1 else x
    assert refined > 0
    assert (u == plain_u).all() and (eta == plain_eta).all()


def test_refined_chunk_is_uniform_inside():
    # conditional on the critical chunk, P(u < p) = frac(p 2^16): checked on many refinements
    p = (123 + 0.25) / 65536
    u, _ = draw_blocks([p], 1.0, 6000, seed=11)
    inside = u[np.floor(u * 65536) == 123]
    assert inside.size > 20
    frac = ((inside < p).sum() - 0.25 * inside.size) / math.sqrt(0.25 * 0.75 * inside.size)
    assert abs(frac) < 4.5


# --------------------------------------------------------------------------- exact reductions


def reference_order_draws(rng, horizon, scale):
    """Per-step draws in the reference runner's order: reward uniform, then the node's Laplace."""
    u, eta = np.empty(horizon), np.empty(horizon)
    for t in range(horizon):
        u[t] = rng.random()
        eta[t] = rng.laplace(0.0, scale)
    return u, eta


@pytest.mark.parametrize("means", [[0.9, 0.6], [0.5, 0.5, 0.4], [0.75] + [0.7] * 8])
def test_gamma_zero_without_noise_is_ucb(means):
    means = np.asarray(means)
    horizon = 3000
    ckpts = np.arange(1, horizon + 1)
    u = np.random.default_rng(12).random(horizon)
    out, pulls, total = dp_ucb_on_draws(means, 0.0, u, np.zeros(horizon), ckpts)
    ref_out, ref_pulls, ref_total = ucb_on_draws(means, ckpts, False, u, [])
    assert (pulls == ref_pulls).all() and total == ref_total
    assert (out == ref_out).all()


@pytest.mark.parametrize(
    "means, eps, params",
    [
        ([0.75, 0.7, 0.7], 1.0, {}),
        ([0.75, 0.625, 0.5, 0.375, 0.25], 0.25, {"gamma_log": "2"}),
        ([0.9, 0.8, 0.7, 0.6, 0.5, 0.5, 0.5, 0.4, 0.3], 0.5, {"beta": 0.01, "gamma_denominator": "2"}),
        ([0.75, 0.625, 0.5, 0.375, 0.25], 0.25, {"gamma_log": "levels"}),
        ([0.75, 0.7, 0.7], 2.0, {"beta": 0.05, "gamma_log": "2all", "gamma_denominator": "2"}),
    ],
)
def test_pull_for_pull_agreement_with_reference(means, eps, params):
    # the step loop on the reference runner's draws reproduces the literal alpha / alpha-hat trees
    horizon, runs = 1500, 3
    means = np.asarray(means)
    ckpts = np.arange(1, horizon + 1)
    ref = reference.simulate("dp_ucb", means, horizon, eps, runs, seed=13, checkpoints=ckpts, **params)
    resolved = ALGORITHMS["dp_ucb"].resolve(params)
    beta = 1 / horizon if resolved["beta"] is None else resolved["beta"]
    gamma = gamma_bonus(means.size, horizon, eps, beta, resolved["gamma_log"], resolved["gamma_denominator"])
    for i in range(runs):
        rng = run_generator(13, ref.meta["config_key"], i)
        u, eta = reference_order_draws(rng, horizon, node_scale(horizon, eps))
        out, pulls, total = dp_ucb_on_draws(means, gamma, u, eta, ref.checkpoints)
        assert (pulls == ref.pulls[i]).all() and total == ref.reward_sum[i]
        np.testing.assert_allclose(out, ref.regret[i], rtol=1e-12)


def test_trajectory_does_not_depend_on_checkpoints():
    means, horizon = np.array([0.75, 0.7, 0.7, 0.7, 0.7]), 5000
    few = dpbandits.simulate("dp_ucb", means, horizon, 0.5, 2, seed=14, checkpoints=[777, horizon])
    ckpts = np.arange(1, horizon + 1)
    every = dpbandits.simulate("dp_ucb", means, horizon, 0.5, 2, seed=14, checkpoints=ckpts)
    assert (few.pulls == every.pulls).all() and (few.reward_sum == every.reward_sum).all()
    assert (few.regret == every.regret[:, [776, horizon - 1]]).all()
    assert (np.diff(every.regret, axis=1) >= 0).all()


@pytest.mark.parametrize("k", [3, 5, 20])
def test_runs_in_a_batch_equal_runs_alone(k):
    # run r of a batch depends only on its own stream: the same result and the same words consumed alone
    means = np.linspace(0.75, 0.25, k)
    horizon, runs = 4000, 7
    ckpts = np.array([1, 7, 999, horizon])
    streams = new_streams([np.random.default_rng([20, i]) for i in range(runs)])
    together = dp_ucb_batch(means, horizon, 800.0, 30.0, ckpts, streams)
    for i in range(runs):
        alone_stream = new_streams([np.random.default_rng([20, i])])
        out, pulls, total = dp_ucb_batch(means, horizon, 800.0, 30.0, ckpts, alone_stream)
        assert (out[0] == together[0][i]).all() and (pulls[0] == together[1][i]).all()
        assert total[0] == together[2][i]
        assert (alone_stream[0] == streams[i]).all()  # the same words consumed
    assert len({tuple(p) for p in together[1]}) == runs
    # through the public API: results do not depend on how runs are chunked
    whole = dpbandits.simulate("dp_ucb", means, horizon, 0.5, 7, seed=21)
    parts = [
        dpbandits.simulate("dp_ucb", means, horizon, 0.5, b - a, seed=21, first_run=a)
        for a, b in ((0, 1), (1, 3), (3, 7))
    ]
    assert (whole.regret == np.vstack([p.regret for p in parts])).all()
    assert (whole.pulls == np.vstack([p.pulls for p in parts])).all()


def _arm_sequence(means, gamma, u, eta):
    """Arms pulled at steps 1..T, read off the per-step regret (the gaps of ``means`` are distinct)."""
    gap = means.max() - means
    out, _, _ = dp_ucb_on_draws(means, gamma, u, eta, np.arange(1, u.size + 1), False)
    steps = np.diff(out, prepend=0.0)
    return np.abs(steps[:, None] - gap[None, :]).argmin(axis=1)


@pytest.mark.parametrize("k, gamma, scale", [(2, 5.0, 1.0), (5, 20.0, 3.0), (5, 0.0, 0.0), (20, 40.0, 2.0)])
def test_leader_loop_makes_the_argmax_decisions(k, gamma, scale):
    # the leader loop (no argmax while one arm leads) against the argmax at every step, on the same
    # draws: bit-identical regret, pulls and reward sum. The instances have long leads, so the loop
    # runs through its growing chunks (16 .. LEAD_CHUNK steps), ends leads mid-chunk and at checkpoints.
    means = np.linspace(0.9, 0.4, k) + np.arange(k) * 1e-3  # distinct gaps: arms readable from regret
    horizon = 40_000
    rng = np.random.default_rng([22, k])
    u, eta = rng.random(horizon), rng.laplace(0.0, scale, horizon) if scale else np.zeros(horizon)
    arms = _arm_sequence(means, gamma, u, eta)
    leads = np.diff(np.flatnonzero(np.diff(arms) != 0))
    assert leads.max() > 4 * LEAD_CHUNK and (leads < 16).sum() > 10  # long and short leads both occur
    ckpts = np.unique(np.concatenate([rng.integers(1, horizon, 60), [BLOCK, BLOCK + 1, horizon]]))
    fast = dp_ucb_on_draws(means, gamma, u, eta, ckpts, True)
    plain = dp_ucb_on_draws(means, gamma, u, eta, ckpts, False)
    assert (fast[0] == plain[0]).all() and (fast[1] == plain[1]).all() and fast[2] == plain[2]
    assert (fast[1] == np.bincount(arms, minlength=k)).all()


@pytest.mark.parametrize("k", [2, 3, 4])
def test_leader_loop_breaks_ties_like_the_argmax(k):
    # Gamma = 0, no noise and equal means: arms with equal (sum, pulls) tie exactly, often right after
    # one arm won twice (inside the leader loop). The lowest index must win there too; either tie rule
    # flipped in the loop changes the result on about a third of these seeds.
    means = np.full(k, 0.5)
    horizon = 2000
    ckpts = np.array([100, horizon])
    for seed in range(40):
        u = np.random.default_rng([25, seed]).random(horizon)
        fast = dp_ucb_on_draws(means, 0.0, u, np.zeros(horizon), ckpts, True)
        plain = dp_ucb_on_draws(means, 0.0, u, np.zeros(horizon), ckpts, False)
        assert (fast[1] == plain[1]).all() and fast[2] == plain[2]
        _, ref_pulls, ref_total = ucb_on_draws(means, ckpts, False, u, [])
        assert (fast[1] == ref_pulls).all() and fast[2] == ref_total


def test_kernel_leader_loop_equals_argmax_loop_at_the_papers_constants():
    # the compiled kernel with and without the leader loop on the same streams, Gamma and node scale
    # of the paper (T = 5e7, K = 5, eps = 0.5) over a prefix of the horizon
    means = np.array([float(m) for m in sajed_instance("C1", 5)])
    gamma = gamma_bonus(5, T_PAPER, 0.5, 1 / T_PAPER)
    ckpts = np.array([1000, 123_457, 300_000])
    a = dp_ucb_batch(
        means,
        300_000,
        gamma,
        node_scale(T_PAPER, 0.5),
        ckpts,
        new_streams([np.random.default_rng([24, i]) for i in range(2)]),
        True,
    )
    b = dp_ucb_batch(
        means,
        300_000,
        gamma,
        node_scale(T_PAPER, 0.5),
        ckpts,
        new_streams([np.random.default_rng([24, i]) for i in range(2)]),
        False,
    )
    assert all((x == y).all() for x, y in zip(a, b, strict=True))


# --------------------------------------------------------------------------- distributions


def test_block_draws_match_plain_draws_in_distribution():
    # Gamma = 0 and Lap(2) node noise: decisions react to rewards and noise, so the test has power
    means, horizon, runs, scale = np.array([0.6, 0.5, 0.45]), 2000, 400, 2.0
    ckpts = np.array([horizon])
    fast = dp_ucb_batch(
        means, horizon, 0.0, scale, ckpts, new_streams([np.random.default_rng([15, i]) for i in range(runs)])
    )
    fast = list(zip(*fast, strict=True))
    ordered = []
    for i in range(runs):  # plain numpy draws: uniforms and Lap(scale) node noises
        rng = np.random.default_rng([16, i])
        u, eta = rng.random(horizon), rng.laplace(0.0, scale, horizon)
        ordered.append(dp_ucb_on_draws(means, 0.0, u, eta, ckpts))
    for j in (0, 2):  # final regret, reward sum
        x = np.array([r[j] for r in fast]).ravel()
        y = np.array([r[j] for r in ordered]).ravel()
        assert same_distribution(np.round(x, 9), np.round(y, 9))
    assert same_counts(np.array([r[1] for r in fast]), np.array([r[1] for r in ordered]))
    assert np.std([r[1][0] for r in fast]) > 50  # pulls vary a lot between runs


def test_fast_matches_reference_in_distribution():
    means, horizon, eps, runs = [0.75, 0.6, 0.5], 1200, 1.0, 120
    fast = dpbandits.simulate("dp_ucb", means, horizon, eps, runs, seed=17)
    ref = reference.simulate("dp_ucb", means, horizon, eps, runs, seed=18)
    assert same_distribution(np.round(fast.regret[:, -1], 9), np.round(ref.regret[:, -1], 9))
    assert same_counts(fast.pulls, ref.pulls)
    assert same_distribution(fast.reward_sum, ref.reward_sum)


def test_reward_sum_matches_pulls():
    means = np.array([0.75, 0.7, 0.7, 0.7, 0.7])
    res = dpbandits.simulate("dp_ucb", means, 20000, 0.5, 10, seed=19)
    assert (res.pulls.sum(axis=1) == 20000).all()
    sd = math.sqrt((res.pulls @ (means * (1 - means))).sum())
    z = (res.reward_sum.sum() - (res.pulls @ means).sum()) / sd
    assert abs(z) < 4.5


# --------------------------------------------------------------------------- bad input


@pytest.mark.parametrize("beta", [0.0, 1.0, 2.0, -1.0, "1/T", False])
def test_bad_beta(beta):
    with pytest.raises(ValueError, match="beta"):
        dpbandits.simulate("dp_ucb", [0.6, 0.4], 100, 1.0, 1, 0, beta=beta)


def test_bad_params():
    with pytest.raises(ValueError, match="gamma_log"):
        dpbandits.simulate("dp_ucb", [0.6, 0.4], 100, 1.0, 1, 0, gamma_log="10")
    with pytest.raises(ValueError, match="gamma_log"):
        gamma_bonus(2, 100, 1.0, 0.1, "10")
    with pytest.raises(ValueError, match="gamma_denominator"):
        dpbandits.simulate("dp_ucb", [0.6, 0.4], 100, 1.0, 1, 0, gamma_denominator="eps/K")
    with pytest.raises(ValueError, match="epsilon"):
        dpbandits.simulate("dp_ucb", [0.6, 0.4], 100, -1.0, 1, 0)
