"""Packaging consistency: environment.yml mirrors pyproject.toml and the workflow's conda environment; .ci/run runs
the README's test command; the workflow is snakefmt-formatted and plans under the SLURM profile."""

import os
import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
import yaml
import yte

ROOT = Path(__file__).resolve().parents[1]


def _name(req: str) -> str:
    return re.split(r"[<>=!\[ ;]", req.strip(), maxsplit=1)[0].lower().replace("_", "-")


def test_environment_yml_lists_the_same_dependencies_as_pyproject():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    pip_deps = {_name(r): r for r in project["dependencies"]}
    for reqs in project["optional-dependencies"].values():
        pip_deps.update({_name(r): r for r in reqs if not r.startswith("dpbandits")})
    env = yaml.safe_load((ROOT / "environment.yml").read_text())
    conda = {_name(d): d for d in env["dependencies"] if isinstance(d, str) and _name(d) not in ("python", "pip")}
    assert set(conda) == set(pip_deps)
    for name, req in pip_deps.items():  # the same version bounds
        pins = re.sub(r"\s", "", req[len(name) :]).lstrip("[").split("]")[-1]
        assert pins.replace(" ", "") in conda[name].replace(" ", ""), (name, req, conda[name])


def test_workflow_conda_environment_matches_environment_yml():
    env = yaml.safe_load((ROOT / "environment.yml").read_text())
    workflow_env = yaml.safe_load((ROOT / "workflow/envs/dpbandits.yaml").read_text())
    assert workflow_env["dependencies"] == env["dependencies"] and workflow_env["channels"] == env["channels"]
    rules = "".join(p.read_text() for p in (ROOT / "workflow/rules").glob("*.smk"))
    actions = [b for b in re.split(r"^\s*rule\b", rules, flags=re.M)[1:] if "script:" in b or "shell:" in b]
    assert len(actions) >= 6 and all("conda:\n" in b and '"../envs/dpbandits.yaml"' in b for b in actions)


def test_workflow_is_snakefmt_formatted():
    proc = subprocess.run(
        [sys.executable, "-m", "snakefmt", "--check", "Snakefile", "workflow"], cwd=ROOT, capture_output=True, text=True
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_workflow_lints_clean():
    """``snakemake --lint`` finds nothing (it prints its findings, one block per rule, and no congratulation)."""
    proc = subprocess.run([sys.executable, "-m", "snakemake", "--lint"], cwd=ROOT, capture_output=True, text=True)
    out = proc.stdout + proc.stderr
    assert proc.returncode == 0 and "Congratulations, your workflow is in a good condition!" in out, out[-3000:]


def _readme_test_command() -> str:
    return re.search(r"# 2\. the tests\n(.+)\n", (ROOT / "README.md").read_text()).group(1)


def test_ci_runs_the_readme_test_command():
    test_cmd = _readme_test_command()
    assert "pip install" in test_cmd and "pytest" in test_cmd
    lines = (ROOT / ".ci" / "run").read_text().splitlines()
    # the whole command, verbatim, on its own line (an exit on failure may follow it)
    assert f"{test_cmd} || exit $?" in lines, lines


FAKE_PYTHON = """#!/bin/sh
if [ "$1 $2" = "-m venv" ]; then mkdir -p .venv/bin && touch .venv/bin/activate && exit 0; fi
echo "python $*" >> "$FAKE_LOG"
"""


@pytest.mark.parametrize(
    ("pip", "pytest_status", "ruff", "expected_rc", "ran"),
    [
        (1, 0, 0, 1, ["pip"]),  # a failed install: CI fails, and neither the tests nor the mutants run
        (0, 1, 0, 1, ["pip", "pytest"]),  # failing tests: CI fails, the mutant harness does not run
        (0, 0, 1, 1, ["pip", "pytest", "ruff check ."]),  # a lint finding: CI fails
        (0, 0, 0, 0, ["pip", "pytest", "ruff check .", "python tests/noise_mutants.py"]),
    ],
)
def test_ci_stops_on_a_failed_install_or_failing_tests(tmp_path, pip, pytest_status, ruff, expected_rc, ran):
    # .ci/run in a scratch checkout with fake python3/pip/pytest that log their calls and exit as told
    (tmp_path / ".ci").mkdir()
    shutil.copy(ROOT / ".ci" / "run", tmp_path / ".ci" / "run")
    (tmp_path / ".venv").mkdir()
    (tmp_path / ".venv" / "stale").write_text("left by an earlier run")
    fake, log = tmp_path / "bin", tmp_path / "calls.log"
    fake.mkdir()
    tools = {
        "python3": FAKE_PYTHON,
        "python": FAKE_PYTHON,
        "pip": f'#!/bin/sh\necho pip >> "$FAKE_LOG"\nexit {pip}\n',
        "pytest": f'#!/bin/sh\necho pytest >> "$FAKE_LOG"\nexit {pytest_status}\n',
        "ruff": f'#!/bin/sh\necho "ruff $*" >> "$FAKE_LOG"\nexit {ruff}\n',
    }
    for name, text in tools.items():
        (fake / name).write_text(text)
        (fake / name).chmod(0o755)
    env = {**os.environ, "PATH": f"{fake}:{os.environ['PATH']}", "FAKE_LOG": str(log)}
    proc = subprocess.run(["bash", ".ci/run"], cwd=tmp_path, env=env, capture_output=True, text=True)
    assert proc.returncode == expected_rc, proc.stdout + proc.stderr
    assert log.read_text().splitlines() == ran
    assert not (tmp_path / ".venv" / "stale").exists()  # the environment was made anew


def test_python_is_ruff_formatted():
    """``ruff format`` (the pre-commit hook) leaves every Python file as it is."""
    proc = subprocess.run(
        [sys.executable, "-m", "ruff", "format", "--check", "."], cwd=ROOT, capture_output=True, text=True
    )
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]


