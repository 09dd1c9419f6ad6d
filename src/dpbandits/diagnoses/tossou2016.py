"""Diagnoses of the failing claims of tossou2016 (docs/findings.md).

``starving``: one Laplace release freezes DP-UCB-INT's best arm below the other's (C1). ``literal_bound``: Theorem
3.5 fails under Algorithm 3 read literally (theory). ``spreads``: what carries the best-worst spreads past 664.5 (C5).
``private_ucb_spread``: why Private-UCB's spread stays far from 30,000 (C6). ``round_robin``: Private-UCB is not the
worst while every algorithm still explores uniformly (C4). ``bound_catches``: how the readings move "DP-UCB-BOUND
eventually catches DP-UCB" (C3).
"""

from __future__ import annotations

from ._core import Diagnosis
from ._tossou_order import bound_catches, round_robin
from ._tossou_spreads import private_ucb_spread, spreads
from ._tossou_starving import literal_bound, starving

PAPER = "tossou2016"

DIAGNOSES: list[Diagnosis] = [
    Diagnosis(PAPER, "starving", ("C1",), "DP-UCB-INT starves its best arm after one bad release", starving),
    Diagnosis(PAPER, "literal_bound", ("theory",), "Theorem 3.5 fails under Algorithm 3 read literally", literal_bound),
    Diagnosis(PAPER, "spreads", ("C5",), "What carries the best-worst spreads past 664.5", spreads),
    Diagnosis(
        PAPER, "round_robin", ("C4",), "Private-UCB is not the worst while all still explore uniformly", round_robin
    ),
    Diagnosis(
        PAPER,
        "private_ucb_spread",
        ("C6",),
        "Private-UCB's spread stays far below 30,000",
        private_ucb_spread,
        readings=True,
    ),
    Diagnosis(
        PAPER,
        "bound_catches",
        ("C3",),
        "DP-UCB-BOUND catches DP-UCB only under some readings",
        bound_catches,
        readings=True,
    ),
]
