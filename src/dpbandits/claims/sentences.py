"""One sentence of a paper, one claim: the ledger's rows grouped by the sentence they test.

Several ledger rows can test one sentence. Some are *parts* of it: the sentence asserts each (Sajed & Sheffet's
C-2, "the DP-UCB curve is smooth ... the DP-SE is piece-wise linear", is two assertions); a sentence holds when every
part holds and fails when one part fails. Others are *readings* of a phrase the text leaves open (C-1's "at least 5
times": at the horizon, at T/10, over the area under the curve, or merely "better"): the sentence takes the verdict
of its primary reading, the one the paper's figures show (the final regret at T), and the others are nested under it
as alternatives; a reading that reaches the opposite verdict is named.

A row that no :data:`SENTENCES` entry names is a sentence of its own. Only paper claims (kind ``empirical``) are
sentences; structural, project-check and theory rows are counted apart (:data:`dpbandits.claims._core.KINDS`).
:func:`dpbandits.claims.ledger.sentence_rows` gives each sentence its verdict under every reading.
"""

from __future__ import annotations

from dataclasses import dataclass

from ._core import INCONCLUSIVE, combine

PRIMARY, PART, READING = "primary", "part", "reading"


@dataclass(frozen=True)
class Sentence:
    """The ledger rows (claim ids) that test one sentence: its ``parts`` (all must hold), or one ``primary``
    reading of the sentence with alternative ``readings`` nested under it."""

    parts: tuple[str, ...] = ()
    primary: str = ""
    readings: tuple[str, ...] = ()

    def __post_init__(self):
        if bool(self.parts) == bool(self.primary):
            raise ValueError("Sentence: give either parts or a primary reading (with its alternatives)")

    def roles(self) -> dict[str, str]:
        """{claim id: its role} (:data:`PART`, :data:`PRIMARY` or :data:`READING`)."""
        if self.parts:
            return dict.fromkeys(self.parts, PART)
        return {self.primary: PRIMARY} | dict.fromkeys(self.readings, READING)


_C1 = Sentence(primary="C-1 (final)", readings=("C-1 (T/10)", "C-1 (area)", "C-1 (better)"))
_C2 = Sentence(parts=("C-2 (DP-SE piecewise linear)", "C-2 (DP-UCB smooth)"))
# {paper: {sentence id: Sentence}}: only the sentences tested by several rows
SENTENCES: dict[str, dict[str, Sentence]] = {
    "sajed2019": {"C-1": _C1, "C-2": _C2},
    "sajed2019thesis": {"C-1": _C1, "C-2": _C2},
    "hu2022": {"2": Sentence(primary="2 (final)", readings=("2 (all t)",))},
}


def sentence_of(paper: str, claim_id: str) -> tuple[str, str]:
    """(sentence id, role) of a ledger row: the row's own id and :data:`PART` when no sentence names it."""
    for sid, sentence in SENTENCES.get(paper, {}).items():
        role = sentence.roles().get(claim_id)
        if role:
            return sid, role
    return claim_id, PART


def sentence_verdict(verdicts: dict[str, str], roles: dict[str, str]) -> str:
    """A sentence's verdict from its rows' verdicts ({claim id: verdict}) and roles ({claim id: role}): the
    primary reading's verdict, or :func:`combine` of the parts (fails if one fails, holds if all hold)."""
    primary = [c for c, r in roles.items() if r == PRIMARY]
    if primary:
        return verdicts.get(primary[0], INCONCLUSIVE)
    return combine(verdicts[c] for c, r in roles.items() if r == PART and c in verdicts)


__all__ = ["PART", "PRIMARY", "READING", "SENTENCES", "Sentence", "sentence_of", "sentence_verdict"]
