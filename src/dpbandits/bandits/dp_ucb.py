"""DP-UCB of Sajed & Sheffet (2019): Mishra-Thakurta UCB over one binary-tree counter per arm.

Thesis Algorithm 6 (Th:584) with the tree mechanism of Algorithm 5 (Th:570), spec §1.3:
pull each arm once, then at step t pull the lowest-index maximiser of

    O_i / n_i + sqrt(2 ln t / n_i) + Gamma / n_i,     Gamma = (log T)^2 ln(K T ln T / beta) / eps  (A8)

where O_i is the release of arm i's tree after its n_i pulls (the tree advances only on that arm's
pulls, A11): L = ceil(log2 T) + 1 levels, every dyadic node noised once with Lap(L/eps) when it
completes, O_n = (sum of the first n rewards) + (sum of the node noises over the set bits of n).

The fast kernel simulates every step exactly (spec §5.3): the tree noise is the correlated dyadic
process itself, never fresh or frozen noise. Speed comes from exact re-organisation only:

* index = c_i + sqrt(2 ln t) d_i with c_i = (O_i + Gamma)/n_i and d_i = n_i^-1/2 updated for the
  pulled arm only (1/(n+1) and (n+1)^-1/2 are prepared one pull ahead, off the critical path);
* tree noise in O(1) without loops (``_kernels.tree_noise_step``): insertion n gets the release
  noise of n & (n-1) (the nodes of n above level ctz(n)) plus the new node's eta, the same process as
  ``mechanisms.tree_noise_insert``;
* random draws in blocks of ``BLOCK`` steps from the run's PCG64 stream, inline
  (``_kernels.fill_draws``): an exact Bernoulli from 16 random bits (refined with a fresh uniform
  when the bits do not decide), and an exactly Laplace-distributed node noise as a random sign
  times numpy's ziggurat exponential;
* sqrt(2 ln t) for a block from one ``log`` per block (``_kernels.fill_sqrt_log``, within one ulp);
* the argmax over the arms padded to a multiple of 8 (``_kernels.first_max``: SIMD chunks when several
  runs are in flight, else a scalar tree), lowest index on ties;
* up to ``LANES`` independent runs advanced in lockstep by one loop (:func:`dp_ucb_batch`), so the
  CPU overlaps their dependency chains (argmax -> reward -> index update). Each run keeps its own
  generator, draws and state: a run's result is the same alone or in any batch.

:func:`dp_ucb_on_draws` runs the same step loop on given per-step uniforms and node noises; with
draws in the reference runner's order it reproduces ``dpbandits.reference`` pull for pull.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from ..mechanisms import tree_levels
from ..registry import Algorithm, OptionalProbability, Param, register, sources
from ._kernels import (
    CHUNK,
    critical_chunks,
    fill_draws,
    fill_sqrt_log,
    first_max,
    new_streams,
    padded,
    resolve_beta,
    set_streams_state,
    tree_noise_step,
)

GAMMA_LOGS = ("e", "2")
GAMMA_DENOMINATORS = ("eps", "2")
BLOCK = 384  # steps per block of random draws: a multiple of 3 (three steps per 53-bit uniform)
LANES = 3  # runs advanced in lockstep by one kernel loop
_FASTMATH = {"contract"}  # fused multiply-add only; no reassociation
_U = np.uintp  # unsigned indices: no negative-index wraparound code


def gamma_bonus(k: int, horizon: int, epsilon: float, beta: float, gamma_log: str = "e",
                gamma_denominator: str = "eps") -> float:
    """Gamma = (log T)^2 ln(K T ln T / beta) / eps of Th:584 (spec A8: the printed "/2" read as "/eps").

    ``gamma_log`` is the base of the squared log T: "e" (default, P:212) or "2"; the log inside
    ln(K T ln T / beta) is natural in both cases. ``gamma_denominator="2"`` divides by the literal 2.
    """
    if gamma_log not in GAMMA_LOGS:
        raise ValueError(f"gamma_log={gamma_log!r} is not one of {list(GAMMA_LOGS)}")
    if gamma_denominator not in GAMMA_DENOMINATORS:
        raise ValueError(f"gamma_denominator={gamma_denominator!r} is not one of {list(GAMMA_DENOMINATORS)}")
    log_t = math.log(horizon) if gamma_log == "e" else math.log2(horizon)
    return log_t**2 * math.log(k * horizon * math.log(horizon) / beta) / (
        epsilon if gamma_denominator == "eps" else 2.0)


def node_scale(horizon: int, epsilon: float) -> float:
    """Laplace scale L/eps of every tree node, L = ceil(log2 T) + 1 (27/eps for T = 5e7; A9)."""
    return tree_levels(horizon) / epsilon


@njit(cache=True, fastmath=_FASTMATH, inline="always")
def _pull(c, d, row, levels, count, a, u, e, means, gamma):
    """Pull arm ``a`` of one run with reward decider ``u`` and node noise ``e``; return the reward.

    row = [w = s + Gamma + b, 1/(n+1), (n+1)^-1/2, reward sum s, b = ``base`` of the next insertion].
    """
    r = 1.0 if u < means[a] else 0.0
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


@njit(cache=True, fastmath=_FASTMATH, error_model="numpy")
def _steps(j0, j1, t, nl, u, eta, g, means, gap, gamma, cd, arm, n, zt, acc):
    """Steps t .. t + (j1 - j0) - 1 of runs (lanes) 0 .. nl-1 <= 2 on draws u[l, j0:j1], eta[l, j0:j1].

    The lanes' arrays are independent; writing each lane out (no loop over lanes) lets the CPU
    overlap their argmax -> reward -> update chains. State (see :func:`_new_state`): cd[l] = (c, d)
    padded to a multiple of 8 arms, arm[l, i] = row of :func:`_pull`, n[l, i] pulls, zt[l, i] tree
    levels, acc[l] = [regret, reward total]. Returns the next t.
    """
    k = means.size
    kp = cd.shape[2]
    simd = nl > 2 or (nl > 1 and kp > CHUNK)  # SIMD argmax pays off with several chains in flight
    c0, d0, c1, d1, c2, d2 = cd[0, 0], cd[0, 1], cd[1, 0], cd[1, 1], cd[2, 0], cd[2, 1]
    reg0, reg1, reg2 = acc[0, 0], acc[1, 0], acc[2, 0]
    tot0, tot1, tot2 = acc[0, 1], acc[1, 1], acc[2, 1]
    for j in range(j0, j1):
        jj = _U(j)
        gj = g[jj]
        if t <= k:
            a0 = a1 = a2 = _U(t - 1)
        else:
            a0 = first_max(c0, d0, gj, kp, simd)[1]
            a1 = first_max(c1, d1, gj, kp, simd)[1] if nl > 1 else _U(0)
            a2 = first_max(c2, d2, gj, kp, simd)[1] if nl > 2 else _U(0)
        tot0 += _pull(c0, d0, arm[0, a0], zt[0, a0], n[0], a0, u[0, jj], eta[0, jj], means, gamma)
        reg0 += gap[a0]
        if nl > 1:
            tot1 += _pull(c1, d1, arm[1, a1], zt[1, a1], n[1], a1, u[1, jj], eta[1, jj], means, gamma)
            reg1 += gap[a1]
        if nl > 2:
            tot2 += _pull(c2, d2, arm[2, a2], zt[2, a2], n[2], a2, u[2, jj], eta[2, jj], means, gamma)
            reg2 += gap[a2]
        t += 1
    acc[0, 0], acc[1, 0], acc[2, 0] = reg0, reg1, reg2
    acc[0, 1], acc[1, 1], acc[2, 1] = tot0, tot1, tot2
    return t


@njit(cache=True, nogil=True)
def _new_state(k, gamma):
    """Initial (cd, arm, n, zt, acc) of ``LANES`` runs: no pulls, w = Gamma, 1/(n+1) = (n+1)^-1/2 = 1."""
    cd = np.zeros((LANES, 2, padded(k)))
    cd[:, 0, k:] = -np.inf  # padding arms never win (see _kernels.padded_index)
    arm = np.zeros((LANES, k, 8))
    arm[:, :, 0] = gamma
    arm[:, :, 1] = 1.0
    arm[:, :, 2] = 1.0
    return cd, arm, np.zeros((LANES, k), dtype=np.int64), np.zeros((LANES, k, 65)), np.zeros((LANES, 2))


@njit(cache=True, nogil=True)
def _run_block(jn, t, nl, u, eta, g, means, gap, gamma, state, checkpoints, c, out):
    """Steps for draws 0..jn-1, recording each lane's regret at the checkpoints they reach. Returns (t, c)."""
    cd, arm, n, zt, acc = state
    j = 0
    while j < jn:
        stop = jn
        if c < checkpoints.size:
            stop = min(jn, j + checkpoints[c] - t + 1)
        t = _steps(j, stop, t, nl, u, eta, g, means, gap, gamma, cd, arm, n, zt, acc)
        j = stop
        while c < checkpoints.size and checkpoints[c] == t - 1:
            out[:nl, c] = acc[:nl, 0]
            c += 1
    return t, c


