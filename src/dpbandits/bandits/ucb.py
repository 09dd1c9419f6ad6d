"""UCB1 (Auer et al. 2002), the non-private reference: index S/n + sqrt(2 ln t / n).

Fast kernel (exact re-organisation): index = c_i + sqrt(2 ln t) d_i with c_i = S_i/n_i and
d_i = n_i^-1/2 recomputed only for the pulled arm (both reward outcomes prepared one pull ahead);
sqrt(2 ln t) per block of steps; reward deciders in blocks from the run's inline PCG64 stream
(``_pcg64``); ties (arms with equal index) broken by a uniform pick from the stream, drawn only
when they occur; no argmax while one arm leads (:func:`_lead`, as in ``dp_ucb``: the same decisions).
:func:`ucb_on_draws` runs the same loop on given per-step uniforms and tie picks (the reference
runner's draws reproduce it pull for pull).
"""

from __future__ import annotations

import math
from collections import namedtuple

import numpy as np

from ..core.jit import helper, kernel
from ..core.laws import LAWS
from ..core.registry import Algorithm, Bound, register
from ._argmax import count_max, first_max, fma, lead_chunk, padded_index, resolve_tie
from ._draws import critical_chunks, fill_sqrt_log, fill_uniforms
from ._laws import BERNOULLI, law_args, stream_reward
from ._params import TIE_BREAK
from ._pcg64 import new_streams, set_streams_state, single_run
from ._tossou import BLOCK, replay_stream

LEAD_CHUNK = 128  # longest chunk of leader steps checked against one rival bound (first chunk: 16)
_U = np.uintp

#: One run's state: index terms c, d float64[Kp] (K padded to a multiple of 8, ``_argmax.padded_index``), nxt
#: float64[K, 3] rows of :func:`_pull`, reward sums s float64[K], pulls n int64[K], acc = [regret, reward total],
#: last uintp[1] the arm pulled last, and the leader's scratch inv, rsq float64[LEAD_CHUNK] (:func:`_lead`).
State = namedtuple("State", "c d nxt s n acc last inv rsq")
#: What a run does not change: means float64[K], gap = max(means) - means, checkpoints int64[C], random_ties,
#: ``lead`` (use :func:`_lead`) and the reward law code ``law`` (``_laws``).
Setup = namedtuple("Setup", "means gap checkpoints random_ties lead law")
#: Given draws (``on``: use them, :func:`ucb_on_draws`): per-step reward uniforms u float64[T], tie picks int64[P].
Given = namedtuple("Given", "u picks on")


@helper
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


@helper
def _pull_reward(c, d, s, n, a, r):
    """Pull arm ``a`` of one run with reward ``r`` of any law (no prepared row): c = S * (1/n), d = n^-1/2
    as :func:`_pull` computes them; return the reward."""
    sa = s[a] + r
    s[a] = sa
    m = n[a] + 1
    n[a] = m
    c[a] = sa * (1.0 / m)
    d[a] = 1.0 / math.sqrt(m)
    return r


@kernel(numpy_errors=True)
def _lead(j, stop, a, u, g, setup, state):
    """Pull the leader ``a`` at steps j, j+1, ... < stop while it provably is the argmax; return the
    first step not pulled here (the caller's argmax decides it).

    As ``dp_ucb._lead``: the other arms' fma(g, d, c) never decrease in g, so their maxima at the
    largest g of a chunk bound them over the chunk; arm ``a`` is pulled while its index is > the arms
    before it and >= (with ``random_ties``: >, a tie goes to the argmax) the arms after it. Same
    floating-point operations as :func:`_pull`: bit for bit the argmax loop.
    """
    means, gap, random_ties = setup.means, setup.gap, setup.random_ties
    c, d, nxt, s, n, acc, inv, rsq = state.c, state.d, state.nxt, state.s, state.n, state.acc, state.inv, state.rsq
    ai = np.int64(a)
    mu, ga = means[a], gap[a]
    ca, da, sa = c[a], d[a], s[a]
    s0 = sa
    m = n[a]
    reg = acc[0]
    j = _U(j)
    stop = _U(stop)
    size = _U(16)
    while j < stop:
        h = min(size, stop - j)
        size = min(size + size, _U(LEAD_CHUNK))
        lo, hi = lead_chunk(c, d, g, j, h, ai, m, inv, rsq)
        q = _U(0)
        while q < h:
            v = fma(g[j + q], da, ca)
            if not (v > lo and (v > hi or (v == hi and not random_ties))):
                break
            r = 1.0 if u[j + q] < mu else 0.0
            ca = (sa + r) * inv[q]
            da = rsq[q]
            sa = sa + r
            m += 1
            reg += ga
            q += _U(1)
        j += q
        if q < h:
            break
    c[a], d[a], s[a], n[a] = ca, da, sa, m
    x = 1.0 / (m + 1)
    nxt[a, 0] = sa * x
    nxt[a, 1] = (sa + 1.0) * x
    nxt[a, 2] = 1.0 / math.sqrt(m + 1)
    acc[0] = reg
    acc[1] += sa - s0  # 0/1 rewards: exact integer sums
    return np.int64(j)


@kernel
def _new_state(k):
    """Initial :class:`State` of one run: c, d padded to a multiple of 8 arms (padding never wins), rows for a
    first pull (c = r / 1, d = 1), no pulls, no arm pulled yet (last = c.size)."""
    c, d = padded_index(k)
    nxt = np.zeros((k, 3))
    nxt[:, 1:] = 1.0  # first pull: c = r / 1, d = 1
    last = np.full(1, c.size, dtype=np.uintp)
    n = np.zeros(k, dtype=np.int64)
    return State(c, d, nxt, np.zeros(k), n, np.zeros(2), last, np.empty(LEAD_CHUNK), np.empty(LEAD_CHUNK))


