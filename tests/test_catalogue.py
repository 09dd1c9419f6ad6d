"""Figure catalogue expansion and config validation (each bad value names its key)."""

import copy
from pathlib import Path

import numpy as np
import pytest
import yaml

from dpbandits.pipeline import configfile
from dpbandits.pipeline.catalogue.costs import estimated_seconds
from dpbandits.pipeline.catalogue.expand import expand
from dpbandits.pipeline.catalogue.jobs import chunk_size, chunks, plan_jobs
from dpbandits.pipeline.catalogue.model import ConfigError

ROOT = Path(__file__).resolve().parents[1]
SCHEMA = str(ROOT / "workflow" / "schemas" / "config.schema.yaml")


def raw_config() -> dict:
    return yaml.safe_load((ROOT / "config" / "config.yaml").read_text())


@pytest.fixture(scope="module")
def config():
    """config/config.yaml as the pipeline reads it: validated, figures explicit, defaults filled in."""
    return configfile.load([ROOT / "config" / "config.yaml"], SCHEMA)


def test_default_config_is_valid_and_expands(config):
    assert configfile.prepare(copy.deepcopy(config), SCHEMA) == config  # preparing twice changes nothing
    sims, figures = expand(config)
    assert set(figures) == set(config["papers"])
    for paper, figs in figures.items():
        for name, fig in figs.items():
            assert fig.panels, (paper, name)
            for panel in fig.panels:
                for curve in panel.curves:
                    assert curve.cid in sims


def test_identical_configurations_are_simulated_once(config):
    sims, figures = expand(config)
    cids = [c.cid for figs in figures.values() for f in figs.values() for p in f.panels for c in p.curves]
    assert len(set(cids)) == len(sims)
    assert len(cids) >= len(sims)


def test_tossou_catalogue(config):
    sims, figures = expand(config)
    fig = figures["tossou2016"]["fig2a"]
    assert fig.runs == 100
    spec = sims[fig.panels[0].curves[0].cid]
    assert spec.horizon == 100_000 and spec.algorithm == "ucb" and spec.epsilons == (None,)
    # UCB does not depend on epsilon: the same simulation serves panels (a) and (b)
    assert fig.panels[0].curves[0].cid == figures["tossou2016"]["fig2b"].panels[0].curves[0].cid
    # a private algorithm's configuration holds every epsilon the figures ask for
    int_a = fig.panels[0].curves[1]
    assert int_a.algorithm == "dp_ucb_int" and int_a.epsilon == 1.0
    assert {0.1, 1.0} <= set(sims[int_a.cid].epsilons)
    assert int_a.cid == figures["tossou2016"]["fig2b"].panels[0].curves[1].cid
    asked = {}  # every figure's curves, the frontier's among them: each configuration holds exactly their epsilons
    for figs in figures.values():
        for f in figs.values():
            for curve in (c for panel in f.panels for c in panel.curves if sims[c.cid].kind == "regret"):
                asked.setdefault(curve.cid, set()).add(curve.epsilon)
    assert all(set(sims[cid].epsilons) == eps for cid, eps in asked.items())


def test_smoke_scale_caps(config):
    smoke = yaml.safe_load((ROOT / "config" / "smoke.yaml").read_text())
    cfg = {**config, **smoke}
    sims, figures = expand(cfg)
    assert all(s.horizon <= smoke["scale"]["max_horizon"] for s in sims.values() if s.kind == "regret")
    assert all(f.runs <= smoke["scale"]["max_runs"] for figs in figures.values() for f in figs.values())


def test_chunks_cover_runs():
    assert chunks(7, 3) == [(0, 3), (3, 6), (6, 7)]
    assert chunks(4, 10) == [(0, 4)]


