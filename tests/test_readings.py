"""Reading axes, their expansion into figures, and the ledger's robustness and diagnostic."""

from pathlib import Path

import pandas as pd
import pytest
import yaml

from dpbandits.claims.ledger import DEFAULT, diagnostic, with_robustness
from dpbandits.claims.page import markdown
from dpbandits.core import registry
from dpbandits.core.registry import Param
from dpbandits.pipeline import configfile, readings
from dpbandits.pipeline.catalogue.expand import expand
from dpbandits.pipeline.catalogue.model import ConfigError
from dpbandits.pipeline.support import support

ROOT = Path(__file__).resolve().parents[1]


def _config(smoke=True, **extra) -> dict:
    """config.yaml (with smoke.yaml, and ``extra``, over it), prepared as the pipeline prepares it."""
    config = yaml.safe_load((ROOT / "config/config.yaml").read_text())
    if smoke:
        config.update(yaml.safe_load((ROOT / "config/smoke.yaml").read_text()))
    return configfile.prepare({**config, **extra})


@pytest.fixture(scope="module")
def expanded():
    config = _config()
    sims, figures = expand(config)
    default = dict(sims)
    return config, default, sims, figures, readings.expand_readings(config, sims)


def test_config_readme_lists_every_axis_with_its_readings():
    """config/README.md (generated from the registry, tests/test_config_compact.py checks it is current) shows
    every reading axis with its default reading first; config/config.yaml overrides none by default."""
    text = (ROOT / "config/README.md").read_text()
    for pname, by_alg in registry.reading_axes().items():
        for alg, spec in by_alg.items():
            values = ", ".join(f"`{v}` ({support(pname, v).level})" for v in spec.readings)
            assert f"| `{alg}` | `{pname}` | `{spec.default}` | {values} |" in text, (alg, pname)
    assert _config(smoke=False)["algorithms"] == {}


def test_axes_the_verdicts_hinge_on_are_declared():
    axes = registry.reading_axes()
    for pname, alg in [
        ("gamma_log", "dp_ucb"),
        ("gamma_denominator", "dp_ucb"),
        ("int_update", "dp_ucb_int"),
        ("nu_form", "dp_ucb_bound"),
        ("hybrid_split", "dp_ucb_bound"),
        ("hybrid_split", "dp_ucb_tossou"),
        ("tree_eps", "private_ucb"),
        ("sqrt_term", "private_ucb"),
        ("schedule", "dp_bai"),
        ("alloc", "dp_bai"),
        ("check_schedule", "dp_se2"),
        ("noise_scale_uses", "dp_se"),
    ]:
        assert alg in axes.get(pname, {}), (pname, alg)
    for pname, by_alg in axes.items():
        for alg, spec in by_alg.items():
            assert all(isinstance(r, str) and len(r) > 10 for r in spec.readings.values()), (alg, pname)
        assert len({tuple(s.readings) for s in by_alg.values()}) == 1, f"{pname}: one axis, one set of readings"


def test_param_rejects_readings_without_the_default_first():
    with pytest.raises(ValueError, match="default"):
        Param("a", ("a", "b"), readings={"b": "why b", "a": "why a"})
    with pytest.raises(ValueError, match="not one of"):
        Param("a", ("a", "b"), readings={"a": "why a", "c": "why c"})
    assert not Param("a", ("a", "b")).is_axis


def test_each_axis_value_is_one_reading_shared_by_the_papers_that_use_it(expanded):
    config, _, _, _, found = expanded
    names = {r.reading.name: r.reading for r in found.values()}
    assert {"gamma_log=2", "gamma_denominator=2", "gamma_log=2 + gamma_denominator=2"} <= set(names)
    assert set(names["gamma_log=2"].papers) == {"sajed2019", "sajed2019thesis"}
    assert names["gamma_log=2 + gamma_denominator=2"].params == {"gamma_log": "2", "gamma_denominator": "2"}
    assert {"int_update=literal", "int_update=live_bonus", "tree_eps=eps", "hybrid_split=none"} <= set(names)
    assert any(n.startswith("schedule=") for n in names) and any(n.startswith("section5.") for n in names)
    assert not any("crosspaper" in r.reading.papers for r in found.values())  # no claims, no readings
    assert not any(n.startswith("tie_break") for n in names)


