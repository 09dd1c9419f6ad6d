"""The ``dpbandits`` command: help of every command, a tiny simulation, exit codes and one-line errors."""

import importlib
import os
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import dpbandits
from dpbandits import cli
from dpbandits.audit import cli as audit_cli
from dpbandits.pipeline import gendocs
from dpbandits.pipeline.io import load_npz

ROOT = Path(__file__).resolve().parents[1]
ENV = {**os.environ, "PYTHONPATH": str(ROOT / "src")}


def _command() -> list[str]:
    """The installed console script beside this interpreter (the README's install puts it there), else
    ``python -m dpbandits.cli`` (an environment installed before the script was declared)."""
    exe = shutil.which("dpbandits", path=str(Path(sys.executable).parent))
    return [exe] if exe else [sys.executable, "-m", "dpbandits.cli"]


def run(*args, cwd=ROOT) -> subprocess.CompletedProcess:
    return subprocess.run([*_command(), *args], cwd=cwd, env=ENV, capture_output=True, text=True, timeout=300)


def test_the_console_script_is_declared():
    scripts = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["scripts"]
    module, func = scripts["dpbandits"].split(":")
    assert getattr(importlib.import_module(module), func) is cli.main


def test_help_lists_every_command():
    proc = run("--help")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith("usage: dpbandits")
    assert all(f"\n  {name} " in proc.stdout for name in cli.COMMANDS), proc.stdout


@pytest.mark.parametrize("name", list(cli.COMMANDS))
def test_help_of_each_command(name, capsys):
    with pytest.raises(SystemExit) as exc:
        cli.main([name, "--help"])
    assert exc.value.code == 0
    assert capsys.readouterr().out.startswith(f"usage: dpbandits {name} ")


@pytest.mark.parametrize("args", [[], ["nosuch"], ["--nosuch"]])
def test_a_missing_or_unknown_command_is_a_usage_error(args, capsys):
    with pytest.raises(SystemExit) as exc:
        cli.main(args)
    assert exc.value.code == 2 and "dpbandits: error:" in capsys.readouterr().err


def test_simulate_saves_what_the_library_computes(tmp_path):
    out = tmp_path / "runs.npz"
    proc = run(
        "simulate",
        "dp_se",
        "--means",
        "0.9",
        "0.6",
        "--horizon",
        "2e3",
        "--epsilon",
        "0.5",
        "--runs",
        "3",
        "--seed",
        "7",
        "--param",
        "beta=0.9",
        "--out",
        str(out),
    )
    assert proc.returncode == 0, proc.stderr
    assert "final regret" in proc.stdout and f"wrote {out}" in proc.stdout
    meta, arrays = load_npz(out)
    ref = dpbandits.simulate("dp_se", [0.9, 0.6], 2000, 0.5, 3, 7, beta=0.9)
    np.testing.assert_array_equal(arrays["regret"], ref.regret)
    np.testing.assert_array_equal(arrays["pulls"], ref.pulls)
    assert meta["params"]["beta"] == 0.9


def test_simulate_takes_a_reward_law(tmp_path, capsys):
    for law, where in (
        ("beta", ["--means", "0.9", "0.6", "--rewards", "beta"]),
        ("uniform", ["--instance", "{means: [0.9, 0.6], rewards: uniform}"]),
    ):
        out = tmp_path / f"{law}.npz"
        assert cli.main(["simulate", "ucb", *where, "--horizon", "500", "--runs", "2", "--out", str(out)]) == 0
        meta, arrays = load_npz(out)
        ref = dpbandits.simulate("ucb", [0.9, 0.6], 500, None, 2, 0, rewards=law)
        assert meta["rewards"] == law and np.array_equal(arrays["reward_sum"], ref.reward_sum)


