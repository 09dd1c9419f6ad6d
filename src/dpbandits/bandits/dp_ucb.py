"""DP-UCB of Sajed & Sheffet (2019): Mishra-Thakurta UCB over one binary-tree counter per arm.

Sajed's thesis (2019), Algorithm 6 (Section 3.4) with the tree mechanism of Algorithm 5 (Section 3.3):
pull each arm once, then at step t pull the lowest-index maximiser of

    O_i / n_i + sqrt(2 ln t / n_i) + Gamma / n_i,     Gamma = (log T)^2 ln(K T ln T / beta) / eps

(Algorithm 6, line 3 prints the denominator as "2"; see ``gamma_denominator`` and docs/reconstructions.md)
where O_i is the release of arm i's tree after its n_i pulls (the tree advances only on that arm's
pulls, its time index is n_i): L = ceil(log2 T) + 1 levels, every dyadic node noised once with
Lap(L/eps) when it completes, O_n = (sum of the first n rewards) + (sum of the node noises over the
set bits of n).

The fast kernel simulates every step exactly: the tree noise is the correlated dyadic
process itself, never fresh or frozen noise. Speed comes from exact re-organisation only:

* index = c_i + sqrt(2 ln t) d_i with c_i = (O_i + Gamma)/n_i and d_i = n_i^-1/2 updated for the
  pulled arm only (1/(n+1) and (n+1)^-1/2 are prepared one pull ahead, off the critical path);
* tree noise in O(1) without loops (``_counters.tree_noise_step``): insertion n gets the release
  noise of n & (n-1) (the nodes of n above level ctz(n)) plus the new node's eta, the same process as
  ``mechanisms.tree_noise_insert``;
* random draws in blocks of ``BLOCK`` steps from the run's PCG64 stream, inline
  (``_draws.fill_draws``): an exact Bernoulli from 16 random bits (refined with a fresh uniform
  when the bits do not decide), and an exactly Laplace-distributed node noise as a random sign
  times numpy's ziggurat exponential;
* sqrt(2 ln t) for a block from one ``log`` per block (``_draws.fill_sqrt_log``, within one ulp);
* the argmax over the arms padded to a multiple of 8 (``_argmax.first_max``), lowest index on ties;
* no argmax while one arm leads (:func:`_lead`). At the papers' scale an arm keeps the argmax for
  hundreds to thousands of steps in a row (mean run 700-3400 steps at T = 5e7) and only the leader's
  index moves; the others' indices are fixed non-decreasing lines in g = sqrt(2 ln t), so their
  maxima at the end of a chunk of steps bound them over the chunk, and each step compares one fused
  multiply-add against two numbers; a step that does not clear the bound goes to the argmax. This is
  not a skip: every step still draws its reward and node noise and recomputes the leader's index;
  the decisions, draws and regret are bit for bit those of the argmax at every step
  (``lead=False``).

:func:`dp_ucb_on_draws` runs the same step loop on given per-step uniforms and node noises; with
draws in the reference runner's order it reproduces ``dpbandits.reference`` pull for pull.
"""

from __future__ import annotations

import math

import numpy as np

from ..core.jit import helper, kernel
from ..core.laws import LAWS
from ..core.registry import Algorithm, Contract, OptionalProbability, Param, Setting, register
from ..mechanisms.noise import tree_levels
from ._argmax import first_max, fma, lead_chunk, padded_index
from ._counters import tree_noise_step, tree_note
from ._draws import critical_chunks, fill_draws, fill_laplace, fill_sqrt_log
from ._laws import BERNOULLI, law_args, stream_reward
from ._params import resolve_beta
from ._pcg64 import new_streams, set_streams_state, single_run

