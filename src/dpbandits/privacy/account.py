"""Compose a run's releases per reward entry: the privacy each entry of the reward table spends.

Input: the rows of a release book (:mod:`dpbandits.mechanisms.ledger`) and the run's pulls per arm. Each entry
(arm a, position j) is read by the releases whose range holds it; their privacy losses compose:

- pure epsilon (basic composition, exact for pure DP): a Laplace release of scale b reading the entry with weight w
  costs w / b; a sparse vector (its threshold of scale b1 and queries of scale b2 that read the entry with weight at
  most w) costs w / b1 + 2 w / b2 (Lyu, Su & Li 2017, Theorem 2, one positive answer); a Gaussian release makes
  the pure epsilon infinite.
- (epsilon, delta): the same releases composed by a privacy-loss-distribution (PLD) accountant, Google's
  ``dp_accounting`` (a Laplace release is ``LaplaceDpEvent(b / w)``, a Gaussian ``GaussianDpEvent(sigma / w)``,
  a sparse vector a pure ``DifferentialPrivacyParameters(eps, 0)`` PLD). A change of one reward in [0, 1] shifts
  the statistic by at most w in either direction, which is the add-or-remove relation at sensitivity 1 of the
  normalised mechanism. Releases are grouped by noise multiplier, each rounded *down* to a grid of ratio 1.01
  (less noise: the reported epsilon is an upper bound), so that thousands of releases compose in seconds.

The worst entry gives the run's spent privacy. Under (epsilon, delta) the PLD is evaluated for the entries with the
largest pure sum and the largest sums of squared losses (for nested releases, as in every algorithm here, one
entry has all three).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from ..mechanisms.ledger import (
    ARM,
    DRAW,
    FIRST,
    GAUSS,
    GROUP,
    LAPLACE,
    LAST,
    MECH,
    MECHANISMS,
    NOISE,
    PART,
    SCALE,
    SVT_QUERY,
    SVT_THRESHOLD,
    WEIGHT,
)

GRID = 1.01  # noise multipliers are rounded down to powers of GRID before the PLD composes them


SHOWN = 5  # problems of one kind named one by one; the rest are counted


def _listed(out: list[str], found: list[str], kind: str) -> None:
    out.extend(found[:SHOWN])
    if len(found) > SHOWN:
        out.append(f"... and {len(found) - SHOWN} more {kind}")


def problems(rows: np.ndarray, pulls: np.ndarray, local: bool = False) -> list[str]:
    """What makes ``rows`` not a ledger of real releases, one sentence each (empty: none; at most :data:`SHOWN` of a
    kind are named, the others counted).

    A row must read entries the run holds (1 <= first <= last <= pulls[arm]) with weight > 0 and a finite scale
    > 0; a draw feeds one release (one head row; its further ranges repeat its scale and noise); two releases
    never share a standard noise value (noise / scale), which only a reused draw can make; an SVT query names a
    recorded threshold. Under a ``local`` promise, each release reads one reward and each reward is read once.
    """
    out: list[str] = []
    if local:
        data = rows[rows[:, MECH] != SVT_THRESHOLD]
        wide = np.flatnonzero(data[:, FIRST] != data[:, LAST])
        _listed(
            out,
            [f"row {i}: a local release reads rewards {data[i, FIRST]:.0f}..{data[i, LAST]:.0f}" for i in wide],
            "wide local releases",
        )
        keys = data[:, ARM] * (data[:, LAST].max(initial=0) + 1) + data[:, FIRST]
        _, counts = _distinct(keys, counts=True)
        if (counts > 1).any():
            out.append(f"{int((counts > 1).sum())} rewards are read by more than one local release")
    pulls = np.asarray(pulls, dtype=np.int64)

    def what(i):
        r = rows[i]
        return f"row {i} ({MECHANISMS.get(r[MECH], r[MECH])}, draw {int(r[DRAW])})"

    bad = np.flatnonzero(~np.isin(rows[:, MECH], list(MECHANISMS)))
    _listed(out, [f"{what(i)}: unknown mechanism code {rows[i, MECH]}" for i in bad], "unknown mechanisms")
    bad = np.flatnonzero(~(np.isfinite(rows[:, SCALE]) & (rows[:, SCALE] > 0)))
    _listed(out, [f"{what(i)}: scale {rows[i, SCALE]} is not a finite number > 0" for i in bad], "bad scales")
    data = rows[:, MECH] != SVT_THRESHOLD
    arm = rows[:, ARM].astype(np.int64)
    known = (arm >= 0) & (arm < len(pulls))
    held = np.where(known, pulls[np.clip(arm, 0, max(len(pulls) - 1, 0))], -1)
    inside = known & (rows[:, FIRST] >= 1) & (rows[:, FIRST] <= rows[:, LAST]) & (rows[:, LAST] <= held)
    bad = np.flatnonzero(data & ~inside)
    _listed(
        out,
        [
            f"{what(i)}: reads arm {arm[i]} entries {rows[i, FIRST]:.0f}..{rows[i, LAST]:.0f}, but the arm holds "
            + (str(held[i]) if known[i] else "no such arm")
            for i in bad
        ],
        "rows outside the run's entries",
    )
    bad = np.flatnonzero(data & ~(rows[:, WEIGHT] > 0))
    _listed(out, [f"{what(i)}: weight {rows[i, WEIGHT]} is not > 0" for i in bad], "bad weights")
    head = rows[:, PART] == 0
    draws, counts = _distinct(rows[head, DRAW], counts=True)
    found = [
        f"draw {int(d)} feeds {int(c)} releases (a draw reused)"
        for d, c in zip(draws[counts > 1], counts[counts > 1], strict=True)
    ]
    _listed(out, found, "reused draws")
    parts = np.flatnonzero(~head)
    if parts.size and draws.size:
        heads = np.flatnonzero(head)
        order = heads[np.argsort(rows[heads, DRAW], kind="stable")]
        mine = order[np.clip(np.searchsorted(rows[order, DRAW], rows[parts, DRAW]), 0, order.size - 1)]
        same = rows[mine, DRAW] == rows[parts, DRAW]
        differ = (rows[mine, SCALE] != rows[parts, SCALE]) | (rows[mine, NOISE] != rows[parts, NOISE])
        found = [
            f"draw {int(d)}: a further range has another scale or noise than its release"
            for d in rows[parts[same & differ], DRAW]
        ]
        _listed(out, found, "mismatched ranges")
    scaled = head & (rows[:, SCALE] > 0)
    std = rows[scaled, NOISE] / rows[scaled, SCALE]
    values, counts = _distinct(std[std != 0], counts=True)
    found = [
        f"{int(c)} releases share the standard noise value {float(v)!r} (a draw reused)"
        for v, c in zip(values[counts > 1], counts[counts > 1], strict=True)
    ]
    _listed(out, found, "shared noise values")
    thresholds = set(rows[rows[:, MECH] == SVT_THRESHOLD, DRAW].astype(int).tolist())
    for g in sorted(set(rows[rows[:, MECH] == SVT_QUERY, GROUP].astype(int).tolist()) - thresholds):
        out.append(f"SVT queries name threshold draw {g}, which is not recorded")
    return out


@dataclass
class Window:
    """Per-entry sums of one window of entries, on segments: entries ``starts[a][i] .. starts[a][i + 1] - 1`` of arm
    a are read by the same releases, so they share ``pure[a][i]`` (epsilon by basic composition), ``laplace_sq[a][i]``
    and ``gauss_sq[a][i]`` (sums of squared losses). Memory grows with the rows, not with the entries."""

    starts: list[np.ndarray]
    pure: list[np.ndarray]
    laplace_sq: list[np.ndarray]
    gauss_sq: list[np.ndarray]

    def dense(self, name: str, lo: int, hi: int) -> np.ndarray:
        """float64[K, hi - lo + 1]: sum ``name`` at every entry lo..hi (0 past an arm's pulls)."""
        out = np.zeros((len(self.starts), hi - lo + 1))
        for a, (starts, values) in enumerate(zip(self.starts, getattr(self, name), strict=True)):
            for i, v in enumerate(values):
                out[a, starts[i] - lo : starts[i + 1] - lo] = v
        return out


def window_sums(rows: np.ndarray, pulls: np.ndarray, lo: int, hi: int) -> Window:
    """:class:`Window` of ``rows`` over entries lo..hi (entries past an arm's pulls belong to no segment)."""
    out = Window([], [], [], [])
    data = rows[(rows[:, MECH] == LAPLACE) | (rows[:, MECH] == GAUSS) | (rows[:, MECH] == SVT_QUERY)]
    for a in range(len(pulls)):
        end = min(hi, int(pulls[a])) + 1  # one past the window's last held entry
        mine = data[data[:, ARM] == a]
        first = np.clip(mine[:, FIRST], lo, end).astype(np.int64)
        after = np.clip(mine[:, LAST] + 1, lo, end).astype(np.int64)
        starts = _distinct(np.concatenate(([lo, end], first, after))) if end > lo else np.array([lo, lo])
        i, j = np.searchsorted(starts, first), np.searchsorted(starts, after)  # rows cover segments i..j-1
        sums = []
        for kind, power in ((LAPLACE, 1), (LAPLACE, 2), (GAUSS, 2)):
            sel = mine[:, MECH] == kind
            loss = (mine[sel, WEIGHT] / mine[sel, SCALE]) ** power
            diff = np.bincount(i[sel], loss, starts.size) - np.bincount(j[sel], loss, starts.size)
            sums.append(np.cumsum(diff)[:-1])
        sums[0] = sums[0] + svt_losses(rows, mine, starts, i, j)
        gauss = np.cumsum(np.bincount(i[mine[:, MECH] == GAUSS], minlength=starts.size))[:-1]
        gauss -= np.cumsum(np.bincount(j[mine[:, MECH] == GAUSS], minlength=starts.size))[:-1]
        sums[0][gauss > 0] = math.inf  # a Gaussian release: no pure epsilon
        out.starts.append(starts)
        for name, values in zip(("pure", "laplace_sq", "gauss_sq"), sums, strict=True):
            getattr(out, name).append(values)
    return out


def _distinct(values: np.ndarray, counts: bool = False):
    """Sorted distinct ``values`` (and how often each occurs, if ``counts``): a sort and a comparison, as numpy's
    hashed ``unique`` is several times slower on millions of values."""
    values = np.sort(values)
    first = np.flatnonzero(np.concatenate(([values.size > 0], values[1:] != values[:-1])))
    if not counts:
        return values[first]
    return values[first], np.diff(np.append(first, values.size))


def svt_losses(rows: np.ndarray, mine: np.ndarray, starts: np.ndarray, i: np.ndarray, j: np.ndarray) -> np.ndarray:
    """float64[segments]: the pure loss of each segment of one arm from the sparse vectors whose queries read it
    (``mine``: the arm's rows, covering segments i..j-1)."""
    out = np.zeros(starts.size - 1)
    for t in rows[rows[:, MECH] == SVT_THRESHOLD]:
        weight, query = np.zeros_like(out), np.zeros_like(out)
        for q in np.flatnonzero((mine[:, MECH] == SVT_QUERY) & (mine[:, GROUP] == t[DRAW])):
            r = mine[q]
            weight[i[q] : j[q]] = np.maximum(weight[i[q] : j[q]], r[WEIGHT])
            query[i[q] : j[q]] = np.maximum(query[i[q] : j[q]], r[WEIGHT] / r[SCALE])
        out += weight / t[SCALE] + 2.0 * query
    return out


def candidates(window: Window) -> list[tuple[int, int]]:
    """(arm, position) of the entries with the largest pure sum and the largest squared sums in ``window``."""
    out = []
    for name in ("pure", "laplace_sq", "gauss_sq"):
        best = None
        for a, values in enumerate(getattr(window, name)):
            if values.size and (best is None or values.max() > best[0]):
                best = (values.max(), a, window.starts[a][int(np.argmax(values))])
        if best is not None and best[0] > 0:
            out.append((best[1], int(best[2])))
    return list(dict.fromkeys(out))


def events(rows: np.ndarray, arm: int, position: int) -> tuple[list[tuple[str, float]], list[float]]:
    """(noise-multiplier events [("laplace" | "gauss", multiplier)], pure epsilons of the sparse vectors) of the
    releases that read entry ``position`` of ``arm``."""
    reads = (rows[:, ARM] == arm) & (rows[:, FIRST] <= position) & (rows[:, LAST] >= position)
    out = [
        ("laplace" if r[MECH] == LAPLACE else "gauss", r[SCALE] / r[WEIGHT])
        for r in rows[reads & ((rows[:, MECH] == LAPLACE) | (rows[:, MECH] == GAUSS))]
    ]
    mine = rows[reads & (rows[:, MECH] == SVT_QUERY)]
    ones = np.zeros(len(mine), dtype=np.int64)
    svt = svt_losses(rows, mine, np.array([position, position + 1]), ones, ones + 1)[0]
    return out, [float(svt)] if svt > 0 else []


def pld_epsilon(multipliers: list[tuple[str, float]], pure: list[float], delta: float) -> float:
    """epsilon at ``delta`` of the composition of Laplace / Gaussian releases (noise multipliers) and pure-epsilon
    mechanisms, by ``dp_accounting``'s PLD accountant.

    Gaussian releases compose exactly into one Gaussian mechanism of multiplier (sum_i m_i^-2)^(-1/2) (Dong, Roth &
    Su 2022, Corollary 3.3: mu-GDP composes as the root of the sum of squares); Laplace multipliers are rounded
    down to powers of :data:`GRID` and grouped (an upper bound, at most about 1 % high)."""
    from dp_accounting.pld import privacy_loss_distribution as pld_lib

    grouped: dict[tuple[str, float], int] = {}
    precision = sum(m**-2 for kind, m in multipliers if kind != "laplace")
    if precision > 0:
        grouped[("gauss", precision**-0.5)] = 1
    for kind, m in multipliers:
        if kind == "laplace":
            grid = GRID ** math.floor(math.log(m, GRID))
            grouped[(kind, grid)] = grouped.get((kind, grid), 0) + 1
    pld = None
    for (kind, m), count in sorted(grouped.items()):
        one = (pld_lib.from_laplace_mechanism if kind == "laplace" else pld_lib.from_gaussian_mechanism)(m)
        one = one.self_compose(count) if count > 1 else one
        pld = one if pld is None else pld.compose(one)
    for eps in pure:
        one = pld_lib.from_privacy_parameters(_dp_params(eps))
        pld = one if pld is None else pld.compose(one)
    return 0.0 if pld is None else float(pld.get_epsilon_for_delta(delta))


def _dp_params(eps: float):
    from dp_accounting.pld import common

    return common.DifferentialPrivacyParameters(eps, 0.0)