def test_simulate_csv_has_one_row_per_run(tmp_path, capsys):
    out = tmp_path / "sub" / "runs.csv"
    assert (
        cli.main(
            ["simulate", "ucb", "--instance", "{name: C2, k: 3}", "--horizon", "500", "--runs", "4", "--out", str(out)]
        )
        == 0
    )
    table = pd.read_csv(out)
    ref = dpbandits.simulate(
        "ucb", [float(m) for m in dpbandits.core.instances.means_for({"name": "C2", "k": 3})], 500, None, 4, 0
    )
    np.testing.assert_allclose(table["regret"], ref.regret[:, -1])
    assert list(table.columns) == ["run", "regret", "reward_sum", "pulls_0", "pulls_1", "pulls_2"]
    assert (table[["pulls_0", "pulls_1", "pulls_2"]].sum(axis=1) == 500).all()


def test_simulate_bai(capsys):
    assert (
        cli.main(
            [
                "simulate",
                "dp_bai",
                "--instance",
                "{name: two_arm, ratio: 10}",
                "--horizon",
                "500",
                "--epsilon",
                "1",
                "--runs",
                "5",
            ]
        )
        == 0
    )
    assert "success rate" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("args", "culprit"),
    [
        (["dp_se", "--means", "0.9", "nan", "--horizon", "100", "--epsilon", "1"], "means"),
        (["dp_se", "--means", "0.9", "0.5", "--horizon", "100", "--epsilon", "-1"], "epsilon"),
        (["dp_se", "--means", "0.9", "0.5", "--horizon", "100", "--epsilon", "1", "--param", "bogus=1"], "bogus"),
        (["nosuch", "--means", "0.9", "0.5", "--horizon", "100"], "nosuch"),
        (["dp_se", "--instance", "{name: C9, k: 3}", "--horizon", "100", "--epsilon", "1"], "C9"),
        (["dp_bai", "--means", "0.9", "0.5", "--horizon", "100", "--epsilon", "1"], "--instance"),
        (["dp_se", "--means", "0.9", "0.5", "--horizon", "1.5", "--epsilon", "1"], "--horizon"),
        (["dp_se", "--means", "0.9", "0.5", "--horizon", "100", "--epsilon", "1", "--out", "x.txt"], "--out"),
        (["dp_se", "--means", "0.9", "0.5", "--horizon", "100"], "--epsilon"),
        (["ucb", "--means", "0.9", "0.5", "--horizon", "100", "--rewards", "gauss"], "rewards="),
        (["ucb", "--instance", "{means: [0.9, 0.5], rewards: 2}", "--horizon", "100"], "rewards="),
        (
            ["ucb", "--instance", "{means: [0.9, 0.5], rewards: beta}", "--horizon", "9", "--rewards", "uniform"],
            "--rewards",
        ),
        (
            [
                "dp_bai",
                "--instance",
                "{name: two_arm, ratio: 10}",
                "--horizon",
                "99",
                "--epsilon",
                "1",
                "--rewards",
                "beta",
            ],
            "--rewards",
        ),
    ],
)
def test_simulate_bad_input_exits_2_naming_it(args, culprit, capsys):
    try:
        status = cli.main(["simulate", *args])
    except SystemExit as exc:  # argparse's own usage errors
        status = exc.code
    err = capsys.readouterr().err.strip().splitlines()
    assert status == 2
    assert err[-1].startswith("dpbandits simulate: error:") and culprit in err[-1], err
    assert "Traceback" not in "\n".join(err)


def test_bad_input_exit_code_of_the_process():
    proc = run("simulate", "dp_se", "--means", "0.9", "2", "--horizon", "100", "--epsilon", "1")
    assert proc.returncode == 2, proc.stderr
    assert proc.stderr.strip().splitlines() == [proc.stderr.strip()]  # one line, no traceback
    assert "means" in proc.stderr


