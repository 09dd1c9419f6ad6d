"""OD-LinBAI (Yang & Tan 2022) and its private variant DP-OD (Chen et al. 2024, Appendix E.1).

R = ceil(log2 d) phases. Phase r projects the active arms to orthonormal coordinates of their span
when the rank drops, computes a G-optimal design pi_r, pulls each support arm ceil(pi_r(a) m) times,
forms the phase-r OLS estimate theta_r = V_r^+ u_r with u_r = sum_t a_{A_t} X_t and keeps the
ceil(d / 2^r) arms with the largest <theta_r, a>. DP-OD adds i.i.d. Lap(L_r / epsilon) noise to
every coordinate of u_r, L_r = max_a ||a||_1 over the active arms in working coordinates.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from ..core.registry import Param, register
from .cache import DesignCache
from .elimination import bai_algorithm, top_arms
from .goptimal import MAX_ITER, PRUNE, SOLVERS, TOL, g_optimal
from .noise import add_noise, note_releases
from .projection import TOL_RANK, orthonormal_coordinates
from .schedule import od_keep, od_phase_budget, od_phases
from .trials import bai_releases


@dataclass(frozen=True)
class Phase:
    """Public data of one phase, for a given history of active sets.

    active : int64[s] arms;  coords : float64[s, d_r] working coordinates;
    support : int64[q] positions (into ``active``) of the pulled arms;  counts : int64[q] pulls;
    vinv : float64[d_r, d_r] = V_r^+;  l1 : L_r = max_a ||a||_1 over ``coords``.
    """

    active: np.ndarray
    coords: np.ndarray
    support: np.ndarray
    counts: np.ndarray
    vinv: np.ndarray
    l1: float


@dataclass
class ODPlan:
    """Public part of one OD-LinBAI / DP-OD configuration; ``phases`` maps history -> Phase."""

    k: int
    keep: list[int]
    epsilon: float | None  # None: non-private (OD-LinBAI)
    global_l1: float | None  # L for dpod_l1="global"; None: the per-phase L_r
    phases: DesignCache


def _phase_design(arms, m, params):
    tol_rank = params["tol_rank"]

    def compute(history):
        active = np.array(history[-1], dtype=np.int64)
        if len(history) == 1:
            prev = arms[active]
        else:
            parent = phases(history[:-1])
            prev = parent.coords[np.searchsorted(parent.active, active)]
        coords = orthonormal_coordinates(prev, tol_rank)
        if coords.shape[1] == prev.shape[1]:  # project only when the rank drops (as OD-LinBAI does)
            coords = prev
        if coords.shape[1] == 0:
            empty = np.zeros(0, dtype=np.int64)
            return Phase(active, coords, empty, empty, np.zeros((0, 0)), 0.0)
        pi = g_optimal(coords, params["g_tol"], MAX_ITER, params["g_prune"], params["g_design"])
        support = np.flatnonzero(pi > 0)
        counts = np.ceil(pi[support] * m).astype(np.int64)
        xs = coords[support]
        vinv = np.linalg.pinv((xs.T * counts) @ xs, hermitian=True)
        return Phase(active, coords, support, counts, vinv, float(np.abs(coords).sum(axis=1).max()))

    phases = DesignCache(compute)
    return phases


def make_plan(arms, budget, epsilon, params, private) -> ODPlan:
    """Phase budget m, kept counts and the phase cache; ``ValueError`` naming ``budget`` if m <= 0."""
    k, d = arms.shape
    m = od_phase_budget(budget, k, d)
    if m <= 0:
        raise ValueError(f"budget={budget} is too small for OD-LinBAI (per-phase budget m={m:g} <= 0)")
    keep = [od_keep(d, r) for r in range(1, od_phases(d) + 1)]
    global_l1 = None
    if private and params["dpod_l1"] == "global":
        global_l1 = float(np.abs(arms).sum(axis=1).max())
    return ODPlan(k, keep, epsilon if private else None, global_l1, _phase_design(arms, m, params))


def recommend(plan: ODPlan, table, rng: np.random.Generator, book=None) -> int:
    """One trial: the recommended arm, reading rewards through ``table.pull`` once per phase. With a release
    ``book`` (:mod:`dpbandits.mechanisms.ledger`; ``rng`` then a :class:`dpbandits.bai.noise.NoiseTap`),
    coordinate i of the noisy u_r is noted as reading each pulled arm's entries of the phase with weight
    |coords[a, i]|, the coefficient of each of those rewards in u_r."""
    history = (tuple(range(plan.k)),)
    for keep in plan.keep:
        ph = plan.phases(history)
        if ph.support.size:
            means = table.pull(ph.active[ph.support], ph.counts)
            u = ph.coords[ph.support].T @ (ph.counts * means)
            if plan.epsilon is not None:
                l1 = ph.l1 if plan.global_l1 is None else plan.global_l1
                u = add_noise(u, l1 / plan.epsilon, "laplace", rng)
                if book is not None:
                    pulled = ph.active[ph.support]
                    note_releases(book, rng, pulled, table.next[pulled], ph.counts, ph.coords[ph.support].T)
            scores = ph.coords @ (ph.vinv @ u)
        else:
            scores = np.zeros(ph.active.size)
        active = top_arms(ph.active, scores, min(keep, ph.active.size), rng)
        history = (*history, tuple(active.tolist()))
    return int(history[-1][0])


#: Reading axes (docs/reconstructions.md, Chen et al.): the G-optimal design where several designs are optimal,
#: and DP-OD's lost noise parameter L (Appendix E.1).
G_DESIGN_READINGS = {
    "fw_away": "Frank-Wolfe with away steps (Wolfe-Atwood, as in Todd & Yildirim's MVEE solver) drives weight "
    "off rows outside the optimal support, giving a sparse design",
    "fw": "plain Fedorov-Wynn / Frank-Wolfe, the textbook G-optimal design solver, keeps small weights on "
    "non-support rows, which ceil(pi(a) m) turns into pulls",
}
DPOD_L1_READINGS = {
    "phase": "the l1-sensitivity of u_r to one reward: max l1 norm over the phase's active arms in the "
    "coordinates where the noise is added (Appendix E.1 adds Lap noise with parameter L to u_r)",
    "global": "one L for the whole run: max l1 norm over all arms in the original coordinates",
}
_PARAMS = {
    "g_design": Param(
        "fw_away",
        SOLVERS,
        readings=G_DESIGN_READINGS,
        doc="[CHOICE] Frank-Wolfe (Fedorov-Wynn) with away steps (fw_away) or plain (fw) for the G-optimal design",
    ),
    "g_tol": Param(TOL, low=0.0, doc="[CHOICE] stop once g(pi) <= d (1 + g_tol)"),
    "g_prune": Param(PRUNE, low=0.0, doc="[CHOICE] drop design weights below this"),
    "tol_rank": Param(TOL_RANK, low=0.0, doc="[CHOICE] relative singular-value threshold of the rank"),
}


def _algorithm(name, label, private, params, doc):
    def plan(arms, budget, epsilon, resolved):
        return make_plan(arms, budget, epsilon, resolved, private)

    alg = bai_algorithm(name, label, private, plan, recommend, params, doc)
    return register(replace(alg, releases=bai_releases(plan, recommend)) if private else alg)


_algorithm("od_linbai", "OD-LinBAI", False, dict(_PARAMS), "Yang & Tan (2022) OD-LinBAI; non-private upper reference.")
_algorithm(
    "dp_od",
    "DP-OD",
    True,
    {
        **_PARAMS,
        "dpod_l1": Param(
            "phase",
            ("phase", "global"),
            readings=DPOD_L1_READINGS,
            doc="[RECON] L_r = max l1 norm over the active arms in working "
            "coordinates (phase) or over all arms in original coordinates (global)",
        ),
    },
    "Chen et al. (2024) Appendix E.1 DP-OD: OD-LinBAI with Laplace noise on u_r; epsilon-DP.",
)
