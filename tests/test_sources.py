"""A job's package inputs come from the code (dpbandits.pipeline.sources): editing a module reruns the jobs that run
it."""

import csv
import io
import json
import os
import sys
import time
from pathlib import Path

import pytest
from test_pipeline import _copy_repo, _run, smk

from dpbandits import ALGORITHMS
from dpbandits.pipeline import sources
from dpbandits.pipeline.entry import ENTRY_POINTS

ROOT = Path(__file__).resolve().parents[1]
CORE = {
    "__init__.py",
    "core/__init__.py",
    "core/checkpoints.py",
    "core/instances.py",
    "pipeline/__init__.py",
    "pipeline/io.py",
    "pipeline/entry.py",
    "core/registry.py",
    "core/seeding.py",
    "core/simulate.py",
    "core/validation.py",
}
# shared parameters live in bandits/_params.py: no algorithm module imports another
PARAMS_USERS = {
    "ucb",
    "adap_klucb",
    "adap_ucb",
    "ldp_ucb",
    "anytime_lazy_ucb",
    "dp_ucb",
    "dp_ucb_bound",
    "dp_ucb_int",
    "dp_ucb_tossou",
    "lazy_dp_ts",
    "private_ucb",
    "dp_se",
    "dp_se2",
    "dp_se2_modified",
    "kl_ucb",
    "thompson",
    "imed",
    "dp_klucb",
    "dp_imed",
    "dp_ts_ucb",
}


def _rel(paths) -> set[str]:
    return {Path(p).relative_to(sources.PACKAGE).as_posix() for p in paths}


def _module_file(alg) -> str:
    return _rel([sources.module_file(alg.module)]).pop()


def _users(file: str) -> set[str]:
    """Algorithms whose simulation jobs take ``file`` (package-relative) as an input."""
    return {name for name in ALGORITHMS if file in _rel(sources.algorithm_sources(name))}


def test_every_simulation_runs_the_core_of_its_kind_only():
    for name, alg in ALGORITHMS.items():
        reached = _rel(sources.algorithm_sources(name))
        assert CORE | {_module_file(alg)} <= reached, name
        if alg.kind == "bai":
            assert {"pipeline/entry_bai.py", "bai/trials.py"} <= reached, name
            assert not any(f.startswith("bandits/") for f in reached), name
        else:
            assert not any(f.startswith("bai/") for f in reached), name
    assert ENTRY_POINTS.keys() == {alg.kind for alg in ALGORITHMS.values()}


def test_an_algorithm_module_reaches_only_the_algorithms_that_import_it():
    for alg in ALGORITHMS.values():
        file = _module_file(alg)
        registered = {name for name, other in ALGORITHMS.items() if other.module == alg.module}
        assert _users(file) == registered, file


def test_names_imported_from_packages_resolve_to_their_definitions():
    # the command line imports the constant __version__ from the package, not the algorithms __init__ imports
    assert not any(f.startswith(("bandits/", "bai/")) for f in _rel(sources.closure("dpbandits.cli")))
    assert {"__init__.py", "_version.py"} <= _rel(sources.closure("dpbandits.cli"))
    # claims.PAPERS, defined in claims/__init__.py, is built from every paper's claims module
    claims = _rel(sources.closure("dpbandits.claims.ledger"))
    assert {f"claims/{p}.py" for p in ("tossou2016", "sajed2019", "sajed2019thesis", "hu2022", "chen2024")} <= claims
    # plotting imports wilson_interval from dpbandits.bai, which re-exports it from bai/trials.py
    figures = _rel(sources.script_sources(ROOT / "workflow/scripts/figures.py"))
    assert {
        "drawing/figures.py",
        "drawing/plotting.py",
        "drawing/crosspaper.py",
        "drawing/theory.py",
        "bai/trials.py",
    } <= figures
    assert "bai/dp_bai.py" not in figures
    with pytest.raises(ValueError, match="not a module"):
        sources.closure("dpbandits.nope")


