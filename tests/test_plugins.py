"""Bring your own algorithm: plugins by entry point or by path join simulate, cross-paper, audit and bench."""

import importlib
import os
import re
import subprocess
import sys
import textwrap
import tomllib
from pathlib import Path

import numpy as np
import pytest
import yaml

import dpbandits
from dpbandits import plugins, reference
from dpbandits.audit.loss import NO_RELEASE, audit_algorithm
from dpbandits.audit.run import CONTROL_NOISE_FACTOR
from dpbandits.audit.runners import default_algorithms
from dpbandits.bench.timing import bench
from dpbandits.core import registry
from dpbandits.core.instances import instance_label
from dpbandits.drawing import notebook
from dpbandits.pipeline import configfile, sources
from dpbandits.pipeline.catalogue.expand import expand
from dpbandits.pipeline.catalogue.jobs import plan_jobs
from dpbandits.pipeline.catalogue.model import ConfigError
from dpbandits.pipeline.catalogue.text import paper_settings

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "examples" / "dpse_halving"


@pytest.fixture
def isolated(monkeypatch):
    """Restore the registry, the plugin records and DPBANDITS_PLUGINS, and forget the plugin modules."""
    saved = dict(registry.ALGORITHMS), dict(plugins.PLUGINS), dict(plugins._ORIGINS), dict(plugins.FILES)
    monkeypatch.setattr(plugins, "_DIGESTS", dict(plugins._DIGESTS))
    monkeypatch.setenv(plugins.ENV, "")  # recorded, so that teardown also undoes load_plugins(export=True)
    monkeypatch.delenv(plugins.ENV)
    yield
    for live, old in zip((registry.ALGORITHMS, plugins.PLUGINS, plugins._ORIGINS, plugins.FILES), saved, strict=True):
        live.clear()
        live.update(old)
    for name in [m for m in sys.modules if m.startswith("dpbandits_plugin_") or m in ("dpse_halving", "notalgo")]:
        del sys.modules[name]


def install(tmp_path, monkeypatch, module: str, source: str, value: str) -> Path:
    """Install ``module`` as a distribution with one ``dpbandits.algorithms`` entry point, offline."""
    site = tmp_path / "site"
    info = site / f"{module}-0.1.0.dist-info"
    info.mkdir(parents=True)
    (site / f"{module}.py").write_text(source)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {module}\nVersion: 0.1.0\n")
    (info / "entry_points.txt").write_text(f"[{plugins.GROUP}]\n{module} = {value}\n")
    monkeypatch.syspath_prepend(str(site))
    importlib.invalidate_caches()
    return site


@pytest.fixture
def example(isolated, tmp_path, monkeypatch):
    """The README's example package (examples/dpse_halving), installed through its entry point."""
    project = tomllib.loads((EXAMPLE / "pyproject.toml").read_text())["project"]
    value = project["entry-points"][plugins.GROUP]["dpse_halving"]  # what `pip install` registers
    install(tmp_path, monkeypatch, "dpse_halving", (EXAMPLE / "dpse_halving.py").read_text(), value)
    plugins.load_plugins()
    return registry.ALGORITHMS["dpse_halving"]


def smoke_config(**extra) -> dict:
    """config.yaml with smoke.yaml and ``extra`` merged over it, not yet prepared (validated)."""
    config = yaml.safe_load((ROOT / "config" / "config.yaml").read_text())
    config.update(yaml.safe_load((ROOT / "config" / "smoke.yaml").read_text()))
    return {**config, **extra}


