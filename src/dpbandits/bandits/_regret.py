"""Regret at the checkpoints of a run: step by step (:func:`record`) or for a whole segment whose pulls
are known in advance (one arm: :func:`fill_linear`; round robin: :func:`fill_round_robin`,
:func:`finish_round_robin`), as the collapsed kernels need."""

from __future__ import annotations

from ..core.jit import helper, kernel
from ._laws import reward_sum


@helper
def record(out, checkpoints, c, t, regret):
    """Store ``regret`` at every checkpoint equal to step ``t``; return the next checkpoint slot."""
    while c < checkpoints.size and checkpoints[c] == t:
        out[c] = regret
        c += 1
    return c


@kernel
def fill_linear(out, checkpoints, c, t0, regret0, t1, rate):
    """Fill checkpoints in (t0, t1] of a segment whose regret grows by ``rate`` per step.

    Used by collapsed kernels (epochs pulled round-robin or by one arm). Returns the next slot.
    """
    while c < checkpoints.size and checkpoints[c] <= t1:
        out[c] = regret0 + rate * (checkpoints[c] - t0)
        c += 1
    return c


@kernel
def fill_round_robin(out, checkpoints, c, t0, regret0, arms, m, gap, t1):
    """Fill checkpoints in (t0, t1] of pulls cycling over ``arms[:m]`` in order, starting at a round start.

    At t = t0 + q m + s (0 <= s < m) the regret is regret0 + q sum(gap[arms[:m]]) + sum_{j<s} gap[arms[j]].
    Returns the next checkpoint slot.
    """
    rate = 0.0
    for j in range(m):
        rate += gap[arms[j]]
    while c < checkpoints.size and checkpoints[c] <= t1:
        q, s = divmod(checkpoints[c] - t0, m)
        v = regret0 + q * rate
        for j in range(s):
            v += gap[arms[j]]
        out[c] = v
        c += 1
    return c


@kernel
def finish_round_robin(out, checkpoints, c, t, regret, total, arms, m, gap, means, pulls, horizon, rng, law=0):
    """The horizon cuts a round-robin epoch at step t: split the T - t pulls left over ``arms[:m]``.

    Arm j (ascending) gets floor(rem/m) + [j < rem mod m] pulls, whose rewards sum to one
    ``_laws.reward_sum`` each (law 0: one Binomial); nothing else happens. Fills the remaining
    checkpoints and updates ``pulls``; returns (c, regret, total).
    """
    q, s = divmod(horizon - t, m)
    c = fill_round_robin(out, checkpoints, c, t, regret, arms, m, gap, horizon)
    rate = 0.0
    for j in range(m):
        a = arms[j]
        rate += gap[a]
        n = q + 1 if j < s else q
        if n > 0:
            total += reward_sum(rng, law, n, means[a])
            pulls[a] += n
        if j < s:
            regret += gap[a]
    return c, regret + q * rate, total
