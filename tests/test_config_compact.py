"""The config's compact forms (paper defaults, panels by one axis, caption fields), its schema defaults, and
config/README.md generated from the schema."""

import copy
import re
from pathlib import Path

import pytest
import yaml

from dpbandits.pipeline import configfile, gendocs
from dpbandits.pipeline.catalogue.expand import expand
from dpbandits.pipeline.catalogue.model import ConfigError

ROOT = Path(__file__).resolve().parents[1]


def minimal(**figure) -> dict:
    """A one-paper config whose figure ``f`` has ``figure`` over the paper's defaults."""
    return {
        "seed": 1,
        "papers": {
            "p": {
                "defaults": {
                    "horizon": 1000,
                    "runs": 2,
                    "curves": ["ucb"],
                    "epsilons": [0.5, 1.0],
                    "caption": "Figure {number} on {instance}, K = {k}, epsilon in {epsilons} {3, 5}.",
                },
                "figures": {"fig05": {"instance": {"name": "C1", "k": 5}, "panels": [{"title": "one"}], **figure}},
            }
        },
    }


def test_paper_defaults_merge_under_each_figure_and_the_figure_wins():
    config = configfile.prepare(minimal(runs=3, xscale="log"))
    fig = config["papers"]["p"]["figures"]["fig05"]
    assert "defaults" not in config["papers"]["p"]
    assert (fig["horizon"], fig["runs"], fig["curves"], fig["xscale"]) == (1000, 3, ["ucb"], "log")
    assert (fig["kind"], fig["yscale"], fig["band"], fig["label_epsilon"]) == ("regret", "linear", "sem", True)
    assert fig["caption"] == "Figure 5 on C1, K = 5, epsilon in {0.5, 1} {3, 5}."  # other braces kept
    assert configfile.prepare(copy.deepcopy(config)) == config  # idempotent


def test_schema_defaults_are_filled_in_and_stated_once():
    config = configfile.prepare(minimal())
    assert (config["results"], config["checkpoints"], config["job_seconds"], config["cost_warning_hours"]) == (
        "results",
        200,
        60,
        6,
    )
    assert config["chunk_runs"] == {"default": 100}
    assert config["audit"] == {"trials": 4000, "power_factors": [0.1, 0.25, 0.5], "power_ladder": [2000, 8000, 32000]}
    assert config["readings"] == {"enabled": True, "runs": {}, "papers": {}}
    assert configfile.prepare(minimal() | {"chunk_runs": {"dp_ucb": 3}})["chunk_runs"] == {"dp_ucb": 3, "default": 100}
    for path in [*ROOT.glob("src/dpbandits/*.py"), *ROOT.glob("workflow/rules/*.smk")]:  # no default in code
        text = path.read_text()
        for key in ("checkpoints", "job_seconds", "chunk_runs", "results", "scale", "readings", "theory_overlays"):
            assert f'config.get("{key}"' not in text, (path.name, key)


def test_panels_by_k_and_by_epsilons():
    by_k = configfile.prepare(
        minimal(
            instance={"name": "C2"},
            caption="{instance}",
            panels={"k": [3, 10], "title": "({letter}) {instance}, K={k}"},
        )
    )
    assert by_k["papers"]["p"]["figures"]["fig05"]["panels"] == [
        {"title": "(a) C2, K=3", "instance": {"name": "C2", "k": 3}},
        {"title": "(b) C2, K=10", "instance": {"name": "C2", "k": 10}},
    ]
    by_eps = configfile.prepare(minimal(panels={"epsilons": [0.25, [0.5, 1.0]], "title": "{letter}: ε = {epsilons}"}))
    assert by_eps["papers"]["p"]["figures"]["fig05"]["panels"] == [
        {"title": "a: ε = 0.25", "epsilons": [0.25]},
        {"title": "b: ε = {0.5, 1}", "epsilons": [0.5, 1.0]},
    ]
    sims, figures = expand(by_eps)
    assert [p.title for p in figures["p"]["fig05"].panels] == ["a: ε = 0.25", "b: ε = {0.5, 1}"]


@pytest.mark.parametrize(
    "figure, culprit",
    [
        (
            {"panels": {"k": [3], "epsilons": [0.5], "title": "x"}},
            "papers.p.figures.fig05.panels: name exactly one axis",
        ),
        ({"panels": {"title": "x"}}, "papers.p.figures.fig05.panels: name exactly one axis"),
        ({"panels": {"n": [3], "title": "x"}}, "papers.p.figures.fig05.panels: Additional properties"),
        ({"panels": {"k": 3, "title": "x"}}, "papers.p.figures.fig05.panels.k: 3 is not of type 'array'"),
        ({"panels": {"k": [1], "title": "x"}}, "papers.p.figures.fig05.panels.k[0]"),
        ({"panels": {"epsilons": [[0.5, -1]], "title": "x"}}, "papers.p.figures.fig05.panels.epsilons[0][1]"),
        ({"panels": {"k": [3]}}, "papers.p.figures.fig05.panels: 'title' is a required property"),
        ({"panels": {"k": [3], "title": "{kk}"}}, "papers.p.figures.fig05.panels.title: no field {kk}"),
        ({"caption": "{figures}"}, "papers.p.figures.fig05.caption: no field {figures}"),
        (
            {"instance": {"means": [0.5, 0.4]}},
            "papers.p.figures.fig05.instance.name: missing, and papers.p.figures.fig05.caption uses {instance} "
            "(caption set",
        ),
        ({"instance": None}, "papers.p.figures.fig05.instance"),
    ],
)
def test_bad_compact_forms_are_refused_naming_the_key(figure, culprit):
    with pytest.raises(ConfigError) as err:
        configfile.prepare(minimal(**figure))
    assert str(err.value).startswith(culprit), str(err.value)
    assert "\n" not in str(err.value)


def test_errors_in_paper_defaults_name_the_defaults():
    config = minimal()
    config["papers"]["p"]["defaults"]["caption"] = "{nope}"
    with pytest.raises(
        ConfigError,
        match=r"^papers\.p\.figures\.fig05\.caption: no field \{nope\}.*"
        r" \(caption set in papers\.p\.defaults\)$",
    ):
        configfile.prepare(config)
    config = minimal()
    del config["papers"]["p"]["defaults"]["runs"]
    with pytest.raises(ConfigError, match=r"^papers\.p\.figures\.fig05\.runs: missing"):
        configfile.prepare(config)
    config["papers"]["p"]["defaults"]["bogus"] = 1
    with pytest.raises(ConfigError, match=r"^papers\.p\.defaults: Additional properties"):
        configfile.prepare(config)


def test_config_yaml_states_each_setting_once():
    text = (ROOT / "config" / "config.yaml").read_text()
    assert text.count("horizon: 50000000") == 2  # the paper's and the thesis' defaults
    assert "<<:" not in text and not re.search(r"[&*]\w", text)  # no YAML anchors, aliases or merge keys
    raw = yaml.safe_load(text)
    assert "algorithms" not in raw  # the registry states the defaults (config/README.md lists them)


def test_config_readme_is_generated_from_the_schema():
    text = (ROOT / "config" / "README.md").read_text()
    assert gendocs.readme(text, configfile.load_schema()) == text, (
        "config/README.md is stale: regenerate it with `python -m dpbandits.pipeline.configfile`"
    )
    schema = configfile.load_schema()
    schema["properties"]["checkpoints"]["default"] = 300
    assert gendocs.readme(text, schema) != text  # a changed default makes it stale
    for key in set(schema["properties"]) - {"papers"}:  # papers: the paper and figure tables
        assert f"| `{key}` |" in text, key