def test_a_reading_reuses_every_configuration_it_does_not_change(expanded):
    config, default, sims, figures, found = expanded
    slug = next(s for s, r in found.items() if r.reading.name == "gamma_log=2")
    figs = found[slug].figures
    changed = unchanged = 0
    for name, fig in figs["sajed2019"].items():
        for p_default, p_read in zip(figures["sajed2019"][name].panels, fig.panels, strict=True):
            for c_default, c_read in zip(p_default.curves, p_read.curves, strict=True):
                if c_read.algorithm == "dp_ucb":
                    assert c_read.cid != c_default.cid and c_read.cid not in default
                    assert sims[c_read.cid].params["gamma_log"] == "2"
                    changed += 1
                else:
                    assert c_read.cid == c_default.cid
                    unchanged += 1
    assert changed and unchanged
    # the thesis' DP-UCB curves under the same reading are the same configurations as the paper's
    thesis = {
        c.cid for f in figs["sajed2019thesis"].values() for p in f.panels for c in p.curves if c.algorithm == "dp_ucb"
    }
    paper = {c.cid for f in figs["sajed2019"].values() for p in f.panels for c in p.curves if c.algorithm == "dp_ucb"}
    assert thesis <= paper


def test_reading_runs_are_capped_only_for_new_configurations():
    config = _config(smoke=False)
    assert config["readings"]["runs"] == {"dp_ucb": 4}
    sims, _ = expand(config)
    default = dict(sims)
    readings.expand_readings(config, sims)
    new = [s for c, s in sims.items() if c not in default]
    assert new and all(s.runs == 4 for s in new if s.algorithm == "dp_ucb")
    assert all(default[c].runs == s.runs for c, s in sims.items() if c in default)
    assert any(s.algorithm == "dp_se" and s.runs == 30 for s in new)  # uncapped algorithms keep the figure's runs


def test_instance_reading_changes_the_instance_of_its_panels(expanded):
    _, default, sims, _, found = expanded
    reading, figs = next((r.reading, r.figures) for r in found.values() if r.reading.instance)
    ((inst, values),) = reading.instance.items()
    for fig in figs["chen2024"].values():
        for panel in fig.panels:
            if panel.instance.get("name") == inst:
                assert all(panel.instance[k] == v for k, v in values.items())
                assert all(c.cid not in default for c in panel.curves)


@pytest.mark.parametrize(
    "bad, culprit",
    [
        ({"papers": {"nowhere": {}}}, "readings.papers.nowhere"),
        ({"papers": {"sajed2019": {"exclude": ["gamma"]}}}, "readings.papers.sajed2019.exclude[0]"),
        (
            {"papers": {"sajed2019": {"combine": [["gamma_log=3", "gamma_denominator=2"]]}}},
            "readings.papers.sajed2019.combine[0]",
        ),
        ({"papers": {"sajed2019": {"combine": [["bogus=1", "gamma_log=2"]]}}}, "readings.papers.sajed2019.combine[0]"),
    ],
)
def test_bad_reading_config_names_the_key(bad, culprit):
    config = _config(readings=bad)
    sims, _ = expand(config)
    with pytest.raises(ConfigError) as err:
        readings.expand_readings(config, sims)
    assert str(err.value).startswith(culprit)