GAMMA_LOGS = ("e", "2", "levels", "2all")
GAMMA_DENOMINATORS = ("eps", "2")
#: Reading axes of Gamma (docs/reconstructions.md, "DP-UCB's confidence bonus").
GAMMA_LOG_READINGS = {
    "e": "Sajed & Sheffet 2019, Section 2: 'Throughout this work log(x) denotes the logarithm base e of x'",
    "2": "the (log T)^2 of thesis Algorithm 6, line 3 counts tree levels, which Algorithm 5 writes in base 2 "
    "(ceil(log2 T) + 1 levels)",
    "levels": "every log T of Gamma counts tree levels (log T noises of scale (log T)/eps, K T log T nodes in the "
    "union bound), as thesis Section 3.3 writes 'n = log T' for them: Algorithm 5's ceil(log2 T) + 1 in each",
    "2all": "thesis Algorithms 5-6 take logs of T in base 2 throughout, the outer log of log(K T log T / beta) and "
    "its inner log T included",
}
GAMMA_DENOMINATOR_READINGS = {
    "eps": "Gamma has the form of a high-probability bound on tree noise of scale (log T)/eps and the "
    "Mishra-Thakurta regret it enters grows as 1/eps (thesis Section 3.4): the printed '2' is a garbled eps",
    "2": "thesis Algorithm 6, line 3 prints Gamma <- (log^2 T) log(K T log T / beta) / 2 literally",
}
BLOCK = 384  # steps per block of random draws: a multiple of 3 (three steps per 53-bit uniform)
LEAD_CHUNK = 128  # longest chunk of leader steps checked against one rival bound (first chunk: 16)
_U = np.uintp  # unsigned indices: no negative-index wraparound code


def gamma_bonus(
    k: int, horizon: int, epsilon: float, beta: float, gamma_log: str = "e", gamma_denominator: str = "eps"
) -> float:
    """Gamma = (log T)^2 ln(K T ln T / beta) / eps of the thesis's Algorithm 6, line 3 (whose printed
    denominator "2" is read as eps by default; docs/reconstructions.md).

    ``gamma_log``: "e" (default; Sajed & Sheffet 2019, Section 2: logs are natural), "2" (log2 T squared, the
    rest natural), "levels" (both log T read as the tree's L = ceil(log2 T) + 1 levels, the outer log natural:
    L^2 ln(K T L / beta)) or "2all" (every log in base 2: (log2 T)^2 log2(K T log2 T / beta)).
    ``gamma_denominator="2"`` divides by the literal 2.
    """
    if gamma_log not in GAMMA_LOGS:
        raise ValueError(f"gamma_log={gamma_log!r} is not one of {list(GAMMA_LOGS)}")
    if gamma_denominator not in GAMMA_DENOMINATORS:
        raise ValueError(f"gamma_denominator={gamma_denominator!r} is not one of {list(GAMMA_DENOMINATORS)}")
    log_t = math.log(horizon) if gamma_log == "e" else math.log2(horizon)  # the squared log T
    inner, outer = (log_t, math.log2) if gamma_log == "2all" else (math.log(horizon), math.log)
    if gamma_log == "levels":
        log_t = inner = float(tree_levels(horizon))
    return log_t**2 * outer(k * horizon * inner / beta) / (epsilon if gamma_denominator == "eps" else 2.0)


def node_scale(horizon: int, epsilon: float) -> float:
    """Laplace scale L/eps of every tree node, L = ceil(log2 T) + 1 (27/eps for T = 5e7; thesis Algorithm 5,
    line 3 prints eps' = c/(ceil(log2 T) + 1), c read as eps)."""
    return tree_levels(horizon) / epsilon


@helper(contract=True)
def _pull(c, d, row, levels, count, a, u, e, means, gamma):
    """Pull arm ``a`` with reward decider ``u`` and node noise ``e``; return the reward (see :func:`_add`)."""
    return _add(c, d, row, levels, count, a, 1.0 if u < means[a] else 0.0, e, gamma)


@helper(contract=True)
def _add(c, d, row, levels, count, a, r, e, gamma):
    """Pull arm ``a`` with reward ``r`` (of any law) and node noise ``e``; return the reward.

    row = [w = s + Gamma + b, 1/(n+1), (n+1)^-1/2, reward sum s, b = ``base`` of the next insertion].
    """
    c[a] = (row[0] + e + r) * row[1]
    d[a] = row[2]
    m = count[a] + 1
    count[a] = m
    b = tree_noise_step(levels, row[4], m, e)
    row[4] = b
    s = row[3] + r
    row[3] = s
    row[0] = s + gamma + b
    row[1] = 1.0 / (m + 1)
    row[2] = 1.0 / math.sqrt(m + 1)
    return r