@pytest.mark.parametrize("job_seconds", [1e-9, 60, 1e9])
def test_jobs_cover_every_run_of_every_configuration_once(config, job_seconds):
    cfg = {**config, "job_seconds": job_seconds}
    sims, _ = expand(cfg)
    jobs, where = plan_jobs(cfg, sims)
    covered = {cid: [] for cid in sims}
    for key, job in jobs.items():
        assert key == job.key and all(s.algorithm == job.algorithm for s in job.members)
        if len(job.members) > 1:  # packed jobs stay within the budget
            assert sum(estimated_seconds(s, job.stop - job.start) for s in job.members) <= job_seconds
        else:
            assert job.bid == job.members[0].cid
        for spec in job.members:
            covered[spec.cid].extend(range(job.start, job.stop))
    for cid, spec in sims.items():
        assert covered[cid] == list(range(spec.runs)), cid  # once each, and where[] lists them in run order
        assert [r for key in where[cid] for r in range(jobs[key].start, jobs[key].stop)] == list(range(spec.runs))
    if job_seconds == 1e-9:  # nothing is packed
        assert len(jobs) == sum(len(chunks(s.runs, chunk_size(cfg, s.algorithm))) for s in sims.values())


def test_cheap_chunks_are_packed_per_algorithm(config):
    smoke = yaml.safe_load((ROOT / "config" / "smoke.yaml").read_text())
    cfg = {**config, **smoke}
    sims, _ = expand(cfg)
    jobs, _ = plan_jobs(cfg, sims)
    algorithms = {s.algorithm for s in sims.values()}
    # smoke scale: every chunk is cheap, so one job per (algorithm, run range)
    assert len(jobs) == len({(j.algorithm, j.start, j.stop) for j in jobs.values()}) < len(sims)
    assert {j.algorithm for j in jobs.values()} == algorithms
    # paper scale: a DP-UCB chunk (15 ns x 5e7 pulls x 4 epsilons x 15 runs = 45 s) above job_seconds
    # is a job of its own
    paper = {**config, "job_seconds": 30}
    paper_jobs, _ = plan_jobs(paper, expand(paper)[0])
    big = [j for j in paper_jobs.values() if j.algorithm == "dp_ucb" and j.members[0].horizon == 50_000_000]
    assert len(big) == 64 // 4 * 2 and all(len(j.members) == 1 for j in big)


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
    (lambda c: _tossou(c).update(instance={"name": "C2", "k": 5, "rewards": "gauss"}), "rewards"),
    (lambda c: _tossou(c).update(instance={"name": "C2", "k": 5, "rewards": 1}), "rewards"),
    (lambda c: c["papers"].update(nopaper={"figures": {}}), "nopaper"),
]

SEMANTIC = [
    (lambda c: _tossou(c).update(curves=["no_such_algorithm"]), "curves[0].algorithm"),
    (lambda c: _tossou(c).update(horizon=1), "horizon"),
    (lambda c: _tossou(c).update(instance={"name": "C9", "k": 5}), "instance"),
    (lambda c: _tossou(c).update(instance={"name": "C2"}), "instance"),
    (lambda c: c["algorithms"]["dp_ucb_int"].update(int_update="sometimes"), "algorithms.dp_ucb_int.int_update: "),
    (lambda c: c["algorithms"]["ucb"].update(colour=1), "algorithms.ucb.colour: "),
    (lambda c: c["algorithms"].update(dp_ucb={"gamma_log": "log2"}), "algorithms.dp_ucb.gamma_log: "),
    (lambda c: c["algorithms"].update(not_an_algorithm={}), "algorithms.not_an_algorithm"),
    (lambda c: c.update(papers={}), "papers"),
]


@pytest.mark.parametrize(("mutate", "culprit"), BAD)
def test_schema_rejects_bad_config(mutate, culprit):
    cfg = raw_config()
    mutate(cfg)
    with pytest.raises(ConfigError, match=culprit) as err:
        configfile.prepare(cfg, SCHEMA)
    assert "\n" not in str(err.value)


