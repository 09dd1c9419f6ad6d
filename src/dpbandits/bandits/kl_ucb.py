"""KL-UCB (Garivier & Cappé, COLT 2011, arXiv 1102.2490; Cappé, Garivier, Maillard, Munos & Stoltz, Annals of
Statistics 2013, arXiv 1210.1136), Bernoulli form; the non-private limit of the KL-based private algorithms.

Rounds 1..K pull each arm once; at round t > K pull
    argmax_a u_a,  u_a = max{q in [mu_a, 1] : n_a kl(mu_a, q) <= ln t + c ln ln t}   (nats; ln ln t = 0 for t < 3),
with mu_a = S_a / n_a the empirical mean of arm a's n_a rewards, u_a by bisection to ``klucb_tol``
(:func:`dpbandits.mechanisms.klucb.klucb_upper`). ``c`` = 0 as in the authors' simulations [CHOICE]; their
regret theorem takes c = 3. Anytime. Any reward law on [0, 1] (the index reads only S_a and n_a).

Fast kernel, exact: it takes the decision of the argmax of every arm's ``klucb_upper`` (ties included) without
bisecting every arm. The bisection moves its lower end only to points where the computed kl is at most the
level, and a computed kl is within 1e-13 of the true one (arguments clamped into [1e-15, 1 - 1e-15]); so, with
MARGIN = 1e-11 nats,
 - kl(mu, y) < level - MARGIN proves u >= y - tol - 1e-15 (:func:`lower_bound`, y just below a Newton root;
   u >= mu always);
 - mu_b < x and kl(mu_b, x) > level_b + MARGIN proves u_b < x (:func:`below`); the tangent of the convex
   kl(mu_b, .) at x then certifies a lower point cu_b, kl(mu_b, cu_b) > ck_b, kept until arm b is pulled.
Each round first tries the arm pulled last against its rivals' kept certificates (:func:`keeps_lead`: one kl;
it decides ~95% of the rounds at T = 1e5); else (:func:`choose`) a candidate is bounded and every rival
excluded, a rival that is not becoming the candidate if its bound is higher; failing that (near-ties within
~tol, equal states, means of 1) every index is bisected as the twin does and ties are drawn from ``rng``.
Rewards and tie picks come from ``rng`` in the twin's order, so a run reproduces the twin's run on the same
generator draw for draw (Bernoulli and Beta rewards).
"""

from __future__ import annotations

import math
from collections import namedtuple

import numpy as np

from ..core.jit import helper, kernel
from ..core.laws import LAWS
from ..core.registry import Algorithm, Param, register
from ..mechanisms.klucb import Q_CLAMP, kl_bernoulli, klucb_upper
from ._generator import argmax_ties
from ._laws import law_args, reward
from ._params import TIE_BREAK
from ._regret import record

MARGIN = 1e-11  # nats: a computed kl within this of its level decides nothing (its rounding is < 1e-13)
TOP = 1.0 - Q_CLAMP  # the bisection's upper end
#: A run's scratch, float64[K] each: the Newton starts ``guess``; certificates true kl(mu_b, cu[b]) > ck[b] of arm
#: b's present state (ck = -inf: none), so that u_b < cu[b] while level_b + MARGIN < ck[b]; the bisected ``index``.
Scratch = namedtuple("Scratch", "guess cu ck index")


@helper(numpy_errors=True)
def newton_root(p, level, q):
    """q in (p, TOP) with kl(p, q) ~= level (Newton from the guess ``q``; kl(p, .) is convex and increasing on
    [p, 1]) until a step is at most 1e-8, which leaves it ~1e-14 above the root (quadratic convergence); a guess
    outside (p, TOP) starts at the midpoint. Not certified: :func:`lower_bound` checks it."""
    if not p < q < TOP:
        q = 0.5 * (p + TOP)
    for _ in range(60):
        step = (kl_bernoulli(p, q) - level) * q * (1.0 - q) / (q - p)
        nxt = q - step
        if nxt >= TOP:
            nxt = 0.5 * (q + TOP)
        elif nxt <= p:
            nxt = 0.5 * (q + p)
        if abs(nxt - q) <= 1e-8:
            return nxt
        q = nxt
    return q


@helper(numpy_errors=True)
def lower_bound(p, level, tol, guess, a):
    """x <= klucb_upper(p, level, tol), certified; ``guess[a]`` (the Newton start) becomes the new root.

    1.0 if p >= 1 (then u = 1); else, with y below the Newton root by a step that lowers kl by > 2 MARGIN,
    y - tol - 1e-15 if kl(p, y) < level - MARGIN; else p (u >= p always).
    """
    if p >= 1.0:
        return 1.0
    if level <= 0.0:
        return p
    q = newton_root(p, level, guess[a])
    guess[a] = q
    slope = (q - p) / (q * (1.0 - q))  # d kl(p, q) / dq
    if not slope > 0.0:
        return p
    y = q - (4.0 * MARGIN / slope + 1e-12)
    if y > p and kl_bernoulli(p, y) < level - MARGIN:
        return max(p, y - tol - 1e-15)
    return p