def test_each_entry_point_runs_its_kind(tmp_path):
    spec = {
        "kind": "bai",
        "algorithm": "dp_bai",
        "instance": {"name": "two_arm"},
        "horizon": 300,
        "epsilons": [0.5],
        "params": {},
        "seed": 3,
        "sweep": {"x": "ratio", "values": [2]},
    }
    for entry, ok in ((ENTRY_POINTS["bai"], True), (ENTRY_POINTS["regret"], False)):
        proc = _run(
            [
                sys.executable,
                "-m",
                entry,
                "--specs",
                json.dumps([spec]),
                "--start",
                "0",
                "--stop",
                "2",
                "--out",
                str(tmp_path / "chunk.npz"),
                "--log",
                str(tmp_path / "log.json"),
            ],
            ROOT,
            check=False,
        )
        assert (proc.returncode == 0) == ok, proc.stderr[-2000:]
    assert json.loads((tmp_path / "log.json").read_text())["members"][0]["trials"] == 2
    assert "python -m dpbandits.pipeline.entry_bai" in proc.stderr


@pytest.mark.pipeline
def test_editing_any_module_reruns_exactly_the_jobs_that_run_it(tmp_path):
    """A complete (fake) smoke-scale results/; every package module edited in turn, one dry run each."""
    repo = _copy_repo(tmp_path)
    summary = _run(smk("--detailed-summary"), repo).stdout
    rows = list(csv.DictReader(io.StringIO(summary[summary.index("output_file\t") :]), delimiter="\t"))
    then = time.time() - 3600
    for f in repo.rglob("*"):
        if f.is_file():
            os.utime(f, (then, then))
    now = time.time() - 60  # every output equally new: no job is stale
    for row in rows:
        for name in [row["output_file"], *filter(None, row["log-file(s)"].split(","))]:
            path = repo / name
            path.parent.mkdir(parents=True, exist_ok=True)
            path.touch()
            os.utime(path, (now, now))
    used = {row["output_file"].split("/")[2] for row in rows if row["rule"] == "simulate"}
    modules = sorted(p.relative_to(sources.PACKAGE).as_posix() for p in sources.PACKAGE.rglob("*.py"))
    out = tmp_path / "plans.json"
    _run(
        [sys.executable, str(ROOT / "tests/_edit_dryruns.py"), str(out), *(f"src/dpbandits/{m}" for m in modules)], repo
    )
    plans = {k.removeprefix("src/dpbandits/"): v for k, v in json.loads(out.read_text()).items()}
    assert plans.pop("") == []  # complete results: nothing to do
    figure_code = _rel(sources.script_sources(ROOT / "workflow/scripts/figures.py"))
    # the figures' captions read each paper's spent privacy (results/privacy/), whose code reruns them too
    figure_code |= _rel(sources.script_sources(ROOT / "workflow/scripts/paper_privacy.py"))
    notebook_code = set().union(*(_rel(sources.script_sources(nb)) for nb in (ROOT / "notebooks").glob("*.ipynb")))
    for module in modules:
        sims = {alg for rule, alg in plans[module] if rule == "simulate"}
        rules = {rule for rule, _ in plans[module]}
        assert sims == _users(module) & used, module
        assert any(r.startswith("figures_") for r in rules) == bool(sims or module in figure_code), module
        if module in notebook_code:  # a notebook's code cells import it (e.g. drawing/notebook.py)
            assert "notebook" in rules, module
    for module in (
        "core/instances.py",
        "core/seeding.py",
        "core/simulate.py",
        "core/checkpoints.py",
    ):  # the core: every simulation
        assert {alg for rule, alg in plans[module] if rule == "simulate"} == used, module
    assert {alg for rule, alg in plans["bandits/_params.py"] if rule == "simulate"} == PARAMS_USERS & used
    assert {alg for rule, alg in plans["bandits/dp_se2.py"] if rule == "simulate"} == {"dp_se2", "dp_se2_modified"}
    # an audit edit reruns the audit only (the reference twins take ScaledNoise from dpbandits.mechanisms.noise): no
    # simulation, report, figure or claim
    assert {rule for rule, _ in plans["audit/loss.py"]} == {"audit", "all"}
    claims = {rule for rule, _ in plans["claims/hu2022.py"]}
    assert claims >= {"claims", "claims_hu2022"} and not any(r.startswith(("figures_", "simulate")) for r in claims)
