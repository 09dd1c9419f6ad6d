"""The release ledger's format: one row per noisy release a run makes, written by the fast kernels.

Item-level privacy (the papers' model): two reward tables are neighbours when they differ in one entry, the j-th
reward of arm a's stream (j = 1, 2, ... in the order the arm is pulled). A *release* is one fresh noise draw added
to a linear statistic ``weight * (sum of rewards first..last of arm a)`` (rewards lie in [0, 1], so one entry moves
it by at most ``weight``). A statistic over several ranges (several arms, or unequal weights) is one head row and
further rows with ``PART = 1`` and the same draw. :mod:`dpbandits.privacy` composes, for every entry, the releases
that read it.

Columns of a row (float64[COLUMNS]):

    MECH    LAPLACE (noise Lap(SCALE)), GAUSS (N(0, SCALE^2)), SVT_THRESHOLD (the sparse vector's noisy threshold,
            Lap(SCALE); reads no reward: ARM = -1) or SVT_QUERY (one noisy query of that sparse vector, Lap(SCALE))
    ARM     the arm whose stream it reads (0-based), -1 for none
    FIRST   first entry read (1-based position in the arm's stream)
    LAST    last entry read (inclusive)
    WEIGHT  coefficient of each entry in the statistic (1 for a sum, 1/n for a mean of n)
    SCALE   the noise scale the kernel used (Laplace b, Gaussian sigma)
    DRAW    the draw's number in the run (the kernel's own count: its position in the standard draws on replay)
    NOISE   the noise value actually added (release - statistic)
    PART    0 for a release's head row, 1 for a further range of the same release
    GROUP   SVT rows: the DRAW of their sparse vector's threshold; -1 otherwise

A *book* is float64[capacity + 1, COLUMNS]; row 0 is its header: [rows written, overflowed (0/1), window lo,
window hi, draws counted by :func:`next_draw`]. :func:`note` keeps only rows that read an entry in the window
[lo, hi] (and rows that read none), so that a long run can be accounted window by window (the same run, replayed
with another window, makes the same draws).

A kernel records only when given a book: ``if book is not None: note(book, ...)``; numba compiles the call away
when ``book`` is left out (None), so simulations pay nothing.
"""

from __future__ import annotations

import numpy as np

from ..core.jit import helper

LAPLACE, GAUSS, SVT_THRESHOLD, SVT_QUERY = 1.0, 2.0, 3.0, 4.0
MECHANISMS = {LAPLACE: "laplace", GAUSS: "gauss", SVT_THRESHOLD: "svt threshold", SVT_QUERY: "svt query"}
COLUMNS = 10
MECH, ARM, FIRST, LAST, WEIGHT, SCALE, DRAW, NOISE, PART, GROUP = range(COLUMNS)
NAMES = ("mech", "arm", "first", "last", "weight", "scale", "draw", "noise", "part", "group")


def new_book(capacity: int, lo: int = 1, hi: int = 2**62) -> np.ndarray:
    """An empty book for ``capacity`` rows that keeps the rows reading an entry in positions [lo, hi]."""
    book = np.zeros((int(capacity) + 1, COLUMNS))
    book[0, 2], book[0, 3] = lo, hi
    return book


@helper
def note(book, mech, arm, first, last, weight, scale, draw, noise, part=0.0, group=-1.0):
    """Append one row to ``book`` (see the module) unless it reads no entry of the book's window; a full book
    sets its overflow flag and drops the row."""
    if arm >= 0 and (last < book[0, 2] or first > book[0, 3]):
        return
    i = int(book[0, 0]) + 1
    if i >= book.shape[0]:
        book[0, 1] = 1.0
        return
    row = book[i]
    row[0], row[1], row[2], row[3], row[4] = mech, arm, first, last, weight
    row[5], row[6], row[7], row[8], row[9] = scale, draw, noise, part, group
    book[0, 0] = i


@helper
def next_draw(book):
    """A fresh draw number (0, 1, 2, ... over the run), for kernels that draw their noise one call at a time."""
    d = book[0, 4]
    book[0, 4] = d + 1.0
    return d


def rows(book: np.ndarray) -> np.ndarray:
    """float64[N, COLUMNS]: the rows written to ``book``; ``OverflowError`` if it ran out of room."""
    if book[0, 1]:
        raise OverflowError(f"the release book's {book.shape[0] - 1} rows overflowed")
    return book[1 : int(book[0, 0]) + 1].copy()
