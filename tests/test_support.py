"""Each reading's support in the papers' text: ``Support``, the table's coverage, a reading's relative support."""

from pathlib import Path

import pytest

import dpbandits  # noqa: F401  (registers every algorithm)
from dpbandits.core import registry
from dpbandits.core.registry import Param
from dpbandits.pipeline import readings, support
from dpbandits.pipeline.readings import Reading, instance_axes, relative_support, support_level, support_text
from dpbandits.pipeline.support import SUPPORT_LEVELS, Support

ROOT = Path(__file__).resolve().parents[1]


def test_support_levels_rank_in_ascending_strength():
    assert SUPPORT_LEVELS == ("contradicted", "consistent", "implied", "stated")
    ranks = [
        Support("contradicted", "r", "q", "Section 1, line 1").rank,
        Support("consistent", "r").rank,
        Support("implied", "forced by Section 2, line 3").rank,
        Support("stated", "r", "q", "Algorithm 1, line 4").rank,
    ]
    assert ranks == [0, 1, 2, 3]


@pytest.mark.parametrize(
    ("args", "match"),
    [
        (("likely", "r"), "'likely' is not one of"),
        (("stated", "r"), "'stated' needs the quote"),
        (("stated", "r", "the quote"), "'stated' needs the quote"),
        (("contradicted", "r", "", "Section 2, line 212"), "'contradicted' needs the quote"),
        (("implied", "the other parts say so"), "'implied' needs a reason naming the parts"),
    ],
)
def test_support_rejects_each_bad_input(args, match):
    with pytest.raises(ValueError, match=match):
        Support(*args)


def _builtin_axes() -> dict[str, Param]:
    """{axis label: Param} of every built-in reading axis (parameters by name, instance keys as inst.key)."""
    out = {name: next(iter(by_alg.values())) for name, by_alg in registry.reading_axes().items()}
    for inst, keys in instance_axes().items():
        out |= {f"{inst}.{key}": spec for key, spec in keys.items()}
    return out


def test_the_table_covers_every_value_of_every_axis_and_nothing_else():
    axes = _builtin_axes()
    table = support.PARAMS | support.INSTANCES
    assert set(table) == set(axes)
    for label, spec in axes.items():
        assert list(table[label]) == list(spec.readings), label  # the same values, the default first
        for value in spec.readings:
            assert support.support(label, value) is table[label][value]
    assert {s.level for values in table.values() for s in values.values()} == set(SUPPORT_LEVELS)
    # no default is one the text contradicts: the ledger's default reading is always a supported one
    assert all(support.support(label, spec.default).level != "contradicted" for label, spec in axes.items())


def test_a_papers_own_entries_replace_the_shared_ones_for_that_paper_only():
    axes = _builtin_axes()
    for paper, table in support.PAPERS.items():
        for label, values in table.items():
            assert set(values) <= set(axes[label].readings), (paper, label)  # only values of a real axis
    assert support.support("gamma_log", "2").level == "contradicted"  # the ICML paper's base-e sentence
    assert support.support("gamma_log", "2", "sajed2019").level == "contradicted"
    assert support.support("gamma_log", "2", "sajed2019thesis").level == "consistent"  # the thesis fixes no base
    assert support.support("gamma_log", "levels", "sajed2019thesis").level == "implied"  # the shared entry
    reading = Reading("gamma_denominator=2", {"gamma_denominator": "2"})
    assert relative_support(reading, "sajed2019thesis") == 3 - 2  # stated over implied in the thesis
    assert relative_support(reading, "sajed2019") == 1 - 2  # not printed in the ICML paper


def test_a_boolean_value_is_not_its_integer_and_an_unknown_axis_reads_as_consistent():
    assert support.support("bound_sqrt", False).level == "stated"
    assert support.support("bound_sqrt", 0).level == "consistent"  # 0 == False, but not a boolean reading
    assert support.support("a_plugins_axis", "x").level == "consistent"