def test_python_m_runs_the_same_command():
    proc = subprocess.run(
        [sys.executable, "-m", "dpbandits.bench", "--k", "1"],
        cwd=ROOT,
        env=ENV,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 2 and "dpbandits bench: error: --k values must be >= 2" in proc.stderr, proc.stderr


def test_config_validate(capsys):
    assert cli.main(["config", "--validate", str(ROOT / "config" / "smoke.yaml")]) == 0
    assert capsys.readouterr().out.startswith("valid: ")


def test_config_validate_names_the_bad_key(tmp_path, capsys):
    bad = tmp_path / "bad.yaml"
    bad.write_text("scale: {max_runs: 0}\n")
    assert cli.main(["config", "--validate", str(bad)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("dpbandits config: error: scale.max_runs") and err.count("\n") == 1, err
    assert cli.main(["config", "--validate", str(tmp_path / "missing.yaml")]) == 2
    assert "missing.yaml" in capsys.readouterr().err


def test_config_check_fails_on_a_stale_readme(tmp_path, monkeypatch):
    readme = tmp_path / "README.md"
    readme.write_text(gendocs.README.read_text())
    monkeypatch.setattr(gendocs, "README", readme)
    for folder in gendocs.README_HEAD:  # the algorithm folders' READMEs, copied
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "README.md").write_text((gendocs.PACKAGE / folder / "README.md").read_text())
    monkeypatch.setattr(gendocs, "PACKAGE", tmp_path)
    assert cli.main(["config", "--check"]) == 0
    readme.write_text(readme.read_text().replace("| `seed` |", "| `sed` |"))
    assert cli.main(["config", "--check"]) == 1
    assert cli.main(["config"]) == 0 and cli.main(["config", "--check"]) == 0  # regenerated
    listed = tmp_path / "bandits" / "README.md"  # an algorithm missing from its folder's list
    listed.write_text("".join(line for line in listed.read_text().splitlines(True) if "`dp_se.py`" not in line))
    assert cli.main(["config", "--check"]) == 1
    assert cli.main(["config"]) == 0 and "`dp_se.py`" in listed.read_text()


def _audit_table(real="consistent", control="violation"):
    return pd.DataFrame(
        [
            {
                "algorithm": "dp_se",
                "engine": "twin",
                "role": "real",
                "verdict": real,
                "epsilon": 1.0,
                "loss_lower": 1.5 if real == "violation" else 0.2,
                "loss_estimate": 1.6 if real == "violation" else 0.3,
                "noise_factor": 1.0,
            },
            {
                "algorithm": "dp_se",
                "engine": "twin",
                "role": "control",
                "verdict": control,
                "epsilon": 1.0,
                "loss_lower": 3.0,
                "loss_estimate": 3.2,
                "noise_factor": 0.02,
            },
        ]
    )


def test_audit_check_exits_1_on_a_failed_check(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(audit_cli, "to_markdown", lambda df, **kw: "report")
    base = ["audit", "--out", str(tmp_path), "--algorithms", "dp_se", "--baseline", str(tmp_path / "baseline.json")]
    monkeypatch.setattr(audit_cli, "audit_all", lambda *a: _audit_table())
    assert cli.main([*base, "--write-baseline"]) == 0  # a baseline of the good table: no drift from it
    for table, failed in [
        (_audit_table(), False),
        (_audit_table(real="violation"), True),
        (_audit_table(control="consistent"), True),
    ]:
        monkeypatch.setattr(audit_cli, "audit_all", lambda *a, table=table: table)
        assert cli.main(base) == 0  # no --check: report only
        assert cli.main([*base, "--check"]) == int(failed)
        err = capsys.readouterr().err
        assert ("dp_se (twin)" in err) == failed, err


def test_no_pipeline_rule_depends_on_the_simulate_command():
    """The rules take the modules their commands import as inputs; ``python -m dpbandits.audit`` goes through
    dpbandits.cli, which must not reach dpbandits.cli.simulate (editing it would rerun the audit)."""
    from dpbandits.pipeline import sources

    commands = (
        "dpbandits.audit.__main__",
        "dpbandits.audit.cli",
        "dpbandits.pipeline.configfile",
        "dpbandits.pipeline.entry",
    )
    for module in (*commands, "dpbandits.pipeline.entry_bai"):
        reached = sources.closure(module)
        assert not any(path.endswith("cli/simulate.py") for path in reached), module
    assert any(path.endswith("dpbandits/cli/__init__.py") for path in sources.closure("dpbandits.audit.__main__"))