HOOK_CASES = [  # (hook, file, clean text, text the hook must refuse)
    ("ruff-check", "lint.py", "import os\n\nprint(os.sep)\n", "import os\n"),
    ("ruff-format", "fmt.py", 'x = {"a": 1}\n', 'x = {"a":1}\n'),
    (
        "snakefmt",
        "Snakefile",
        'rule a:\n    output:\n        "x",\n    shell:\n        "touch {output}"\n',
        'rule a:\n    output: "x"\n    shell: "touch {output}"\n',
    ),
]


@pytest.mark.parametrize(("hook", "name", "clean", "bad"), HOOK_CASES)
def test_pre_commit_hooks_refuse_what_the_lint_refuses(tmp_path, hook, name, clean, bad):
    """Each hook of .pre-commit-config.yaml passes a clean file and fails on a finding (in a scratch repository
    with the project's config and pyproject.toml; the hooks run this environment's tools, offline)."""
    for f in (".pre-commit-config.yaml", "pyproject.toml"):
        shutil.copy(ROOT / f, tmp_path / f)
    env = {
        **os.environ,
        "PRE_COMMIT_HOME": str(tmp_path / ".cache"),
        "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}",
    }
    subprocess.run(["git", "init", "-q"], cwd=tmp_path, check=True)
    for text, expected in [(clean, 0), (bad, 1)]:
        (tmp_path / name).write_text(text)
        subprocess.run(["git", "add", "-A"], cwd=tmp_path, check=True)
        proc = subprocess.run(
            [sys.executable, "-m", "pre_commit", "run", hook, "--files", name],
            cwd=tmp_path,
            env=env,
            capture_output=True,
            text=True,
        )
        assert proc.returncode == expected, (text, proc.stdout + proc.stderr)


@pytest.mark.pipeline
def test_slurm_profile_plans_the_full_dag():
    """snakemake-executor-plugin-slurm resolves every job's resources and groups the simulations."""
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "snakemake",
            "--profile",
            "workflow/profiles/slurm",
            "--dry-run",
            "--printshellcmds",  # the full job blocks (the default logger prints one line per job)
            "--config",
            "results=_slurm_dryrun",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT / "src")},
    )
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    out = proc.stdout
    jobs = re.findall(r"^rule (\w+):\n((?:    .*\n)+)", out, re.M)
    assert jobs
    with open(ROOT / "workflow/profiles/slurm/config.yaml") as fh:  # a YTE template, as Snakemake reads it
        profile = yte.process_yaml(fh, require_use_yte=True)
    for rule, body in jobs:
        resources = dict(re.findall(r"(\w+)=([^,\s]+)", re.search(r"resources: (.*)", body).group(1)))
        expected = {**profile["default-resources"], **profile["set-resources"].get(rule, {})}
        if rule not in ("simulate", "notebook"):  # rules that set runtime/mem_mb themselves
            expected = {k: v for k, v in expected.items() if k not in ("runtime", "mem_mb")}
        assert {k: str(v) for k, v in expected.items()}.items() <= resources.items(), (rule, resources)
    assert re.search(r"Group job sims", out)
    counts = dict(re.findall(r"^(\w+)\s+(\d+)\s*$", out, re.M))
    sys.path.insert(0, str(ROOT / "src"))
    from dpbandits.pipeline import configfile, readings
    from dpbandits.pipeline.catalogue.expand import expand
    from dpbandits.pipeline.catalogue.jobs import plan_jobs

    config = configfile.load([ROOT / "config" / "config.yaml"])
    sims, figures = expand(config)
    readings.expand_readings(config, sims)  # adds the readings' configurations, as workflow/rules/common.smk does
    assert int(counts["simulate"]) == len(plan_jobs(config, sims)[0])
    assert all(int(counts[f"figures_{paper}"]) == 1 for paper in figures)
