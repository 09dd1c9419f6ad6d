"""The papers' empirical claims, each a function of the simulated data returning verdicts.

``PAPERS[paper](results_dir) -> list[Claim]``; :func:`ledger` gathers them into one table.
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from ._core import FAILS, HOLDS, INCONCLUSIVE, Claim
from .chen2024 import chen2024
from .hu2022 import hu2022
from .sajed2019 import sajed2019
from .sajed2019thesis import sajed2019thesis
from .tossou2016 import tossou2016

PAPERS = {"tossou2016": tossou2016, "sajed2019": sajed2019, "sajed2019thesis": sajed2019thesis,
          "hu2022": hu2022, "chen2024": chen2024}

__all__ = ["FAILS", "HOLDS", "INCONCLUSIVE", "PAPERS", "Claim", "chen2024", "hu2022", "ledger", "sajed2019",
           "sajed2019thesis", "tossou2016"]


def ledger(results: str | Path, papers=None) -> pd.DataFrame:
    """All claims of ``papers`` (default: all) as one table."""
    rows = []
    for name in papers or PAPERS:
        rows.extend(c.row() for c in PAPERS[name](results))
    return pd.DataFrame(rows)
