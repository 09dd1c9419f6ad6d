"""Parameters that several algorithms share, and their readings."""

from __future__ import annotations


def resolve_beta(beta: float | None, horizon: int) -> float:
    """beta, with None meaning 1/T (the experiments of Sajed & Sheffet 2019, Section 5, and of the thesis)."""
    return 1.0 / horizon if beta is None else beta