def test_entry_point_plugin_joins_the_registry_and_simulates(example):
    assert plugins.PLUGINS["dpse_halving"].startswith("entry point 'dpse_halving'")
    assert dpbandits.ALGORITHMS["dpse_halving"] is example and example.private
    files = sources.algorithm_sources("dpse_halving")  # the simulate rule's inputs
    assert any(s.endswith("dpse_halving.py") and os.path.isabs(s) for s in files)
    assert set(sources.closure("dpbandits.bandits.dp_se")) <= set(files)  # the package code it builds on
    means = [0.75, 0.625, 0.5, 0.375, 0.25]
    fast = dpbandits.simulate("dpse_halving", means, 3000, 0.5, runs=3, seed=7, beta=0.5)
    twin = reference.simulate("dpse_halving", means, 3000, 0.5, runs=3, seed=7, beta=0.5)
    np.testing.assert_array_equal(fast.regret, twin.regret)  # per_step: bit for bit with its twin
    np.testing.assert_array_equal(fast.pulls, twin.pulls)
    dp_se = dpbandits.simulate("dp_se", means, 3000, 0.5, runs=3, seed=7, beta=0.5)
    # half-length epochs: the first epoch (ceil(R_1 / 2) pulls an arm) ends before DP-SE's
    assert not np.array_equal(fast.pulls, dp_se.pulls)
    assert plugins.load_plugins() == [] and registry.ALGORITHMS["dpse_halving"] is example  # idempotent


def test_plugin_joins_the_cross_paper_study_with_the_same_seeds_and_epsilons(example):
    config = configfile.prepare(smoke_config())
    sims, figures = expand(config)
    for fig in figures["crosspaper"].values():
        for panel in (p for p in fig.panels if "rewards" not in p.instance):
            curves = {c.algorithm: c for c in panel.curves}
            assert curves["dpse_halving"].epsilon == curves["dp_se"].epsilon
    mine = [s for s in sims.values() if s.algorithm == "dpse_halving"]
    theirs = [s for s in sims.values() if s.algorithm == "dp_se" and s.instance in [m.instance for m in mine]]
    # one configuration per Bernoulli instance, every epsilon in it (the frontier's too, at the smoke horizon);
    # none under the other laws, which the plugin does not declare
    panels = [p for f in figures["crosspaper"].values() for p in f.panels]
    bernoulli = {instance_label({k: v for k, v in p.instance.items() if k != "rewards"}) for p in panels}
    assert len(mine) == len(bernoulli)  # the gap sweep's two-arm instances included
    assert all("rewards" not in s.instance for s in mine)
    assert all("dpse_halving" not in {c.algorithm for c in p.curves} for p in panels if "rewards" in p.instance)
    assert {(instance_label(s.instance), s.horizon, s.epsilons, s.seed) for s in mine} <= {
        (instance_label(s.instance), s.horizon, s.epsilons, s.seed) for s in theirs
    }
    jobs, _ = plan_jobs(config, sims)
    assert {j.algorithm for j in jobs.values()} >= {"dpse_halving"}
    assert "dpse_halving" in notebook.paper_algorithms(config, "crosspaper")


def test_plugin_is_audited_and_benchmarked(example):
    assert "dpse_halving" in default_algorithms()
    real = audit_algorithm("dpse_halving", 1.0, 300, seed=4)
    control = audit_algorithm("dpse_halving", 1.0, 300, seed=4, noise_factor=CONTROL_NOISE_FACTOR)
    assert real.verdict == "consistent" and real.table.startswith("threshold"), real
    assert control.verdict == "violation" and control.loss_lower > 2.0, control
    row = bench(["dpse_halving"], [3], 2000, 500, 1, 1)[0]
    assert row["fast_ns_per_pull"] > 0 and row["reference_ns_per_pull"] > 0 and not row["collapsed"]


def test_the_same_plugin_by_two_routes_loads_once_and_a_different_one_says_what_to_do(example, tmp_path):
    # README order: `pip install ./examples/dpse_halving`, then DPBANDITS_PLUGINS naming the example's file
    assert plugins.load_spec(str(EXAMPLE / "dpse_halving.py") + ":ALGORITHM") == "dpse_halving"
    assert registry.ALGORITHMS["dpse_halving"] is example
    assert plugins.PLUGINS["dpse_halving"].startswith("entry point")
    edited = tmp_path / "edited" / "dpse_halving.py"  # same name, other source: a genuinely different plugin
    edited.parent.mkdir()
    edited.write_text((EXAMPLE / "dpse_halving.py").read_text().replace("self.R /= 2", "self.R /= 3"))
    with pytest.raises(
        plugins.PluginError,
        match=r"^plugin '.*edited/dpse_halving.py:ALGORITHM': name "
        r"'dpse_halving' clashes with plugin entry point .*pip uninstall.*or rename one$",
    ):
        plugins.load_spec(f"{edited}:ALGORITHM")


