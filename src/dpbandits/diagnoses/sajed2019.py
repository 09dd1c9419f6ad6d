"""Diagnoses of the failing claims of sajed2019 (docs/findings.md): C-1 at T/10, and the C-1 readings that
depend on DP-UCB's bonus Γ (analyses in :mod:`._sajed`)."""

from __future__ import annotations

from functools import partial

from ..claims.sajed2019 import SAJED_FIGS
from ._core import Diagnosis
from ._gamma import gamma_dose
from ._sajed import early

PAPER = "sajed2019"
GAMMA_CLAIMS = ("C-1 (final)", "C-1 (area)", "C-1 (better)")

DIAGNOSES: list[Diagnosis] = [
    Diagnosis(
        PAPER,
        "c1-early",
        ("C-1 (T/10)",),
        "At T/10 DP-SE is not yet 5 times better than DP-UCB",
        partial(early, figures=SAJED_FIGS, name="sajed2019-c1-early"),
        readings=True,
    ),
    Diagnosis(
        PAPER,
        "c1-gamma",
        GAMMA_CLAIMS,
        "'At least 5 times' depends on how DP-UCB's bonus Γ is read",
        partial(gamma_dose, figures=SAJED_FIGS, claims=GAMMA_CLAIMS, name="sajed2019-c1-gamma"),
        readings=True,
    ),
]
