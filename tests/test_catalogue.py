"""Figure catalogue expansion and config validation (each bad value names its key)."""

import copy
from pathlib import Path

import pytest
import yaml
from snakemake.utils import validate

from dpbandits import catalogue

ROOT = Path(__file__).resolve().parents[1]
SCHEMA = str(ROOT / "workflow" / "schemas" / "config.schema.yaml")


@pytest.fixture(scope="module")
def config():
    return yaml.safe_load((ROOT / "config" / "config.yaml").read_text())


def test_default_config_is_valid_and_expands(config):
    validate(copy.deepcopy(config), schema=SCHEMA)
    sims, figures = catalogue.expand(config)
    assert set(figures) == set(config["papers"])
    for paper, figs in figures.items():
        for name, fig in figs.items():
            assert fig.panels, (paper, name)
            for panel in fig.panels:
                for curve in panel.curves:
                    assert curve.cid in sims


def test_identical_configurations_are_simulated_once(config):
    sims, figures = catalogue.expand(config)
    cids = [c.cid for figs in figures.values() for f in figs.values() for p in f.panels for c in p.curves]
    assert len(set(cids)) == len(sims)
    assert len(cids) >= len(sims)


def test_tossou_catalogue(config):
    sims, figures = catalogue.expand(config)
    fig = figures["tossou2016"]["fig2a"]
    assert fig.runs == 100
    spec = sims[fig.panels[0].curves[0].cid]
    assert spec.horizon == 100_000 and spec.algorithm == "ucb" and spec.epsilons == (None,)
    # UCB does not depend on epsilon: the same simulation serves panels (a) and (b)
    assert fig.panels[0].curves[0].cid == figures["tossou2016"]["fig2b"].panels[0].curves[0].cid
    # a private algorithm's configuration holds every epsilon the figures ask for
    int_a = fig.panels[0].curves[1]
    assert int_a.algorithm == "dp_ucb_int" and int_a.epsilon == 1.0
    assert sims[int_a.cid].epsilons == (0.1, 1.0)
    assert int_a.cid == figures["tossou2016"]["fig2b"].panels[0].curves[1].cid


def test_smoke_scale_caps(config):
    smoke = yaml.safe_load((ROOT / "config" / "smoke.yaml").read_text())
    cfg = {**config, **smoke}
    sims, figures = catalogue.expand(cfg)
    assert all(s.horizon <= smoke["scale"]["max_horizon"] for s in sims.values() if s.kind == "regret")
    assert all(f.runs <= smoke["scale"]["max_runs"] for figs in figures.values() for f in figs.values())


def test_chunks_cover_runs():
    assert catalogue.chunks(7, 3) == [(0, 3), (3, 6), (6, 7)]
    assert catalogue.chunks(4, 10) == [(0, 4)]


def _tossou(config):
    return config["papers"]["tossou2016"]["figures"]["fig2a"]


BAD = [
    (lambda c: c.update(bogus=1), "bogus"),
    (lambda c: c.update(seed=-1), "seed"),
    (lambda c: c.update(seed="abc"), "seed"),
    (lambda c: c.update(checkpoints=1), "checkpoints"),
    (lambda c: c.update(scale={"max_horizon": 0}), "max_horizon"),
    (lambda c: c.update(scale={"horizon": 10}), "horizon"),
    (lambda c: _tossou(c).update(epsilons=[0.0]), "epsilons"),
    (lambda c: _tossou(c).update(epsilons=[]), "epsilons"),
    (lambda c: _tossou(c).update(runs=0), "runs"),
    (lambda c: _tossou(c).update(xscale="loglog"), "xscale"),
    (lambda c: _tossou(c).update(instance={"means": [0.5, 1.5]}), "means"),
    (lambda c: _tossou(c).update(instance={"means": [0.5]}), "means"),
    (lambda c: _tossou(c).update(panels=[]), "panels"),
    (lambda c: _tossou(c).update(colour="red"), "colour"),
    (lambda c: c["papers"].update(nopaper={"figures": {}}), "nopaper"),
]

SEMANTIC = [
    (lambda c: _tossou(c).update(curves=["no_such_algorithm"]), "curves[0].algorithm"),
    (lambda c: _tossou(c).update(horizon=1), "horizon"),
    (lambda c: _tossou(c).update(instance={"name": "C9", "k": 5}), "instance"),
    (lambda c: _tossou(c).update(instance={"name": "C2"}), "instance"),
    (lambda c: c["algorithms"]["dp_ucb_int"].update(int_update="sometimes"), "int_update"),
    (lambda c: c["algorithms"]["ucb"].update(colour=1), "colour"),
    (lambda c: c["algorithms"].update(not_an_algorithm={}), "algorithms.not_an_algorithm"),
    (lambda c: c.update(papers={}), "papers"),
]


@pytest.mark.parametrize(("mutate", "culprit"), BAD)
def test_schema_rejects_bad_config(config, mutate, culprit):
    cfg = copy.deepcopy(config)
    mutate(cfg)
    with pytest.raises(catalogue.ConfigError, match=culprit) as err:
        catalogue.check_schema(cfg, SCHEMA)
    assert "\n" not in str(err.value)


@pytest.mark.parametrize(("mutate", "culprit"), SEMANTIC)
def test_expand_rejects_bad_config_naming_the_key(config, mutate, culprit):
    cfg = copy.deepcopy(config)
    mutate(cfg)
    with pytest.raises(catalogue.ConfigError) as err:
        catalogue.expand(cfg)
    assert culprit in str(err.value)