@kernel
def _run(setup, horizon, sb, crit, given, out):
    """One run into ``out`` (regret at the checkpoints); returns (pulls[K], reward sum).

    Reward deciders from stream ``sb`` in blocks (``crit``: ``_draws.critical_chunks`` of the means), or
    ``given.u`` with ``given.on``; ties by a uniform pick from ``sb`` (or the next of ``given.picks``). With
    ``setup.lead``, an arm that wins two steps in a row is pulled by :func:`_lead` until it may lose (the same
    decisions, without the argmax). Under reward law ``setup.law`` != 0 (``_laws``) each pull draws its reward
    from ``sb`` and the argmax decides every step.
    """
    means, gap, checkpoints, random_ties, lead, law = setup
    picks, replay = given.picks, given.on
    k = means.size
    state = _new_state(k)
    c, d, nxt, s, n, acc, last = state.c, state.d, state.nxt, state.s, state.n, state.acc, state.last
    kp = c.size
    g = np.empty(BLOCK)
    u = np.empty(BLOCK)
    pc = 0
    t = 1
    ci = 0
    while t <= horizon:
        jn = min(BLOCK, horizon - t + 1)
        fill_sqrt_log(g, t)
        if replay:
            u[:jn] = given.u[t - 1 : t - 1 + jn]
        elif law == BERNOULLI:
            fill_uniforms(sb, crit, u)
        j = 0
        while j < jn:  # segments ending at checkpoints
            stop = jn if ci >= checkpoints.size else min(jn, j + checkpoints[ci] - t + 1)
            while j < stop:
                gj = g[_U(j)]
                if t <= k:
                    a = _U(t - 1)
                else:
                    best, a = first_max(c, d, gj, kp, False)
                    if random_ties:
                        m = count_max(c, d, gj, kp, best, False)
                        if m > 1:
                            a, pc = resolve_tie(c, d, gj, kp, best, m, sb, picks, pc, replay)
                if law == BERNOULLI:
                    acc[1] += _pull(c, d, nxt, s, n, a, u[_U(j)] < means[a])
                else:
                    acc[1] += _pull_reward(c, d, s, n, a, stream_reward(sb, law, means[a]))
                acc[0] += gap[a]
                j += 1
                t += 1
                if lead and law == BERNOULLI and a == last[0] and t > k + 1 and j < stop:
                    j1 = _lead(j, stop, a, u, g, setup, state)
                    t += j1 - j
                    j = j1
                last[0] = a
            while ci < checkpoints.size and checkpoints[ci] == t - 1:
                out[ci] = acc[0]
                ci += 1
    return n, acc[1]


@kernel
def ucb_batch(means, horizon, checkpoints, random_ties, streams, lead=True, law=0):
    """Runs of UCB1, one per PCG64 stream (uint64[R, STREAM] of ``_pcg64.new_streams``, advanced), under reward
    law code ``law`` (``_laws``).

    Run r's result depends only on streams[r]; ``lead=False`` takes the argmax at every step (same
    results, slower). Returns (regret[R, C], pulls[R, K], reward_sum[R]).
    """
    runs = streams.shape[0]
    out = np.empty((runs, checkpoints.size))
    pulls = np.empty((runs, means.size), dtype=np.int64)
    totals = np.empty(runs)
    crit = critical_chunks(means)
    setup = Setup(means, means.max() - means, checkpoints, random_ties, lead, law)
    given = Given(np.zeros(0), np.zeros(0, dtype=np.int64), False)
    for r in range(runs):
        pulls[r], totals[r] = _run(setup, horizon, streams[r], crit, given, out[r])
    return out, pulls, totals


def ucb_on_draws(means, checkpoints, random_ties, u, picks, lead=True):
    """UCB1 on given draws: step t's reward is u[t-1] < mu_a, ties take the next of ``picks``.

    The horizon is ``u.size``. Returns (regret[C], pulls[K], reward_sum).
    """
    means = np.asarray(means, dtype=np.float64)
    checkpoints = np.asarray(checkpoints, dtype=np.int64)
    out = np.empty(len(checkpoints))
    setup = Setup(means, means.max() - means, checkpoints, random_ties, lead, 0)
    given = Given(np.asarray(u, dtype=np.float64), np.asarray(picks, dtype=np.int64), True)
    pulls, total = _run(setup, len(u), replay_stream(), critical_chunks(means), given, out)
    return out, pulls, total


def replay(means, epsilon, checkpoints, params, u, eta, picks):
    """:func:`ucb_on_draws` with the registry's replay arguments (``Algorithm.replay``; UCB1 draws no noise)."""
    return ucb_on_draws(means, checkpoints, params["tie_break"] == "random", u, picks)


def run_batch(means, horizon, epsilon, checkpoints, rngs, params, rewards="bernoulli"):
    """Runs of UCB1 under reward law ``rewards``, one per Generator (each advanced past the words its run pooled)."""
    streams = new_streams(rngs)
    out = ucb_batch(means, horizon, checkpoints, params["tie_break"] == "random", streams, True, *law_args(rewards))
    set_streams_state(rngs, streams)
    return out


run = single_run(run_batch)


register(
    Algorithm(
        name="ucb",
        kind="regret",
        label="UCB",
        private=False,
        reference="dpbandits.reference.tossou:UCB",
        bound=Bound("UCB1 bound (Auer et al. 2002)", "dpbandits.drawing.theory:ucb1"),
        run=run,
        replay=replay,
        run_batch=run_batch,
        params={"tie_break": TIE_BREAK},
        laws=LAWS,
        cost_ns=15,
        doc="UCB1, Auer, Cesa-Bianchi & Fischer (2002); non-private reference.",
    )
)