NUMBA_PLUGIN = '''
import numpy as np
from numba import njit

from dpbandits.core.registry import Algorithm, Param


@njit(cache=True)
def kernel(means, horizon, m, checkpoints, rng):
    """Explore-then-commit: m pulls per arm round robin, then the best empirical arm."""
    k = means.size
    gap = means.max() - means
    sums = np.zeros(k)
    pulls = np.zeros(k, dtype=np.int64)
    out = np.empty(checkpoints.size)
    regret, total, c, best = 0.0, 0.0, 0, 0
    for t in range(1, horizon + 1):
        if t == m * k + 1:
            best = np.argmax(sums)
        a = (t - 1) % k if t <= m * k else best
        r = 1.0 if rng.random() < means[a] else 0.0
        sums[a] += r
        pulls[a] += 1
        total += r
        regret += gap[a]
        while c < checkpoints.size and checkpoints[c] == t:
            out[c] = regret
            c += 1
    return out, pulls, total


def run(means, horizon, epsilon, checkpoints, rng, params):
    return kernel(means, horizon, params["m"], checkpoints, rng)


ALGORITHM = Algorithm(name="etc", kind="regret", label="ETC", private=False, run=run,
                      params={"m": Param(20, low=0, doc="pulls per arm before committing")})
'''


def test_config_file_plugin_runs_its_numba_kernel_and_reaches_the_jobs(isolated, tmp_path):
    path = tmp_path / "etc.py"
    path.write_text(NUMBA_PLUGIN)
    spec = f"{path}:ALGORITHM"
    config = smoke_config(plugins=[spec])
    configfile.prepare(config)
    sims, figures = expand(config)  # loads the config's plugins
    assert any(c.algorithm == "etc" for p in figures["crosspaper"]["C1"].panels for c in p.curves)
    assert plugins.FILES["etc"] == (str(path),)
    assert str(path) in sources.algorithm_sources("etc")  # the simulate rule's inputs
    r = dpbandits.simulate("etc", [0.9, 0.5], 1000, None, runs=2, seed=1, m=10)
    assert (r.pulls[:, 0] >= 10).all() and (r.pulls.sum(axis=1) == 1000).all()
    assert (r.pulls.min(axis=1) == 10).all()  # explores 10 per arm, then commits to one
    # the pipeline exports the config's plugins; a job's process finds them on `import dpbandits`
    assert plugins.load_plugins([spec], export=True) == ["etc"]
    code = "import dpbandits; print(dpbandits.plugins.PLUGINS)"
    out = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, "PYTHONPATH": str(ROOT / "src")},
    ).stdout
    assert "'etc'" in out


BASE = "from dpbandits.core.registry import Algorithm, Param\n\ndef run(*args):\n    return None\n\n"


