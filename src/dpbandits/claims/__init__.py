"""The papers' empirical claims, each a function of the simulated data returning verdicts.

``PAPERS[paper](results_dir) -> list[Claim]``; :mod:`dpbandits.claims.ledger` gathers them, under every
reading, into the claims ledger.
"""

from __future__ import annotations

from ._core import FAILS, HOLDS, INCONCLUSIVE, Claim
from .chen2024 import chen2024
from .hu2022 import hu2022
from .sajed2019 import sajed2019
from .sajed2019thesis import sajed2019thesis
from .tossou2016 import tossou2016

PAPERS = {
    "tossou2016": tossou2016,
    "sajed2019": sajed2019,
    "sajed2019thesis": sajed2019thesis,
    "hu2022": hu2022,
    "chen2024": chen2024,
}

__all__ = [
    "FAILS",
    "HOLDS",
    "INCONCLUSIVE",
    "PAPERS",
    "Claim",
    "chen2024",
    "hu2022",
    "sajed2019",
    "sajed2019thesis",
    "tossou2016",
]
