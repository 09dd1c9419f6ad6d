"""Diagnoses of the failing claims of sajed2019thesis (docs/findings.md): C-1 at T/10 and its Γ readings as
in the paper (:mod:`._sajed`), the Appendix A.2 remarks on C1's split (:mod:`._thesis`) and on the halting
times (:mod:`._halting`)."""

from __future__ import annotations

from functools import partial

from ..claims.sajed2019thesis import APPENDIX_FIGS, CH6_FIGS
from ._core import Diagnosis, Quote
from ._gamma import gamma_dose
from ._halting import halting_c1, halting_c2
from ._sajed import early
from ._thesis import c1_split

PAPER = "sajed2019thesis"
A2 = "Sajed 2019, MSc thesis, Appendix A.2, Results and discussion"
CH6 = Quote(
    "we could not find even a single setting where DP-UCB is even comparable to our DP-SE — in all settings we "
    "tested, DP-SE outperform DP-UCB by at least 5 times",
    "Sajed 2019, MSc thesis, Chapter 6, Results and discussion",
)
CH6_SHAPE = Quote(
    "while the DP-UCB curve is smooth (attesting to the fact it pulls suboptimal arms even for fairly large values "
    "of T), the DP-SE is piece-wise linear (exhibiting the fact that at some point it eliminates all suboptimal "
    "arms)",
    "Sajed 2019, MSc thesis, Chapter 6, Results and discussion",
)
SPLIT = Quote(
    "the conditions for which DP-UCB is better than DP-SE 2 are when ε is fairly large, the number of arms is "
    "moderate, and all arms have identical and fairly small gaps",
    A2,
)
NOT_LONG = Quote(
    "This implies that in setting C2, the number of arm pulls required to create a noticeable gap between arms is "
    "mostly due to the privacy-dependent gap of O(log(T)/ε) rather than the Hoeffding bound",
    f"{A2} (formula as printed there: O of log(T) over ε)",
)
FASTER = Quote(
    "the modified DP-SE 2 algorithm, which sets the dependency on the Hoeffding bound to be 5-times smaller than "
    "in the standard DP-SE 2 algorithm, also happens to eliminate all suboptimal arms in (roughly) 1/5 of the "
    "time it takes the standard DP-SE 2 algorithm to eliminate all arms",
    A2,
)
# every claim that compares with DP-UCB and holds or fails by a margin Γ can move (the report says which the
# ledger's Γ readings flip)
GAMMA_CLAIMS = (
    "C-1 (final)",
    "C-1 (area)",
    "C-1 (better)",
    "C-3 (modified vs DP-UCB)",
    "C-3 (C2, C3: DP-SE 2 vs DP-UCB)",
    "C-3 (C4, large ε)",
)

DIAGNOSES: list[Diagnosis] = [
    Diagnosis(
        PAPER,
        "c1-early",
        ("C-1 (T/10)",),
        "At T/10 DP-SE is not yet 5 times better than DP-UCB",
        partial(early, figures=CH6_FIGS, name="sajed2019thesis-c1-early", quotes=(CH6, CH6_SHAPE)),
        readings=True,
    ),
    Diagnosis(
        PAPER,
        "c1-gamma",
        GAMMA_CLAIMS,
        "Comparisons with DP-UCB depend on how its bonus Γ is read",
        partial(
            gamma_dose,
            figures=CH6_FIGS + APPENDIX_FIGS,
            claims=GAMMA_CLAIMS,
            name="sajed2019thesis-c1-gamma",
        ),
        readings=True,
    ),
    Diagnosis(
        PAPER,
        "c1-split",
        ("C-3 (C1 split)",),
        "In C1, DP-UCB overtakes DP-SE 2 at another ε than the thesis says",
        partial(c1_split, claim="C-3 (C1 split)", quotes=(SPLIT,)),
    ),
    Diagnosis(
        PAPER,
        "c1-halting",
        ("C-3 (C1, modified faster)",),
        "Modified DP-SE 2 is not 'roughly 5 times' faster in C1",
        partial(halting_c1, claim="C-3 (C1, modified faster)", quotes=(FASTER,)),
    ),
    Diagnosis(
        PAPER,
        "c2-halting",
        ("C-3 (C2, not long after)",),
        "Standard DP-SE 2 halts long after the modified one in C2",
        partial(halting_c2, claim="C-3 (C2, not long after)", quotes=(NOT_LONG,)),
    ),
]
