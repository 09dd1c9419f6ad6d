"""The ledger weighs readings by the text's support and counts the papers' claims one sentence at a time."""

import pandas as pd
import pytest

from dpbandits.claims.ledger import DEFAULT, paper_counts, sentence_rows, with_robustness
from dpbandits.claims.sentences import PART, PRIMARY, READING, SENTENCES, Sentence, sentence_of, sentence_verdict


def _rows(claim, verdicts, support=None, kind="empirical", paper="p", sentence=None, role=PART):
    """Rows of one ledger claim: {reading: verdict}; ``support``: {reading: (relative support, level)}."""
    support = support or {}
    out = []
    for reading, verdict in verdicts.items():
        rel, level = (0, "default") if reading == DEFAULT else support.get(reading, (0, "consistent"))
        out.append(
            {
                "paper": paper,
                "claim_id": claim,
                "sentence": sentence or claim,
                "role": role,
                "kind": kind,
                "reading": reading,
                "verdict": verdict,
                "statement": f"sentence of {sentence or claim}",
                "reading_runs": "",
                "support": rel,
                "support_level": level,
                "support_text": f"{reading}: {level}",
            }
        )
    return out


def _head(df, claim):
    row = with_robustness(pd.DataFrame(df)).set_index(["claim_id", "reading"]).loc[(claim, DEFAULT)]
    return row["headline"], row["headline_by"], row["robustness"], row["changed_by"]


def test_the_headline_is_the_best_supported_readings_verdict():
    # a reading better supported than the default (its value stated, the default's only consistent): its verdict
    rows = _rows("c", {DEFAULT: "fails", "a=1": "holds"}, {"a=1": (2, "stated")})
    assert _head(rows, "c")[:3] == ("holds", "a=1", "depends")
    # the same reading less supported than the default: the default's verdict heads
    rows = _rows("c", {DEFAULT: "fails", "a=1": "holds"}, {"a=1": (-1, "consistent")})
    assert _head(rows, "c")[:3] == ("fails", DEFAULT, "depends")
    # equally supported: the default first
    rows = _rows("c", {DEFAULT: "fails", "a=1": "holds"}, {"a=1": (0, "implied")})
    assert _head(rows, "c")[:2] == ("fails", DEFAULT)


def test_a_reading_the_text_contradicts_never_makes_a_verdict_depend():
    rows = _rows("c", {DEFAULT: "fails", "a=1": "holds", "b=2": "fails"}, {"a=1": (-2, "contradicted")})
    verdict, by, label, changed = _head(rows, "c")
    assert (verdict, by, label) == ("fails", DEFAULT, "robust")
    assert changed == "a=1 -> holds (the text contradicts it)"
    # the same flip from a consistent reading does
    rows = _rows("c", {DEFAULT: "fails", "a=1": "holds"}, {"a=1": (-1, "consistent")})
    assert _head(rows, "c")[2] == "depends" and "a=1: consistent" in _head(rows, "c")[3]


def test_a_sentence_with_a_primary_reading_takes_its_verdict_and_names_the_others():
    assert sentence_verdict({"f": "fails", "t": "holds"}, {"f": PRIMARY, "t": READING}) == "fails"
    assert sentence_verdict({"f": "holds", "t": "fails"}, {"f": PRIMARY, "t": READING}) == "holds"
    # parts: a conjunction
    assert sentence_verdict({"a": "holds", "b": "fails"}, {"a": PART, "b": PART}) == "fails"
    assert sentence_verdict({"a": "holds", "b": "holds"}, {"a": PART, "b": PART}) == "holds"
    assert sentence_verdict({"a": "holds", "b": "inconclusive"}, {"a": PART, "b": PART}) == "inconclusive"


def test_sub_checks_of_one_sentence_count_as_one_claim():
    rows = (
        _rows("S (final)", {DEFAULT: "fails", "a=1": "fails"}, sentence="S", role=PRIMARY)
        + _rows("S (T/10)", {DEFAULT: "fails", "a=1": "fails"}, sentence="S", role=READING)
        + _rows("S (better)", {DEFAULT: "holds", "a=1": "holds"}, sentence="S", role=READING)
        + _rows("P1", {DEFAULT: "holds", "a=1": "holds"}, sentence="P", role=PART)
        + _rows("P2", {DEFAULT: "holds", "a=1": "fails"}, sentence="P", role=PART)
        + _rows("alone", {DEFAULT: "inconclusive", "a=1": "inconclusive"})
        + _rows("shape", {DEFAULT: "fails", "a=1": "fails"}, kind="structural")
        + _rows("theory", {DEFAULT: "fails", "a=1": "fails"}, kind="theory")
        + _rows("anchor", {DEFAULT: "holds", "a=1": "holds"}, kind="check")
    )
    df = with_robustness(pd.DataFrame(rows))
    sent = sentence_rows(df)
    head = sent[sent["reading"] == DEFAULT].set_index("sentence")
    assert list(head.index) == ["S", "P", "alone"]
    assert head.loc["S", "headline"] == "fails" and head.loc["S", "robustness"] == "robust"
    assert "S (better) (reading): holds" in head.loc["S", "rows"]
    assert head.loc["P", "headline"] == "holds" and head.loc["P", "robustness"] == "depends"  # P2 fails under a=1
    counts = paper_counts(df).set_index("paper").loc["p"]
    assert counts["claims"] == 3 and counts["fails"] == 1 and counts["holds"] == 1 and counts["inconclusive"] == 1
    assert counts["depends"] == 1 and counts["robust"] == 2
    assert counts["structural"] == 1 and counts["theory check"] == 1 and counts["project check"] == 1


def test_the_sentence_table_names_each_row_once():
    for paper, sentences in SENTENCES.items():
        seen = [c for s in sentences.values() for c in s.roles()]
        assert len(seen) == len(set(seen)), paper
        for sid, s in sentences.items():
            for claim, role in s.roles().items():
                assert sentence_of(paper, claim) == (sid, role)
    assert sentence_of("sajed2019", "C-3 (anything)") == ("C-3 (anything)", PART)
    with pytest.raises(ValueError, match="either parts or a primary"):
        Sentence(parts=("a",), primary="b")
    with pytest.raises(ValueError, match="either parts or a primary"):
        Sentence()
