"""What the papers' text says of each reading: the support of every value of every reading axis.

A reading axis (``Param.readings`` of an algorithm, ``dpbandits.bai.linear_instances.INSTANCE_AXES`` of an
instance) lists the plausible values of something the text does not fix. Each value's :class:`Support` says how
the text backs it, weakest first (:data:`SUPPORT_LEVELS`): *contradicted* (the text says otherwise: quote),
*consistent* (the text allows it), *implied* (other parts of the text force it: which), *stated* (the text says
so: quote). The claims ledger heads each claim with the verdict under the best-supported readings
(:mod:`dpbandits.claims.ledger`), the diagnoses weigh readings by it and docs/reconstructions.md shows it.

The table is package data, ``support.yaml`` beside this module, and not in the algorithms' modules: it is
evidence about the papers, so amending it re-evaluates the ledger and the reports but reruns no simulation.
``tests/test_support.py`` checks that it covers every value of every built-in axis, and nothing else; an axis of a
plugin without an entry reads as *consistent*.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from importlib import resources

import yaml

from ..core.validation import brief

SUPPORT_LEVELS = ("contradicted", "consistent", "implied", "stated")  # weakest first
_PARTS = re.compile(r"Section|Algorithm|Theorem|Lemma|Corollary|Fact|Appendix|eq\.|line|Table")  # parts of a text


@dataclass(frozen=True)
class Support:
    """What the text says of a reading: ``level`` (in :data:`SUPPORT_LEVELS`) and why. ``stated`` (the text says so)
    and ``contradicted`` (it says otherwise) need ``quote`` and ``where`` (document, section, line of its text);
    ``implied`` (other parts force it) a reason naming them; ``consistent``: the text allows it."""

    level: str
    reason: str
    quote: str = ""
    where: str = ""

    def __post_init__(self):
        if self.level not in SUPPORT_LEVELS:
            raise ValueError(f"Support level {brief(self.level)} is not one of {list(SUPPORT_LEVELS)}")
        if self.level in ("stated", "contradicted") and not (self.quote.strip() and self.where.strip()):
            raise ValueError(f"Support level {self.level!r} needs the quote and where it is (quote, where)")
        if self.level == "implied" and not _PARTS.search(self.reason):
            raise ValueError("Support level 'implied' needs a reason naming the parts of the text that force it")

    @property
    def rank(self) -> int:
        """Index of ``level`` in :data:`SUPPORT_LEVELS` (0 contradicted .. 3 stated)."""
        return SUPPORT_LEVELS.index(self.level)

    def __str__(self) -> str:
        return f"{self.level}: {self.reason}"


def _tables(data: dict) -> dict[str, dict]:
    """{axis label: {value: Support}} of one YAML mapping."""
    return {axis: {v: Support(**s) for v, s in values.items()} for axis, values in data.items()}


def _load() -> tuple[dict, dict, dict]:
    """(PARAMS, INSTANCES, PAPERS) from the package's ``support.yaml``."""
    data = yaml.safe_load(resources.files(__package__).joinpath("support.yaml").read_text(encoding="utf-8"))
    papers = {paper: _tables(axes) for paper, axes in data.get("papers", {}).items()}
    return _tables(data["params"]), _tables(data["instances"]), papers


# {axis label: {value: Support}}: parameters by name, instance keys as "<instance>.<key>"; PAPERS: {paper: such a
# table} for the axes one paper's text speaks of differently (DP-UCB's Γ: the ICML paper fixes log base e and does
# not print Γ; the thesis prints Γ and fixes no base), replacing the shared entry for that paper's claims
PARAMS, INSTANCES, PAPERS = _load()


def _find(table: dict, value) -> Support | None:
    for known, s in table.items():
        if known == value and isinstance(known, bool) == isinstance(value, bool):
            return s
    return None


def support(label: str, value, paper: str | None = None) -> Support:
    """The :class:`Support` of ``value`` on the axis ``label`` (a parameter name, or ``"<instance>.<key>"``) in the
    text of ``paper`` (its own entry where :data:`PAPERS` has one, else the shared one); *consistent* for an axis
    or value the table does not list (a plugin's)."""
    own = _find(PAPERS.get(paper, {}).get(label, {}), value)
    if own is not None:
        return own
    found = _find(PARAMS.get(label) or INSTANCES.get(label) or {}, value)
    return found or Support("consistent", "not in the project's support table (a plugin's axis)")


__all__ = ["INSTANCES", "PAPERS", "PARAMS", "SUPPORT_LEVELS", "Support", "support"]