@kernel(contract=True, numpy_errors=True)
def _lead(j, stop, a, u, eta, g, means, gap, gamma, c, d, row, levels, count, acc, inv, rsq):
    """Pull the leader ``a`` at draws j, j+1, ... < stop while it provably is the argmax; return the
    first draw index not pulled here (the caller's argmax decides that step).

    Arm ``a`` is the lowest-index argmax of step j if its index v = fma(g[j], d[a], c[a]) is > every arm
    before it and >= every arm after it. The other arms' (c, d) stay fixed while ``a`` is pulled, and
    the rounded fma(g, d, c) with d >= 0 does not decrease as g grows, so their maxima at the largest
    g of a chunk (``_argmax.lead_chunk``) bound them over the whole chunk: one comparison per step against
    two numbers. A step that does not beat the bound is returned to the caller, which is always exact
    (there, the argmax decides). Chunks grow 16, 32, ..., ``LEAD_CHUNK`` steps; inv, rsq are
    float64[LEAD_CHUNK] scratch for 1/(n+1) and (n+1)^-1/2. Every value is computed by the same
    floating-point operations as :func:`_pull`, so the pulls, rewards, noises and regret are bit for
    bit those of the argmax at every step.
    """
    ai = np.int64(a)
    mu, ga = means[a], gap[a]
    w, s, b = row[0], row[3], row[4]
    s0 = s
    ca, da = c[a], d[a]
    m = count[a]
    reg = acc[0]
    j = _U(j)
    stop = _U(stop)
    size = _U(16)  # chunks grow 16, 32, ..., LEAD_CHUNK: short leads waste little
    while j < stop:
        h = min(size, stop - j)
        size = min(size + size, _U(LEAD_CHUNK))
        lo, hi = lead_chunk(c, d, g, j, h, ai, m, inv, rsq)
        q = _U(0)
        while q < h:
            v = fma(g[j + q], da, ca)
            if not (v > lo and v >= hi):
                break
            e = eta[j + q]
            r = 1.0 if u[j + q] < mu else 0.0
            ca = (w + e + r) * inv[q]
            da = rsq[q]
            m += 1
            b = tree_noise_step(levels, b, m, e)
            s = s + r
            w = s + gamma + b
            reg += ga
            q += _U(1)
        j += q
        if q < h:
            break
    c[a], d[a], count[a] = ca, da, m
    row[0], row[3], row[4] = w, s, b
    row[1] = 1.0 / (m + 1)
    row[2] = 1.0 / math.sqrt(m + 1)
    acc[0] = reg
    acc[1] += s - s0  # the rewards are 0/1, so these float sums are exact integers (< 2^53)
    return np.int64(j)


@kernel
def _new_state(k, gamma):
    """Initial state of one run, the tuple (c, d, rows, count, levels, acc, last, (inv, rsq)): index terms c, d
    float64[Kp] (K padded to a multiple of 8; padding never wins), rows float64[K, 8] of :func:`_pull`
    (w = Gamma, 1/(n+1) = (n+1)^-1/2 = 1), pull counts int64[K], tree levels float64[K, 65], acc = [regret,
    reward total], the last arm pulled uintp[1] and the leader's scratch float64[LEAD_CHUNK] x 2.

    Callers unpack it by these names. A namedtuple read by attribute measured 3-4% slower on the step loop
    (the kernels' codegen differs), so it stays a plain tuple."""
    c, d = padded_index(k)
    arm = np.zeros((k, 8))
    arm[:, 0] = gamma
    arm[:, 1] = 1.0
    arm[:, 2] = 1.0
    last = np.full(1, c.size, dtype=np.uintp)  # the arm pulled last (c.size: none yet)
    scratch = (np.empty(LEAD_CHUNK), np.empty(LEAD_CHUNK))
    return c, d, arm, np.zeros(k, dtype=np.int64), np.zeros((k, 65)), np.zeros(2), last, scratch


