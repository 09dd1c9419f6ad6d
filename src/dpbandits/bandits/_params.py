"""Parameters that several algorithms share: the tie break, the hybrid counter's split of epsilon, and
DP-SE's confidence beta = None read as 1/T."""

from __future__ import annotations

from ..core.registry import Param

TIE_BREAK = Param("random", ("random", "first"), doc="[CHOICE] uniform random among maximisers, or lowest index")
#: Reading axis of the hybrid counter (docs/reconstructions.md, Tossou & Dimitrakakis).
HYBRID_SPLIT_READINGS = {
    "half": "Chan, Shi & Song's hybrid mechanism gives eps/2 to its logarithmic and eps/2 to its binary part, which "
    "makes 'the hybrid mechanism eps-differential private' (Section 2.3) true",
    "none": "Section 2.3 describes Laplace noise 'of scale eps^-1' at t = 2^k and 'of scale log t/eps' in the tree, "
    "with no split of eps",
}
HYBRID_SPLIT = Param(
    "half",
    ("half", "none"),
    readings=HYBRID_SPLIT_READINGS,
    doc="[CHOICE] eps/2 to each part of the hybrid counter (Chan, Shi & Song 2010) or eps to each "
    "as Section 2.3 describes it",
)


def hybrid_split(params: dict) -> float:
    """The factor of the hybrid counter's Laplace scales 1/epsilon: 2 for ``"half"`` (eps/2 each part), else 1."""
    return 2.0 if params["hybrid_split"] == "half" else 1.0


def resolve_beta(beta: float | None, horizon: int) -> float:
    """beta, with None meaning 1/T (the experiments of Sajed & Sheffet 2019, Section 5, and of the thesis)."""
    return 1.0 / horizon if beta is None else beta