@helper(numpy_errors=True)
def below(p, level, x, scratch, b):
    """True if arm b's index klucb_upper(p, level, tol) < x is certain (for any tol): by its certificate (cu[b] <= x),
    or by p < x and kl(p, x) > level + MARGIN; the latter is kept as a certificate lower down, where the tangent
    of the convex kl(p, .) at x (a lower bound) falls halfway to the level."""
    cu, ck = scratch.cu, scratch.ck
    if cu[b] <= x and level + MARGIN < ck[b]:
        return True
    if not p < x:
        return False
    kx = kl_bernoulli(p, x)
    if not kx > level + MARGIN:
        return False
    if x < TOP:
        slope = (x - p) / (x * (1.0 - x))
        u = x - 0.5 * (kx - level) / slope
        if u > p:
            cu[b] = u
            ck[b] = kx - slope * (x - u) - MARGIN
    return True


@helper(numpy_errors=True)
def keeps_lead(s, n, level, tol, lead, scratch):
    """True if arm ``lead``'s index is certainly the largest, by the rivals' certificates alone: all valid (level_b
    + MARGIN < ck[b]), and u_lead > X = max cu[b], as p_lead > X or kl(p_lead, X + tol + 1e-15) < level - MARGIN."""
    x = -np.inf
    for b in range(s.size):
        if b != lead:
            if not level / n[b] + MARGIN < scratch.ck[b]:
                return False
            x = max(x, scratch.cu[b])
    p = s[lead] / n[lead]
    if p > x:
        return True
    y = x + tol + 1e-15
    return y < TOP and kl_bernoulli(p, y) < level / n[lead] - MARGIN


@helper(numpy_errors=True)
def choose(s, n, level, tol, lead, scratch, rng, random_ties):
    """The arm whose KL-UCB index is the largest (ties by ``rng``), starting from candidate ``lead``."""
    k = s.size
    cand = lead
    x = lower_bound(s[cand] / n[cand], level / n[cand], tol, scratch.guess, cand)
    for _ in range(k):
        rival = -1
        for b in range(k):
            if b != cand and not below(s[b] / n[b], level / n[b], x, scratch, b):
                rival = b
                break
        if rival < 0:
            return cand
        xr = lower_bound(s[rival] / n[rival], level / n[rival], tol, scratch.guess, rival)
        if not xr > x:
            break
        cand, x = rival, xr
    index = scratch.index
    for b in range(k):  # near-tie: every index, as the twin computes it
        index[b] = klucb_upper(s[b] / n[b], level / n[b], tol)
    return argmax_ties(index, rng, random_ties)


@kernel(numpy_errors=True)
def kl_ucb_kernel(means, horizon, c, tol, checkpoints, rng, random_ties, law=0):
    """One run: (regret[C] at ``checkpoints``, pulls int64[K], reward sum); rewards of law ``law`` (``_laws``)."""
    k = means.size
    gap = means.max() - means
    s = np.zeros(k)
    n = np.zeros(k, dtype=np.int64)
    scratch = Scratch(np.full(k, -1.0), np.zeros(k), np.full(k, -np.inf), np.empty(k))
    out = np.empty(checkpoints.size)
    regret = 0.0
    total = 0.0
    ci = 0
    a = 0
    for t in range(1, horizon + 1):
        if t <= k:
            a = t - 1
        else:
            level = math.log(t)
            if t >= 3:
                level = level + c * math.log(level)
            if not keeps_lead(s, n, level, tol, a, scratch):
                a = choose(s, n, level, tol, a, scratch, rng, random_ties)
        r = reward(rng, law, means[a])
        scratch.ck[a] = -np.inf  # its state changes: no certificate
        s[a] += r
        n[a] += 1
        total += r
        regret += gap[a]
        ci = record(out, checkpoints, ci, t, regret)
    return out, n, total


def run(means, horizon, epsilon, checkpoints, rng, params, rewards="bernoulli"):
    """One run of KL-UCB under reward law ``rewards`` (``epsilon`` is ignored); see :func:`kl_ucb_kernel`."""
    return kl_ucb_kernel(
        means,
        horizon,
        params["c"],
        params["klucb_tol"],
        checkpoints,
        rng,
        params["tie_break"] == "random",
        *law_args(rewards),
    )


register(
    Algorithm(
        name="kl_ucb",
        kind="regret",
        label="KL-UCB",
        private=False,
        reference="dpbandits.reference.field:KLUCB",
        run=run,
        params={
            "tie_break": TIE_BREAK,
            "c": Param(
                0.0,
                low=-1.0,
                doc="[CHOICE] c of the level ln t + c ln ln t: 0 as in Garivier & Cappé's simulations, 3 in their "
                "regret theorem (c > -1 keeps the level positive)",
            ),
            "klucb_tol": Param(1e-9, low=0.0, doc="[CHOICE] bisection tolerance of the KL-UCB index"),
        },
        laws=LAWS,
        cost_ns=150,  # dpbandits bench, K = 20, load 2 on 2 cores: 154 ns (K = 5: 82 ns)
        doc="KL-UCB, Garivier & Cappé (2011), Cappé et al. (2013); non-private reference. Anytime.",
    )
)