@kernel
def _run_block(jn, t, u, eta, g, means, gap, gamma, state, checkpoints, c, out, lead, sb, law, scale=1.0, book=None):
    """Steps t .. t + jn - 1 on draws u[:jn], eta[:jn], recording the regret at the checkpoints reached.
    With a release ``book``, each tree node (Lap(``scale``), draw t - 1) is noted and the argmax decides every step.

    Under reward law ``law`` != 0 (``_laws``) each pull draws its reward from stream ``sb`` (u is unused) and the
    argmax decides every step.

    Each step pulls the lowest-index argmax of fma(g, d, c) (arm t - 1 while t <= K). With ``lead``,
    an arm that wins two steps in a row is pulled by :func:`_lead` for as long as it provably stays the
    argmax (the same decisions, without the argmax). Returns (t, c).
    """
    ci, di, arm, n, zt, acc, last, (inv, rsq) = state
    k = means.size
    kp = ci.size
    j = 0
    while j < jn:
        stop = jn
        if c < checkpoints.size:
            stop = min(jn, j + checkpoints[c] - t + 1)
        while j < stop:
            if t <= k:
                a = _U(t - 1)
            else:
                a = first_max(ci, di, g[_U(j)], kp, False)[1]
            if law == BERNOULLI:
                acc[1] += _pull(ci, di, arm[a], zt[a], n, a, u[_U(j)], eta[_U(j)], means, gamma)
            else:
                acc[1] += _add(ci, di, arm[a], zt[a], n, a, stream_reward(sb, law, means[a]), eta[_U(j)], gamma)
            if book is not None:
                tree_note(book, a, n[a], scale, eta[_U(j)], t - 1)
            acc[0] += gap[a]
            j += 1
            t += 1
            if lead and book is None and law == BERNOULLI and a == last[0] and t > k + 1 and j < stop:
                j1 = _lead(j, stop, a, u, eta, g, means, gap, gamma, ci, di, arm[a], zt[a], n, acc, inv, rsq)
                t += j1 - j
                j = j1
            last[0] = a
        while c < checkpoints.size and checkpoints[c] == t - 1:
            out[c] = acc[0]
            c += 1
    return t, c


@kernel
def _run(means, horizon, gamma, scale, checkpoints, sb, crit, out, lead, law, book=None):
    """One run on stream ``sb`` under reward law code ``law``: regret at the checkpoints into ``out``; returns
    (pulls[K], reward sum). ``book``: a release book (see :func:`_run_block`), or None (compiled away)."""
    gap = means.max() - means
    state = _new_state(means.size, gamma)
    u = np.empty(BLOCK)
    eta = np.empty(BLOCK)
    g = np.empty(BLOCK)
    t = 1
    c = 0
    while t <= horizon:
        if law == BERNOULLI:
            fill_draws(sb, crit, scale, u, eta)
        else:
            fill_laplace(sb, scale, eta)
        fill_sqrt_log(g, t)
        jn = min(BLOCK, horizon - t + 1)
        t, c = _run_block(jn, t, u, eta, g, means, gap, gamma, state, checkpoints, c, out, lead, sb, law, scale, book)
    _, _, _, count, _, acc, _, _ = state
    return count, acc[1]


@kernel
def dp_ucb_batch(means, horizon, gamma, scale, checkpoints, streams, lead=True, law=0):
    """Runs of DP-UCB with bonus ``gamma`` and node noise Lap(``scale``), one per PCG64 stream, under reward law
    code ``law`` (``_laws``).

    ``streams`` is uint64[R, STREAM] (``_pcg64.new_streams``), advanced in place; run r's result
    depends only on streams[r]. ``lead=False`` takes the argmax at every step (same results, slower).
    Returns (regret[R, C], pulls[R, K], reward_sum[R]).
    """
    runs = streams.shape[0]
    out = np.empty((runs, checkpoints.size))
    pulls = np.empty((runs, means.size), dtype=np.int64)
    totals = np.empty(runs)
    crit = critical_chunks(means)
    for r in range(runs):
        pulls[r], totals[r] = _run(means, horizon, gamma, scale, checkpoints, streams[r], crit, out[r], lead, law)
    return out, pulls, totals


@kernel
def dp_ucb_on_draws(means, gamma, u, eta, checkpoints, lead=True, scale=1.0, book=None):
    """DP-UCB on given draws: step t (1-based) gets reward u[t-1] < mu_a and node noise eta[t-1].

    The horizon is ``u.size``. Returns (regret[C], pulls[K], reward_sum) of the one run. A release ``book``
    records node t as draw t - 1 of Laplace scale ``scale`` (the scale eta was drawn with).
    """
    gap = means.max() - means
    state = _new_state(means.size, gamma)
    out = np.empty(checkpoints.size)
    g = np.empty(u.size)
    for j0 in range(0, u.size, BLOCK):  # the kernel's blocks, so g is the kernel's g
        fill_sqrt_log(g[j0 : j0 + BLOCK], j0 + 1)
    no_stream = np.zeros(0, dtype=np.uint64)  # replay reads no stream
    _run_block(
        u.size, 1, u, eta, g, means, gap, gamma, state, checkpoints, 0, out, lead, no_stream, BERNOULLI, scale, book
    )
    _, _, _, count, _, acc, _, _ = state
    return out, count, acc[1]


