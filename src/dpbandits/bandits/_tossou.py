"""The skeleton of the Tossou-family kernels (``ucb``, ``dp_ucb_int``, ``dp_ucb_tossou``, ``dp_ucb_bound``,
``private_ucb``): their block size and their entry points around a kernel.

A kernel is called as ``kernel(means, horizon, checkpoints, *extra, sb, u, eta, picks, replay, law)`` and
returns (regret float64[C], pulls int64[K], reward_sum): ``extra`` are its parameters, ``sb`` its run's
stream (uint64[STREAM], :mod:`._pcg64`), ``u`` and ``eta`` scratch blocks of reward deciders and standard
Laplace draws, unless ``replay``: then they are the given draws, and ``picks`` the given tie picks; ``law``
the reward law's code (:mod:`._laws`; replay is Bernoulli).
"""

from __future__ import annotations

import numpy as np

from ._laws import law_args
from ._pcg64 import new_streams, set_streams_state

BLOCK = 384  # steps per block of draws and logarithms (a multiple of 3)
_NO_PICKS = np.zeros(0, dtype=np.int64)


def replay_stream() -> np.ndarray:
    """uint64[STREAM]: the stream of a run on given draws (never read when the tie picks are given too)."""
    return new_streams([np.random.default_rng(0)])[0]


def entry_points(kernel, args, eta_per_arm=False):
    """(run, on_draws) of ``kernel``; ``args(means, horizon, epsilon, params)`` gives its ``extra``.

    ``run(means, horizon, epsilon, checkpoints, rng, params, rewards)``: one run on the PCG64 stream of ``rng``
    under reward law ``rewards`` (default "bernoulli"),
    which is advanced past every word the run pooled. ``on_draws(means, epsilon, checkpoints, params, u,
    eta, picks)``: the kernel on given draws (step t's reward decider u[t-1], so the horizon is
    ``u.size``; the standard Laplace draws eta and the tie picks in order). ``eta_per_arm``: the kernel's
    Laplace block holds K draws per step (float64[K * BLOCK]), else one (float64[BLOCK]).
    """

    def run(means, horizon, epsilon, checkpoints, rng, params, rewards="bernoulli"):
        streams = new_streams([rng])
        eta = np.empty(means.size * BLOCK if eta_per_arm else BLOCK)
        out = kernel(
            means,
            horizon,
            checkpoints,
            *args(means, horizon, epsilon, params),
            streams[0],
            np.empty(BLOCK),
            eta,
            _NO_PICKS,
            False,
            *law_args(rewards),
        )
        set_streams_state([rng], streams)
        return out

    def on_draws(means, epsilon, checkpoints, params, u, eta, picks):
        u = np.ascontiguousarray(u, dtype=np.float64)
        return kernel(
            means,
            u.size,
            checkpoints,
            *args(means, u.size, epsilon, params),
            replay_stream(),
            u,
            np.ascontiguousarray(eta, dtype=np.float64),
            np.asarray(picks, dtype=np.int64),
            True,
        )

    return run, on_draws
