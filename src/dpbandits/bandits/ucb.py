"""UCB1 (Auer et al. 2002), the non-private reference: index S/n + sqrt(2 ln t / n).

Fast kernel (exact re-organisation): index = c_i + sqrt(2 ln t) d_i with c_i = S_i/n_i and
d_i = n_i^-1/2 recomputed only for the pulled arm (both reward outcomes prepared one pull ahead);
sqrt(2 ln t) per block of steps; reward deciders in blocks from the run's inline PCG64 stream
(``_kernels``); ties (arms with equal index) broken by a uniform pick from the stream, drawn only
when they occur; up to ``LANES`` runs advanced in lockstep (:func:`ucb_batch`), each exactly as alone.
:func:`ucb_on_draws` runs the same loop on given per-step uniforms and tie picks (the reference
runner's draws reproduce it pull for pull).
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from ..registry import Algorithm, Param, register, sources
from ._kernels import (
    CHUNK,
    count_max,
    critical_chunks,
    fill_sqrt_log,
    fill_uniforms,
    first_max,
    new_streams,
    padded,
    resolve_tie,
    set_streams_state,
)

BLOCK = 384  # steps per block of reward deciders and sqrt(2 ln t) (a multiple of 3)
LANES = 3  # runs advanced in lockstep by one kernel loop
_U = np.uintp


@njit(cache=True, inline="always")
def _pull(c, d, nxt, s, n, a, win):
    """Pull arm ``a`` of one run (reward 1 if ``win``): its c and d from the prepared row; return the reward.

    nxt[a] = (c if the next reward is 0, c if it is 1, d) of the arm's next pull.
    """
    c[a] = nxt[a, 1] if win else nxt[a, 0]
    d[a] = nxt[a, 2]
    r = 1.0 if win else 0.0
    sa = s[a] + r
    s[a] = sa
    m = n[a] + 1
    n[a] = m
    inv = 1.0 / (m + 1)
    nxt[a, 0] = sa * inv  # c = S/n as S * (1/n)
    nxt[a, 1] = (sa + 1.0) * inv
    nxt[a, 2] = 1.0 / math.sqrt(m + 1)
    return r


@njit(cache=True, error_model="numpy")
def _steps(j0, j1, t, nl, u, g, means, gap, state, random_ties, streams, picks, pcs, replay):
    """Steps t .. t + (j1 - j0) - 1 of runs (lanes) 0 .. nl-1 <= 2 on reward deciders u[l, j0:j1].

    Each lane written out (no loop over lanes) so the CPU overlaps their chains. Ties: a pick from
    ``streams[l]``, or (``replay``, one lane) the next of ``picks``; pcs[l] counts the picks used.
    Returns the next t.
    """
    cd, nxt, s, n, acc = state
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
            b0, a0 = first_max(c0, d0, gj, kp, simd)
            b1, a1 = first_max(c1, d1, gj, kp, simd) if nl > 1 else (0.0, _U(0))
            b2, a2 = first_max(c2, d2, gj, kp, simd) if nl > 2 else (0.0, _U(0))
            if random_ties:
                m = count_max(c0, d0, gj, kp, b0, simd)
                if m > 1:
                    a0, pcs[0] = resolve_tie(c0, d0, gj, kp, b0, m, streams[0], picks, pcs[0], replay)
                m = count_max(c1, d1, gj, kp, b1, simd) if nl > 1 else 1
                if m > 1:
                    a1, pcs[1] = resolve_tie(c1, d1, gj, kp, b1, m, streams[1], picks, pcs[1], replay)
                m = count_max(c2, d2, gj, kp, b2, simd) if nl > 2 else 1
                if m > 1:
                    a2, pcs[2] = resolve_tie(c2, d2, gj, kp, b2, m, streams[2], picks, pcs[2], replay)
        tot0 += _pull(c0, d0, nxt[0], s[0], n[0], a0, u[0, jj] < means[a0])
        reg0 += gap[a0]
        if nl > 1:
            tot1 += _pull(c1, d1, nxt[1], s[1], n[1], a1, u[1, jj] < means[a1])
            reg1 += gap[a1]
        if nl > 2:
            tot2 += _pull(c2, d2, nxt[2], s[2], n[2], a2, u[2, jj] < means[a2])
            reg2 += gap[a2]
        t += 1
    acc[0, 0], acc[1, 0], acc[2, 0] = reg0, reg1, reg2
    acc[0, 1], acc[1, 1], acc[2, 1] = tot0, tot1, tot2
    return t


@njit(cache=True, nogil=True)
def _new_state(k):
    """(cd, nxt, s, n, acc) of ``LANES`` runs: c, d padded to a multiple of 8 arms (padding never wins)."""
    cd = np.zeros((LANES, 2, padded(k)))
    cd[:, 0, k:] = -np.inf
    nxt = np.zeros((LANES, k, 3))
    nxt[:, :, 1:] = 1.0  # first pull: c = r / 1, d = 1
    return cd, nxt, np.zeros((LANES, k)), np.zeros((LANES, k), dtype=np.int64), np.zeros((LANES, 2))


@njit(cache=True, nogil=True)
def _run_lanes(means, horizon, checkpoints, random_ties, streams, given, picks, replay, out, pulls, totals):
    """Runs of streams[0..nl-1] (nl <= LANES) in lockstep into out[:nl], pulls[:nl], totals[:nl].

    With ``replay`` the reward deciders are ``given`` (LANES, horizon) and the tie picks ``picks``.
    """
    nl = streams.shape[0]
    gap = means.max() - means
    state = _new_state(means.size)
    crit = critical_chunks(means)
    g = np.empty(BLOCK)
    u = np.empty((LANES, BLOCK))
    pcs = np.zeros(LANES, dtype=np.int64)
    t = 1
    c = 0
    while t <= horizon:
        jn = min(BLOCK, horizon - t + 1)
        fill_sqrt_log(g, t)
        if replay:
            u[:, :jn] = given[:, t - 1:t - 1 + jn]
        else:
            for lane in range(nl):
                fill_uniforms(streams[lane], crit, u[lane])
        j = 0
        while j < jn:  # segments ending at checkpoints
            stop = jn if c >= checkpoints.size else min(jn, j + checkpoints[c] - t + 1)
            t = _steps(j, stop, t, nl, u, g, means, gap, state, random_ties, streams, picks, pcs, replay)
            j = stop
            while c < checkpoints.size and checkpoints[c] == t - 1:
                out[:nl, c] = state[4][:nl, 0]
                c += 1
    pulls[:] = state[3][:nl]
    totals[:] = state[4][:nl, 1]


@njit(cache=True, nogil=True)
def ucb_batch(means, horizon, checkpoints, random_ties, streams):
    """Runs of UCB1, one per PCG64 stream (uint64[R, STREAM] of ``_kernels.new_streams``, advanced).

    Runs go in groups of at most ``LANES`` in lockstep; run r's result depends only on streams[r].
    Returns (regret[R, C], pulls[R, K], reward_sum[R]).
    """
    runs = streams.shape[0]
    out = np.empty((runs, checkpoints.size))
    pulls = np.empty((runs, means.size), dtype=np.int64)
    totals = np.empty(runs)
    none = np.zeros((LANES, 0))
    no_picks = np.zeros(0, dtype=np.int64)
    groups = -(-runs // LANES)
    start = 0
    for i in range(groups):
        stop = start + (runs - start) // (groups - i)  # balanced group sizes
        _run_lanes(means, horizon, checkpoints, random_ties, streams[start:stop], none, no_picks, False,
                   out[start:stop], pulls[start:stop], totals[start:stop])
        start = stop
    return out, pulls, totals


def ucb_on_draws(means, checkpoints, random_ties, u, picks):
    """UCB1 on given draws: step t's reward is u[t-1] < mu_a, ties take the next of ``picks``.

    The horizon is ``u.size``. Returns (regret[C], pulls[K], reward_sum).
    """
    lanes_u = np.zeros((LANES, len(u)))
    lanes_u[0] = u
    out, pulls, totals = np.empty((1, len(checkpoints))), np.empty((1, len(means)), np.int64), np.empty(1)
    _run_lanes(means, len(u), checkpoints, random_ties, new_streams([np.random.default_rng(0)]), lanes_u,
               np.asarray(picks, dtype=np.int64), True, out, pulls, totals)
    return out[0], pulls[0], totals[0]


def run_batch(means, horizon, epsilon, checkpoints, rngs, params):
    """Runs of UCB1, one per Generator (each advanced past the words its run pooled)."""
    streams = new_streams(rngs)
    out = ucb_batch(means, horizon, checkpoints, params["tie_break"] == "random", streams)
    set_streams_state(rngs, streams)
    return out


def run(means, horizon, epsilon, checkpoints, rng, params):
    """One run of UCB1; see :func:`run_batch`."""
    regret, pulls, totals = run_batch(means, horizon, epsilon, checkpoints, [rng], params)
    return regret[0], pulls[0], totals[0]


TIE_BREAK = Param("random", ("random", "first"), doc="[CHOICE] uniform random among maximisers, or lowest index")

register(
    Algorithm(
        name="ucb",
        kind="regret",
        label="UCB",
        private=False,
        run=run,
        run_batch=run_batch,
        params={"tie_break": TIE_BREAK},
        sources=sources(__file__, "bandits/_kernels.py"),
        cost_ns=50,
        doc="UCB1, Auer, Cesa-Bianchi & Fischer (2002); non-private reference.",
    )
)