def replay(means, epsilon, checkpoints, params, u, eta, picks, book=None):
    """:func:`dp_ucb_on_draws` with the registry's replay arguments (``Algorithm.replay``): ``eta`` are standard
    Laplace values, scaled here by the node scale; DP-UCB draws no tie picks. ``book``: a release book."""
    u = np.ascontiguousarray(u, dtype=np.float64)
    beta = resolve_beta(params["beta"], u.size)
    gamma = gamma_bonus(means.size, u.size, epsilon, beta, params["gamma_log"], params["gamma_denominator"])
    scale = node_scale(u.size, epsilon)
    eta = scale * np.asarray(eta, dtype=np.float64)
    return dp_ucb_on_draws(means, gamma, u, eta, np.asarray(checkpoints, dtype=np.int64), True, scale, book)


def run_batch(means, horizon, epsilon, checkpoints, rngs, params, rewards="bernoulli"):
    """Runs of DP-UCB under reward law ``rewards``, one per Generator (each advanced past the words its run
    pooled); see :func:`dp_ucb_batch`."""
    beta = resolve_beta(params["beta"], horizon)
    gamma = gamma_bonus(means.size, horizon, epsilon, beta, params["gamma_log"], params["gamma_denominator"])
    streams = new_streams(rngs)
    out = dp_ucb_batch(
        means, horizon, gamma, node_scale(horizon, epsilon), checkpoints, streams, True, *law_args(rewards)
    )
    set_streams_state(rngs, streams)
    return out


run = single_run(run_batch)


def releases(means, horizon, epsilon, params, rng, book):
    """One run (``rng``'s stream, advanced) that records each tree node in ``book``; returns pulls int64[K]."""
    beta = resolve_beta(params["beta"], horizon)
    gamma = gamma_bonus(means.size, horizon, epsilon, beta, params["gamma_log"], params["gamma_denominator"])
    streams = new_streams([rng])
    out = np.empty(1)
    last = np.array([horizon], dtype=np.int64)
    crit = critical_chunks(means)
    pulls, _ = _run(means, horizon, gamma, node_scale(horizon, epsilon), last, streams[0], crit, out, False, 0, book)
    set_streams_state([rng], streams)
    return pulls


register(
    Algorithm(
        name="dp_ucb",
        kind="regret",
        label="DP-UCB (tree)",
        private=True,
        reference="dpbandits.reference.sajed:DPUCB",
        run=run,
        replay=replay,
        contract=Contract(
            bernoulli=Setting((0.9, 0.5), 400, 1.0),
            deterministic=Setting((1.0, 1.0, 0.0), 300, 1.0),
            runs=600,
            fast_runs=3000,
        ),
        run_batch=run_batch,
        releases=releases,
        params={
            "beta": OptionalProbability(
                None,
                doc="confidence beta in (0, 1) inside Gamma; None = 1/T as in the experiments "
                "(Sajed & Sheffet 2019, Section 5: 'set beta = 1/T')",
            ),
            "gamma_log": Param(
                "e",
                GAMMA_LOGS,
                readings=GAMMA_LOG_READINGS,
                doc="[RECON] the logs of T in Gamma: natural (Sajed & Sheffet 2019, Section 2), log2 T squared, "
                "the tree's levels (thesis Algorithm 5) or log2 throughout",
            ),
            "gamma_denominator": Param(
                "eps",
                GAMMA_DENOMINATORS,
                readings=GAMMA_DENOMINATOR_READINGS,
                doc="[RECON] Gamma over eps, or over the literal 2 printed in the thesis's Algorithm 6, line 3",
            ),
        },
        needs_horizon=True,
        laws=LAWS,
        cost_ns=15,
        doc="Mishra & Thakurta (2015) tree-based private UCB as in Sajed (2019 thesis) Algorithm 6.",
    )
)
