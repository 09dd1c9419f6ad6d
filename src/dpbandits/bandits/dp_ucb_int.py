"""DP-UCB-INT (Tossou & Dimitrakakis 2016, Algorithm 3): interval-released noisy means.

The input privacy eps' comes from Corollary 3.2 for the target (epsilon, delta) with v = 1.1;
interval f = ceil(1/eps'). Round robin for K f steps, then at the first decision after each
f-th pull of an arm a fresh release  S/n + Lap(n^(v/2-1)) + sqrt(2 ln t / n)  (one release per
interval, ``int_update="frozen"``). Other readings: ``literal`` (re-noise every step while n mod f == 0),
``live_bonus`` (noisy mean frozen, bonus recomputed every step) and ``scheduled`` (every arm re-released at
the decisions t = K f + 1 + j f, whatever its count); docs/reconstructions.md.

``literal`` against Algorithm 3's box, line by line (lines of the paper's text): the box's input eps (line
188) is the input privacy eps' the experiments pass (Section 4, line 246), so its "f <- ceil(1/eps)" (lines
190-191) is this f (16 at target 1, 147 at 0.1), and there is no other interval to offer; round robin while
t <= K f (lines 193-194); for t > K f every arm with n mod f = 0 gets x = S/n + Lap(n^(v/2-1)) + sqrt(2 ln t/n)
(lines 196-198, log read as ln); pull argmax x (line 201, ties: ``tie_break``). One departure: the box updates
s_a only after a data-dependent pull (line 202) and never n_a; here both after every pull, else the first
release divides by 0.

Fast kernel (exact re-organisation): only an arm whose pull count changed can start a new interval,
so after the first release each step checks only the arm pulled last (``literal`` checks all, as it
re-noises every waiting arm, and ``scheduled`` all at its scheduled steps, none in between); the argmax
is recomputed only when an index changed, and tie picks are
drawn (every step, as the algorithm does) only while several arms share the maximum; reward
deciders and standard Laplace noise in blocks from the run's inline PCG64 stream.
:func:`dp_ucb_int_on_draws` runs the same loop on given draws.
"""

from __future__ import annotations

import math

import numpy as np

from ..core.jit import kernel
from ..core.laws import LAWS
from ..core.registry import Algorithm, Audit, Bound, Contract, Param, Setting, register
from ..mechanisms.ledger import LAPLACE, next_draw, note
from ._argmax import best_arm, padded_index, resolve_tie
from ._laws import BERNOULLI, stream_reward
from ._params import TIE_BREAK
from ._regret import record
from ._tossou import BLOCK, entry_points, log_block, refill_laplace, run_buffers

UPDATES = ("frozen", "literal", "live_bonus", "scheduled")
LOG_BASES = {"ln": math.e, "log10": 10.0, "log2": 2.0}
# Reading axes of Algorithm 3: {value: why it is plausible}; each value's support in the paper's text is in
# dpbandits.pipeline.support (docs/reconstructions.md).
INT_UPDATE_READINGS = {
    "frozen": "one release per interval, which Lemma 3.1 (line 178) and Theorem 3.4 (line 210-212) price, the index "
    "frozen in between as the box's x holds the bonus computed at the release (Algorithm 3, line 198)",
    "literal": "the box tests n mod f = 0 at every step, so an idle arm whose count is a multiple of f gets a "
    "fresh Laplace draw at every step: unboundedly many releases at one count, which Theorem 3.4 does "
    "not price",
    "live_bonus": "the noisy mean is released once per interval (line 85) but sqrt(2 log t/n) reads no data, so "
    "recomputing it every step, as UCB does, keeps the frozen reading's privacy; nothing prints it",
    "scheduled": "Section 3 prices a mean used 'at each time step', then 'only uses a released mean once every 1/eps "
    "times' (line 170) and says 'lazily update the mean of each arm every 1/eps times' (line 174): a schedule "
    "in t of period f, the box's rounding of 1/eps (line 190); an idle arm is then re-released at an "
    "unchanged count, which Theorem 3.4's one release per interval does not price",
}
EPS_LOG_READINGS = {
    "ln": "Corollary 3.2 inverts Corollary 3.1 (line 222), which writes ln(1/delta'); delta = e^-10 (Section 4, "
    "line 246) is a round number in natural logs",
    "log10": "Corollary 3.2 writes a bare 'log 1/delta'', read as the common logarithm",
    "log2": "Corollary 3.2 writes a bare 'log 1/delta'', read in base 2",
}


def input_epsilon(epsilon: float, delta: float, v: float = 1.1, log: str = "ln") -> float:
    """eps' of Corollary 3.2: the input privacy giving (epsilon, delta)-DP overall.

    eps' = sqrt((L + 4 eps)/(8 zeta(v))) - sqrt(L/(8 zeta(v))),  L = log(1/delta) in base ``log``.
    """
    from scipy.special import zeta  # imported here: keeps `import dpbandits` light for simulation jobs

    z = float(zeta(v, 1))
    big_l = math.log(1.0 / delta) / math.log(LOG_BASES[log])
    return math.sqrt((big_l + 4.0 * epsilon) / (8.0 * z)) - math.sqrt(big_l / (8.0 * z))