@njit(cache=True, nogil=True)
def _run_lanes(means, horizon, gamma, scale, checkpoints, streams, out, pulls, totals):
    """Runs of streams[0..nl-1] (nl <= LANES) in lockstep into out[:nl], pulls[:nl], totals[:nl]."""
    nl = streams.shape[0]
    k = means.size
    gap = means.max() - means
    state = _new_state(k, gamma)
    crit = critical_chunks(means)
    u = np.empty((LANES, BLOCK))
    eta = np.empty((LANES, BLOCK))
    g = np.empty(BLOCK)
    rec = np.empty((LANES, checkpoints.size))
    t = 1
    c = 0
    while t <= horizon:
        for lane in range(nl):
            fill_draws(streams[lane], crit, scale, u[lane], eta[lane])
        fill_sqrt_log(g, t)
        t, c = _run_block(min(BLOCK, horizon - t + 1), t, nl, u, eta, g, means, gap, gamma, state,
                          checkpoints, c, rec)
    out[:] = rec[:nl]
    pulls[:] = state[2][:nl]
    totals[:] = state[4][:nl, 1]


@njit(cache=True, nogil=True)
def dp_ucb_batch(means, horizon, gamma, scale, checkpoints, streams):
    """Runs of DP-UCB with bonus ``gamma`` and node noise Lap(``scale``), one per PCG64 stream.

    ``streams`` is uint64[R, STREAM] (``_kernels.new_streams``), advanced in place. Runs go in groups of
    at most ``LANES`` advanced in lockstep; run r's result depends only on streams[r].
    Returns (regret[R, C], pulls[R, K], reward_sum[R]).
    """
    runs = streams.shape[0]
    out = np.empty((runs, checkpoints.size))
    pulls = np.empty((runs, means.size), dtype=np.int64)
    totals = np.empty(runs)
    groups = -(-runs // LANES)
    start = 0
    for i in range(groups):
        stop = start + (runs - start) // (groups - i)  # balanced group sizes
        _run_lanes(means, horizon, gamma, scale, checkpoints, streams[start:stop], out[start:stop],
                   pulls[start:stop], totals[start:stop])
        start = stop
    return out, pulls, totals


@njit(cache=True, nogil=True)
def dp_ucb_on_draws(means, gamma, u, eta, checkpoints):
    """DP-UCB on given draws: step t (1-based) gets reward u[t-1] < mu_a and node noise eta[t-1].

    The horizon is ``u.size``. Returns (regret[C], pulls[K], reward_sum) of the one run.
    """
    k = means.size
    gap = means.max() - means
    state = _new_state(k, gamma)
    rec = np.empty((LANES, checkpoints.size))
    g = np.empty(u.size)
    for j0 in range(0, u.size, BLOCK):  # the kernel's blocks, so g is the kernel's g
        fill_sqrt_log(g[j0:j0 + BLOCK], j0 + 1)
    lanes_u = np.empty((LANES, u.size))
    lanes_eta = np.zeros((LANES, u.size))
    lanes_u[0] = u
    lanes_eta[0] = eta
    _run_block(u.size, 1, 1, lanes_u, lanes_eta, g, means, gap, gamma, state, checkpoints, 0, rec)
    return rec[0].copy(), state[2][0].copy(), state[4][0, 1]


def run_batch(means, horizon, epsilon, checkpoints, rngs, params):
    """Runs of DP-UCB, one per Generator (each advanced past the words its run pooled); see :func:`dp_ucb_batch`."""
    beta = resolve_beta(params["beta"], horizon)
    gamma = gamma_bonus(means.size, horizon, epsilon, beta, params["gamma_log"], params["gamma_denominator"])
    streams = new_streams(rngs)
    out = dp_ucb_batch(means, horizon, gamma, node_scale(horizon, epsilon), checkpoints, streams)
    set_streams_state(rngs, streams)
    return out


def run(means, horizon, epsilon, checkpoints, rng, params):
    """One run of DP-UCB; see :func:`run_batch`."""
    regret, pulls, totals = run_batch(means, horizon, epsilon, checkpoints, [rng], params)
    return regret[0], pulls[0], totals[0]


register(
    Algorithm(
        name="dp_ucb",
        kind="regret",
        label="DP-UCB (tree)",
        private=True,
        run=run,
        run_batch=run_batch,
        params={
            "beta": OptionalProbability(
                None, doc="confidence beta in (0, 1) inside Gamma; None = 1/T as in the experiments (P:1115)"
            ),
            "gamma_log": Param(
                "e", GAMMA_LOGS,
                doc="[RECON] A8: base of (log T)^2 in Gamma, natural (e, P:212) or log2 (2)",
            ),
            "gamma_denominator": Param(
                "eps", GAMMA_DENOMINATORS,
                doc="[RECON] A8: Gamma over eps (recommended) or over the literal 2 printed at Th:584",
            ),
        },
        sources=sources(__file__, "bandits/_kernels.py", "mechanisms.py"),
        needs_horizon=True,
        cost_ns=30,
        doc="Mishra & Thakurta (2015) tree-based private UCB as in Sajed (2019 thesis) Algorithm 6.",
    )
)