@pytest.mark.parametrize(
    ("body", "message"),
    [
        (
            "ALGORITHM = Algorithm(name='x', kind='regret', label='X', private=False)",
            "TypeError: .*missing 1 required positional argument: 'run'",
        ),
        (
            "ALGORITHM = Algorithm(name='x', kind='regret', label='X', private=False, run=None)",
            "run .* must be callable",
        ),
        (
            "ALGORITHM = Algorithm(name='x', kind='regret', label='X', private=False, run=run, params={'m': 3})",
            "parameter 'm' is a int, not a Param",
        ),
        (
            "ALGORITHM = Algorithm(name='x', kind='regret', label='X', private=False, run=run,\n"
            "                      params={'m': Param(0, low=0)})",
            "parameter m must be > 0",
        ),
        (
            "ALGORITHM = Algorithm(name='x', kind='regret', label='X', private=False, run=run,\n"
            "                      params={'horizon': Param(5)})",
            "parameter 'horizon' clashes with an argument",
        ),
        ("ALGORITHM = Algorithm(name='x', kind='regret', label='X', private=True, run=run)", "needs a reference twin"),
        (
            "ALGORITHM = Algorithm(name='dp_se', kind='regret', label='X', private=False, run=run)",
            "name 'dp_se' clashes with the built-in algorithm",
        ),
        ("ALGORITHM = {'name': 'x', 'run': run}", "is a dict, not a dpbandits.core.registry.Algorithm"),
        ("OTHER = 1", "has no attribute 'ALGORITHM'"),
        ("import no_such_module", "ModuleNotFoundError"),
    ],
)
def test_bad_plugin_fails_naming_it(isolated, tmp_path, body, message):
    path = tmp_path / "bad.py"
    path.write_text(BASE + textwrap.dedent(body) + "\n")
    spec = f"{path}:ALGORITHM"
    with pytest.raises(plugins.PluginError, match=f"^plugin '{spec}': .*{message}"):
        plugins.load_plugins([spec])
    assert "x" not in registry.ALGORITHMS


def test_entry_point_that_names_no_algorithm_fails_naming_it(isolated, tmp_path, monkeypatch):
    install(tmp_path, monkeypatch, "notalgo", BASE + "ALGORITHM = run\n", "notalgo:ALGORITHM")
    with pytest.raises(plugins.PluginError, match="^plugin entry point 'notalgo' .*is a function, not a"):
        plugins.load_plugins()


def test_bad_specs_fail_naming_them(isolated, tmp_path):
    with pytest.raises(plugins.PluginError, match="^plugin 'nocolon': must look like"):
        plugins.load_plugins(["nocolon"])
    with pytest.raises(plugins.PluginError, match="no such file"):
        plugins.load_plugins([f"{tmp_path}/missing.py:ALGORITHM"])
    bad = smoke_config(plugins=["nocolon"])
    with pytest.raises(ConfigError, match="plugins"):
        configfile.prepare(bad)


def test_config_file_plugin_is_planned_by_the_workflow(tmp_path):
    """`snakemake -n` with a plugin named in the config plans its simulations, and the audit and cross-paper
    jobs take the plugin's file as an input (editing it reruns them)."""
    from test_pipeline import _copy_repo, _run

    repo = _copy_repo(tmp_path)
    (repo / "etc.py").write_text(NUMBA_PLUGIN)
    (repo / "plug.yaml").write_text(yaml.safe_dump({"plugins": ["etc.py:ALGORITHM"]}))
    out = _run(
        [
            sys.executable,
            "-m",
            "snakemake",
            "-n",
            "-p",
            "audit",
            "crosspaper",
            "--configfile",
            "config/smoke.yaml",
            "plug.yaml",
        ],
        repo,
    ).stdout  # -p: every job's block, inputs included
    plugin_file = str(repo / "etc.py")
    audit_block = out[out.index("rule audit:") :].split("\n\n")[0]
    assert plugin_file in audit_block
    assert "results/sims/etc/" in out


SLOPPY_PLUGIN = '''
"""A private plugin that skips parts of the contract: its run is UCB but its twin always pulls arm 0, its
label parameter takes anything and it adds no noise (so its audit fails)."""
from dpbandits.plugins import per_step
from dpbandits.reference.tossou import UCB
from dpbandits.core.registry import Algorithm, Param


class FirstArm:
    def __init__(self, k, horizon, epsilon, rng, params):
        pass

    def select(self, t):
        return 0

    def update(self, arm, reward):
        pass


ALGORITHM = Algorithm(name="sloppy", kind="regret", label="Sloppy", private=True, run=per_step(UCB),
                      reference=FirstArm, params={"tie_break": Param("random", ("random", "first")),
                                                  "label": Param("x")})
'''


