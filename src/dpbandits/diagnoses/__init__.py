"""Why claims fail: one diagnosis per failing (or reading-dependent) claim, each shown by a targeted experiment.

Each paper's module lists its :class:`Diagnosis` objects in ``DIAGNOSES``; :func:`diagnose` runs them on a
results folder and :mod:`.render` writes the paper's replication report (``results/report/<paper>.html``).
``docs/findings.md`` collects the conclusions with the commands that reproduce their evidence.
"""

from __future__ import annotations

from . import chen2024, crosspaper, hu2022, sajed2019, sajed2019thesis, tossou2016
from ._core import (
    CONCLUSIONS,
    PUBLISHED,
    RECONSTRUCTION,
    SUPPORT_LEVELS,
    TEXT_OPEN,
    UNEXPLAINED,
    Context,
    Diagnosis,
    Finding,
    Quote,
    decide,
)

PAPERS: dict[str, list[Diagnosis]] = {
    m.PAPER: m.DIAGNOSES for m in (tossou2016, sajed2019, sajed2019thesis, hu2022, chen2024, crosspaper)
}


def diagnoses(paper: str) -> list[Diagnosis]:
    """The diagnoses of ``paper`` (none for a paper without a module, e.g. a plugin's own)."""
    return PAPERS.get(paper, [])


def diagnose(ctx: Context) -> list[tuple[Diagnosis, Finding]]:
    """Every diagnosis of ``ctx.paper`` with its finding, in the module's order; under a smoke config's scale caps
    (``ctx.scale`` not empty) each finding is marked ``smoke`` (the report shows no conclusion)."""
    found = [(d, d.analyse(ctx)) for d in diagnoses(ctx.paper)]
    for _, f in found:
        f.smoke = bool(ctx.scale)
    return found


__all__ = [
    "CONCLUSIONS",
    "PUBLISHED",
    "RECONSTRUCTION",
    "SUPPORT_LEVELS",
    "TEXT_OPEN",
    "UNEXPLAINED",
    "Context",
    "Diagnosis",
    "Finding",
    "PAPERS",
    "Quote",
    "decide",
    "diagnose",
    "diagnoses",
]