def test_excluded_axes_and_disabled_readings_are_not_simulated():
    config = _config()
    config["readings"]["papers"]["sajed2019"] = {
        "exclude": ["gamma_log", "gamma_denominator", "noise_scale_uses"],
        "combine": [],
    }
    names = {r.name for r in readings.paper_readings(config, "sajed2019")}
    assert names == set()
    config["readings"]["enabled"] = False
    sims, _ = expand(config)
    assert readings.expand_readings(config, sims) == {}


def _rows(paper, claim, verdicts, kind="empirical", support=None):
    """Ledger rows of one claim: {reading: verdict}; ``support``: {reading: (relative support, level)}."""
    support = support or {}
    return [
        {
            "paper": paper,
            "claim_id": claim,
            "reading": r,
            "verdict": v,
            "kind": kind,
            "sentence": claim,
            "role": "part",
            "support": support.get(r, (0, "consistent"))[0],
            "support_level": "default" if r == DEFAULT else support.get(r, (0, "consistent"))[1],
            "support_text": "",
            "statement": f"sentence {claim}",
            "reading_runs": "",
        }
        for r, v in verdicts.items()
    ]


def test_robustness_reaches_each_label():
    df = pd.DataFrame(
        _rows("p", "same", {DEFAULT: "holds", "a=1": "holds", "b=2": "holds"})
        + _rows("p", "flip", {DEFAULT: "fails", "a=1": "holds", "b=2": "inconclusive"})
        + _rows("p", "noisy", {DEFAULT: "holds", "a=1": "inconclusive", "b=2": "holds"})
        + _rows("p", "split", {DEFAULT: "inconclusive", "a=1": "holds", "b=2": "fails"})
        + _rows("p", "one way", {DEFAULT: "inconclusive", "a=1": "holds", "b=2": "holds"})
        + _rows("q", "alone", {DEFAULT: "fails"})
    )
    out = with_robustness(df).set_index(["claim_id", "reading"])
    assert out.loc[("same", DEFAULT), "robustness"] == "robust"
    assert out.loc[("flip", DEFAULT), "robustness"] == "depends"
    assert out.loc[("flip", DEFAULT), "changed_by"] == "a=1 -> holds (consistent); b=2 -> inconclusive (consistent)"
    assert out.loc[("noisy", DEFAULT), "robustness"] == "unsettled"
    assert out.loc[("split", DEFAULT), "robustness"] == "depends"  # the readings reach both verdicts
    assert out.loc[("one way", DEFAULT), "robustness"] == "unsettled"
    assert out.loc[("alone", DEFAULT), "robustness"] == "no readings"
    assert out.loc[("flip", "a=1"), "robustness"] == ""  # only the default row carries it


def test_diagnostic_ranks_readings_and_ignores_structural_and_check_rows():
    df = pd.DataFrame(
        _rows("p", "c1", {DEFAULT: "fails", "a=1": "holds", "b=2": "fails"})
        + _rows("p", "c2", {DEFAULT: "holds", "a=1": "holds", "b=2": "inconclusive"})
        + _rows("p", "shape", {DEFAULT: "fails", "a=1": "fails", "b=2": "fails"}, kind="structural")
        + _rows("p", "S-2", {DEFAULT: "fails", "a=1": "fails", "b=2": "fails"}, kind="check")
        + _rows("p", "theory", {DEFAULT: "fails", "a=1": "fails", "b=2": "fails"}, kind="theory")
    )
    diag = diagnostic(df)
    assert list(diag["reading"]) == ["a=1", DEFAULT, "b=2"]
    assert diag.set_index("reading").loc["a=1", "agrees_with_all"]
    assert not diag.set_index("reading").loc[DEFAULT, "agrees_with_all"]
    assert (diag["claims"] == 2).all()
    full = with_robustness(df).assign(statement="s", criterion="c", numbers="", reading_runs="")
    text = markdown(full)
    assert "a diagnostic, not a verdict" in text and "| p | c1 | **fails** | depends |" in text
    assert "| p | theory | theory check | fails |" in text and "| p | S-2 | project check | fails |" in text