def _contract(plugin: str, name: str) -> subprocess.CompletedProcess:
    """tests/test_contract.py on the algorithm ``name`` of ``plugin`` (DPBANDITS_PLUGINS), in a fresh process."""
    env = {**os.environ, plugins.ENV: plugin}
    return subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            "-p",
            "no:randomly",
            str(ROOT / "tests" / "test_contract.py"),
            "-k",
            name,
        ],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=env,
    )


def test_the_contract_checks_plugins_and_fails_the_parts_they_skip(tmp_path):
    # the README's example passes every part; a plugin that skips parts fails exactly those, not silently
    good = _contract(f"{EXAMPLE / 'dpse_halving.py'}:ALGORITHM", "dpse_halving")
    assert good.returncode == 0, good.stdout[-3000:]
    assert " passed" in good.stdout and "skipped" not in good.stdout and "dpse_halving" not in good.stderr
    path = tmp_path / "sloppy.py"
    path.write_text(SLOPPY_PLUGIN)
    bad = _contract(f"{path}:ALGORITHM", "sloppy")
    failed = set(re.findall(r"^FAILED tests/test_contract.py::(\w+)\[sloppy", bad.stdout, re.M))
    assert failed == {
        "test_fast_kernel_and_twin_sample_the_same_distribution",  # the twin is another policy
        "test_with_deterministic_rewards_the_noise_alone_decides",
        "test_bad_parameter_values_are_named",  # `label` accepts anything
        "test_private_algorithm_passes_its_audit_and_its_control_is_flagged",  # no noise
        "test_private_algorithm_records_its_releases_and_spends_at_most_its_promise",  # no releases=
    }, bad.stdout[-3000:]
    assert re.search(r"PASSED|passed", bad.stdout)  # the parts it does keep (its twin, its argument checks)


TEMPLATE = ROOT / "examples" / "template" / "private_etc.py"


def test_the_template_plugin_passes_the_contract_and_a_plan_that_ends_early_says_why(tmp_path):
    # the README's template is complete: every part of the contract runs on it and passes
    good = _contract(f"{TEMPLATE}:ALGORITHM", "private_etc")
    assert good.returncode == 0, good.stdout[-3000:]
    assert re.search(r"\b8 passed\b", good.stdout) and "skipped" not in good.stdout, good.stdout[-3000:]
    # the same plugin whose audit horizon stops at the last exploration pull, before its one release
    short = tmp_path / "short_plan.py"
    short.write_text(TEMPLATE.read_text().replace('return 2 * params["m"] + 1, None', 'return 2 * params["m"], None'))
    bad = _contract(f"{short}:ALGORITHM", "private_etc and audit")
    assert bad.returncode == 1, bad.stdout[-3000:]
    assert "the plan ends before the algorithm releases anything" in bad.stdout, bad.stdout[-3000:]


def test_the_audit_says_when_its_horizon_ends_before_any_release(example):
    early = audit_algorithm("dpse_halving", 1.0, 50, seed=2, horizon=8)  # DP-SE's first epoch: > 8 pulls
    assert NO_RELEASE.format(8) in early.notes and early.verdict == "consistent"
    assert NO_RELEASE.format(8) not in audit_algorithm("dpse_halving", 1.0, 50, seed=2).notes


def test_the_cross_paper_notebook_counts_the_plugin_it_draws(example):
    config = configfile.prepare(smoke_config())
    settings = paper_settings(config, "crosspaper", expand(config)[1]["crosspaper"])
    built_in = [n for n, a in registry.ALGORITHMS.items() if a.kind == "regret" and n not in plugins.PLUGINS]
    text = notebook.study_summary(settings).data
    assert text.startswith(
        f"{len(built_in) + 1} regret algorithms ({len(built_in)} of the papers, plus the "
        f"plugin {example.label}) on 7 instances, ε ∈ {{"
    ), text
    # the notebook states no count of its own
    cells = (ROOT / "notebooks" / "crosspaper.ipynb").read_text(encoding="utf-8")
    assert not re.search(r"\b(eleven|twelve|thirteen|\d+) regret algorithms", cells, re.I)