def _two_axes(monkeypatch):
    """A synthetic algorithm axis 'x' (default 'hi' stated, 'lo' contradicted, 'mid' implied) and instance axis
    'toy.k' (default 1 consistent, 2 stated)."""
    x = Param("hi", ("hi", "lo", "mid"), readings={"hi": "printed", "lo": "against it", "mid": "forced"})
    k = Param(1, low=0, readings={1: "a guess", 2: "said"})
    monkeypatch.setattr(registry, "reading_axes", lambda kind=None: {"x": {"toy_alg": x}})
    monkeypatch.setattr(readings, "instance_axes", lambda: {"toy": {"k": k}})
    table = {
        "x": {
            "hi": Support("stated", "printed", "x = hi", "Algorithm 1, line 5"),
            "lo": Support("contradicted", "against line 5", "x = hi", "Algorithm 1, line 5"),
            "mid": Support("implied", "Theorem 2 forces it"),
        }
    }
    monkeypatch.setattr(support, "PARAMS", table)
    monkeypatch.setattr(
        support,
        "INSTANCES",
        {"toy.k": {1: Support("consistent", "a guess"), 2: Support("stated", "s", "k = 2", "l 9")}},
    )


def test_relative_support_on_a_synthetic_two_axis_reading(monkeypatch):
    _two_axes(monkeypatch)
    both = Reading("x=lo + toy.k=2", {"x": "lo"}, {"toy": {"k": 2}})
    assert relative_support(both) == (0 - 3) + (3 - 1)  # contradicted vs stated, stated vs consistent
    assert relative_support(Reading("x=mid", {"x": "mid"})) == 2 - 3
    assert relative_support(Reading("toy.k=2", {}, {"toy": {"k": 2}})) == 3 - 1
    assert relative_support(Reading("x=hi", {"x": "hi"})) == 0
    assert support_text(both) == "x=lo: contradicted (default hi: stated); toy.k=2: stated (default 1: consistent)"
    assert support_level(both) == "contradicted" and support_level(Reading("x=mid", {"x": "mid"})) == "implied"
    assert {k: s.level for k, s in readings.value_support(both).items()} == {"x": "contradicted", "toy.k": "stated"}
    with pytest.raises(ValueError, match="parameter 'y' is not a reading axis"):
        relative_support(Reading("y=1", {"y": 1}))
    with pytest.raises(ValueError, match="instance key toy.j is not a reading axis"):
        support_text(Reading("toy.j=1", {}, {"toy": {"j": 1}}))


def test_a_real_reading_reports_the_text_and_its_manifest_carries_it():
    reading = Reading("gamma_log=2", {"gamma_log": "2"}, papers=("sajed2019",))
    assert support_text(reading) == "gamma_log=2: contradicted (default e: stated)"
    assert relative_support(reading) == 0 - 3
    manifest = readings.manifest(reading, {}, {})
    text = support_text(reading, "sajed2019")
    assert manifest["support"] == {"sajed2019": {"level": "contradicted", "relative": -3, "text": text}}


def test_config_readme_tables_show_the_levels():
    text = (ROOT / "config/README.md").read_text()
    assert (
        "| `dp_ucb` | `gamma_log` | `e` | `e` (stated), `2` (contradicted), `levels` (implied), `2all` (contradicted) |"
        in text
    )
    for name, by_alg in registry.reading_axes().items():
        for alg, spec in by_alg.items():
            cells = ", ".join(f"`{v}` ({support.support(name, v).level})" for v in spec.readings)
            assert f"| `{alg}` | `{name}` |" in text and cells in text, alg


def test_the_reconstructions_page_shows_every_values_support():
    """docs/reconstructions.md has a support table per axis whose rows give each value's level as the table does."""
    import re

    text = (ROOT / "docs/reconstructions.md").read_text()
    tables = {f"`{label}`": table for label, table in (support.PARAMS | support.INSTANCES).items()}
    tables |= {f"`{label}` in `{p}`": t for p, axes in support.PAPERS.items() for label, t in axes.items()}
    for label, table in tables.items():
        block = text.split(f"**Support of {label}**", 1)
        assert len(block) == 2, f"docs/reconstructions.md has no support table for {label}"
        rows = re.findall(r"^\| `([^`]+)` \| (\w+) \|", block[1].split("\n\n", 2)[1], re.M)
        assert [level for _, level in rows] == [s.level for s in table.values()], label
        assert len(rows) == len(table), label