@kernel(numpy_errors=True)
def dp_ucb_int_kernel(means, horizon, checkpoints, params, draws, law=0, book=None):
    """One run (``_tossou``'s calling convention; ``params`` = (f, v, random_ties, update) from :func:`_args`,
    update: 0 frozen, 1 literal, 2 live_bonus, 3 scheduled). Returns (regret[C], pulls[K], reward_sum); the
    releases' standard Laplace draws are eta in order. ``book``: a release book that records each release (the
    mean of arm i's n_i entries, Laplace scale n_i^(v/2-1)), or None (compiled away)."""
    f, v, random_ties, update = params
    sb, u, eta, picks, replay = draws
    k = means.size
    gap, crit, lt, out = run_buffers(means, checkpoints)
    index, zero = padded_index(k)
    kp = index.size
    s = np.zeros(k)
    n = np.zeros(k, dtype=np.int64)
    phase = np.zeros(k, dtype=np.int64)  # n mod f
    last = np.zeros(k, dtype=np.int64)
    noisy_mean = np.zeros(k)
    expo = v / 2.0 - 1.0
    regret = 0.0
    total = 0.0
    ci = 0
    pc = 0
    ec = eta.size if not replay else 0
    j = BLOCK
    a = np.uintp(0)
    best = 0.0
    m = 1
    for t in range(1, horizon + 1):
        if j == BLOCK:
            log_block(lt, t, sb, crit, u, replay, law)
            j = 0
        if t <= k * f:
            a = np.uintp((t - 1) % k)
        else:
            lt2 = 2.0 * lt[j]
            every = update == 1 or t == k * f + 1 or (update == 3 and (t - 1) % f == 0)
            changed = update == 2
            for q in range(k if every else 1):
                i = q if every else np.int64(a)  # a: the arm pulled last
                if every if update == 3 else (phase[i] == 0 and (update == 1 or n[i] != last[i])):
                    if ec == eta.size:
                        ec = refill_laplace(sb, eta, replay)
                    noise = float(n[i]) ** expo * eta[ec]
                    noisy_mean[i] = s[i] / n[i] + noise
                    if book is not None:
                        note(book, LAPLACE, i, 1, n[i], 1.0 / n[i], float(n[i]) ** expo, next_draw(book), noise)
                    ec += 1
                    last[i] = n[i]
                    index[i] = noisy_mean[i] + math.sqrt(lt2 / n[i])
                    changed = True
            if update == 2:  # every index gets the live bonus (the fresh ones: the same value again)
                for i in range(k):
                    index[i] = noisy_mean[i] + math.sqrt(lt2 / n[i])
            if changed:
                best, a, m = best_arm(index, zero, 0.0, kp, random_ties)
            if m > 1:
                a, pc = resolve_tie(index, zero, 0.0, kp, best, m, sb, picks, pc, replay)
        if law == BERNOULLI:
            r = 1.0 if (u[t - 1] if replay else u[j]) < means[a] else 0.0
        else:  # another law: the reward itself, from the stream
            r = stream_reward(sb, law, means[a])
        s[a] += r
        n[a] += 1
        phase[a] = phase[a] + 1 if phase[a] + 1 < f else 0
        total += r
        regret += gap[a]
        ci = record(out, checkpoints, ci, t, regret)
        j += 1
    return out, n, total


def interval(epsilon: float, params: dict) -> tuple[float, int]:
    """(eps', f) for target ``epsilon`` and the algorithm's parameters."""
    eps_in = input_epsilon(epsilon, params["delta"], params["v"], params["eps_log"])
    return eps_in, math.ceil(1.0 / eps_in)


def _args(means, horizon, epsilon, params):
    """The kernel's (f, v, random_ties, update)."""
    _, f = interval(epsilon, params)
    return f, params["v"], params["tie_break"] == "random", UPDATES.index(params["int_update"])


run, dp_ucb_int_on_draws, releases = entry_points(dp_ucb_int_kernel, _args)


def audit_plan(epsilon: float, params: dict) -> tuple[int, None]:
    """Privacy audit horizon (:mod:`dpbandits.audit`, K = 2): round robin for K f steps, then 6 data-dependent
    decisions; the generic tables."""
    _, f = interval(epsilon, params)
    return 2 * f + 6, None


register(
    Algorithm(
        name="dp_ucb_int",
        kind="regret",
        label="DP-UCB-INT",
        private=True,
        reference="dpbandits.reference.tossou:DPUCBInt",
        audit=Audit(plan=audit_plan),
        bound=Bound("Thm 3.5", "dpbandits.drawing.theory:dp_ucb_int_thm35"),
        run=run,
        replay=dp_ucb_int_on_draws,
        releases=releases,
        privacy="approx",
        contract=Contract(
            bernoulli=Setting((0.7, 0.5, 0.45), 400, 0.5), deterministic=Setting((1.0, 0.0, 0.0), 300, 4.0)
        ),
        params={
            "tie_break": TIE_BREAK,
            "delta": Param(math.exp(-10), low=0.0, doc="target delta of (epsilon, delta)-DP"),
            "v": Param(1.1, low=1.0, doc="noise exponent v > 1; Laplace scale n^(v/2-1)"),
            "int_update": Param(
                "frozen",
                UPDATES,
                readings=INT_UPDATE_READINGS,
                doc="[CHOICE] one release per interval, index frozen in between (frozen); Algorithm "
                "3's test read literally (literal); a live UCB bonus (live_bonus); or every arm re-released every "
                "f steps of t (scheduled)",
            ),
            "eps_log": Param(
                "ln", tuple(LOG_BASES), readings=EPS_LOG_READINGS, doc="[CHOICE] base of log(1/delta) in Corollary 3.2"
            ),
        },
        laws=LAWS,
        cost_ns=30,
        doc="Tossou & Dimitrakakis (2016) Algorithm 3; epsilon is the target privacy.",
    )
)