@pytest.mark.parametrize(("mutate", "culprit"), SEMANTIC)
def test_expand_rejects_bad_config_naming_the_key(mutate, culprit):
    cfg = raw_config()
    cfg.setdefault("algorithms", {}).update(dp_ucb_int={}, ucb={})
    mutate(cfg)
    with pytest.raises(ConfigError) as err:
        expand(configfile.prepare(cfg, SCHEMA))
    assert culprit in str(err.value)
    if culprit.startswith("algorithms."):  # an override is named where it was typed, not at a figure using it
        assert str(err.value).startswith(culprit), str(err.value)


def test_packed_job_results_equal_single_jobs(tmp_path):
    from dpbandits.pipeline.entry import run_job
    from dpbandits.pipeline.io import load_groups, members

    base = {"kind": "regret", "algorithm": "dp_ucb_int", "horizon": 500, "params": {}, "seed": 7, "checkpoints": 20}
    specs = [
        {**base, "instance": {"name": "C1", "k": 3}, "epsilons": [0.5, 1.0]},
        {**base, "instance": {"name": "C2", "k": 5}, "epsilons": [1.0]},
    ]
    log = run_job(specs, 2, 5, str(tmp_path / "packed.npz"))
    cids = [m["cid"] for m in log["members"]]
    assert members(tmp_path / "packed.npz") == cids and len(set(cids)) == 2
    for i, (spec, cid) in enumerate(zip(specs, cids, strict=True)):
        run_job([spec], 2, 5, str(tmp_path / f"alone{i}.npz"))
        packed, alone = load_groups([tmp_path / "packed.npz"], cid), load_groups([tmp_path / f"alone{i}.npz"], cid)
        assert packed.keys() == alone.keys() == set(spec["epsilons"])
        for eps in packed:
            np.testing.assert_array_equal(packed[eps].regret, alone[eps].regret)
            np.testing.assert_array_equal(packed[eps].pulls, alone[eps].pulls)
            assert packed[eps].meta["run_ids"] == [2, 3, 4]
    with pytest.raises(KeyError, match="no runs of configuration"):
        load_groups([tmp_path / "alone0.npz"], cids[1])


def test_a_regret_instance_takes_a_reward_law(tmp_path):
    # the law reaches simulate (its own seeds, its meta), the result file and the instance's label
    from dpbandits.core.instances import instance_label
    from dpbandits.pipeline.entry import run_job
    from dpbandits.pipeline.io import load_groups

    cfg = raw_config()
    _tossou(cfg).update(instance={"name": "tossou_2arm", "rewards": "beta"})
    sims, _ = expand(configfile.prepare(cfg, SCHEMA))
    laws = {s.instance.get("rewards") for s in sims.values() if s.kind == "regret"}
    assert "beta" in laws and instance_label({"name": "tossou_2arm", "rewards": "beta"}) == "tossou_2arm, rewards=beta"
    base = {"kind": "regret", "algorithm": "ucb", "horizon": 300, "params": {}, "seed": 7, "checkpoints": 5}
    metas = {}
    for law in (None, "beta"):
        instance = {"means": [0.7, 0.4], **({"rewards": law} if law else {})}
        log = run_job([{**base, "instance": instance, "epsilons": [1.0]}], 0, 3, str(tmp_path / f"{law}.npz"))
        (result,) = load_groups([tmp_path / f"{law}.npz"], log["members"][0]["cid"]).values()
        metas[law] = result.meta
    assert metas[None]["rewards"] == "bernoulli" and metas["beta"]["rewards"] == "beta"
    assert metas["beta"]["beta_concentration"] == 1.0 and metas[None]["config_key"] != metas["beta"]["config_key"]


def test_a_bai_instance_refuses_rewards_naming_the_key():
    cfg = configfile.prepare(raw_config(), SCHEMA)
    fig = cfg["papers"]["chen2024"]["figures"]["fig1"]
    assert fig["kind"] == "bai"
    fig["instance"] = {**fig["instance"], "rewards": "beta"}
    with pytest.raises(ConfigError, match=r"instance\.rewards: a best-arm identification instance"):
        expand(cfg)
