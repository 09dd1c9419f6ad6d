"""Phase schedules of DP-BAI / Baseline (Chen et al. 2024, eqs. (4)-(8), lost in the available text and
reconstructed; docs/reconstructions.md) and OD-LinBAI's phase budget (Yang & Tan 2022).

All quantities depend on public data only (K, d, T). ``phase_sizes`` returns s_1 .. s_{M+1}: the
number of active arms at the start of each phase, ending with s_{M+1} = 1.
"""

from __future__ import annotations

import math

SCHEDULES = ("dexp", "one_shot", "halving")
BRANCH_RULES = ("max_d_d2", "s_gt_d")


def stage1_target(k: int, d: int) -> int:
    """g_0 = min(K, ceil(d^2 / 4)), the number of arms left after stage 1 [RECON]."""
    return min(k, math.ceil(d * d / 4))


def phase_sizes(k: int, d: int, schedule: str = "dexp") -> list[int]:
    """Active-set sizes s_1 = K, ..., s_{M+1} = 1 of the schedule ``schedule``.

    ``dexp`` [RECON]: doubly-exponential decay of the excess K - g_0 over at most M_1 + 1 phases,
    M_1 = ceil(log2 d) + 1, then halving. ``one_shot``: one phase K -> g_0, then halving.
    ``halving``: ceil(s / 2) from K (Sequential-Halving-like).
    """
    if k < 1 or d < 1:
        raise ValueError(f"need K >= 1 and d >= 1, got K={k}, d={d}")
    if schedule not in SCHEDULES:
        raise ValueError(f"schedule={schedule!r} is not one of {list(SCHEDULES)}")
    s = [k]
    if schedule != "halving":
        g0 = stage1_target(k, d)
        h0 = k - g0
        if h0 > 0:
            if schedule == "dexp":
                m1 = math.ceil(math.log2(d)) + 1
                lam = max(2.0, h0 ** (2.0**-m1))  # inf{beta >= 2 : beta^(2^M1) >= h0}
                i = 1
                while True:
                    h = math.floor(h0 / lam ** (2**i - 1))
                    if h <= 0:
                        break
                    s.append(g0 + h)
                    i += 1
            s.append(g0)
    while s[-1] > 1:
        s.append(math.ceil(s[-1] / 2))
    return s


def maxdet_branch(s: int, d: int, rule: str = "max_d_d2") -> bool:
    """Whether DP-BAI's Max-Det branch (line 6 of Algorithm 1) fires for s active arms spanning d dimensions.

    ``max_d_d2`` [RECON]: s > max(d, ceil(d^2/4)); ``s_gt_d``: s > d. Both are monotone in d,
    so a branch predicted with the ambient d also fires for any rank d_p <= d.
    """
    if rule == "max_d_d2":
        return s > max(d, math.ceil(d * d / 4))
    if rule == "s_gt_d":
        return s > d
    raise ValueError(f"maxdet_if={rule!r} is not one of {list(BRANCH_RULES)}")


def reserve(sizes: list[int], d: int, use_maxdet: bool, rule: str = "max_d_d2") -> int:
    """Worst-case rounding overhead sum_p c_p reserved by T' = T - sum_p c_p [RECON] (eq. (8) is lost).

    c_p = d if the Max-Det branch can fire in phase p (DP-BAI only), else s_p.
    """
    return sum(d if use_maxdet and maxdet_branch(s, d, rule) else s for s in sizes[:-1])


def od_phases(d: int) -> int:
    """Number of OD-LinBAI phases R = ceil(log2 d) (at least 1)."""
    return max(1, math.ceil(math.log2(d)))


def od_keep(d: int, r: int) -> int:
    """Arms kept after OD-LinBAI phase r (1-based): ceil(d / 2^r)."""
    return math.ceil(d / 2**r)


def od_phase_budget(budget: int, k: int, d: int) -> float:
    """Per-phase budget m = (T - min(K, d(d+1)/2) - sum_{r=1}^{R-1} ceil(d/2^r)) / R (Yang & Tan 2022)."""
    r = od_phases(d)
    overhead = min(k, d * (d + 1) // 2) + sum(od_keep(d, i) for i in range(1, r))
    return (budget - overhead) / r
