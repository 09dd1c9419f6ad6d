"""Every command of README.md works when run in the order written, on a fresh clone, at smoke scale.

The README's ``bash`` code blocks, and its ``python`` blocks, are read in order and run one command at a time
(``&&`` lists are split, comments dropped) in a fresh ``git clone`` of this repository: its committed state,
what a newcomer gets. A new README command runs by default; the only exceptions are the tables below, each
entry with its reason, and an entry that no longer matches any command fails the test:

- ``SKIP``: commands this test cannot run here;
- ``ADAPT``: commands it runs with arguments added (the smoke scale, pytest collecting only).

The commands run in the current environment: the clone's ``src/`` first on ``PYTHONPATH``, this interpreter's
``bin/`` first on ``PATH``. ``pip install ./<folder>`` installs into a folder of the test (``--target``, put on
``PYTHONPATH``) and never into the environment itself. The target is an argument, not ``PIP_TARGET``: pip's
build-isolation subprocess inherits the environment, and pip 23.2 (what ``python3 -m venv`` bundles) refuses
``PIP_TARGET`` there ("Cannot set --home and --prefix together").

The first smoke run computes everything, so the later pipeline commands mostly find their outputs present.
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SMOKE = ["--configfile", "config/smoke.yaml"]
SITE = "{site}"  # replaced by the test's install folder

SKIP = {  # regex matched against one command: why it is not run here
    r"^python3 -m venv \.venv$": "creates the environment the test already runs in",
    r"^\. \.venv/bin/activate$": "activates that environment",
    r"^pip install (-c \S+ )?-e ": "installs the package itself: the clone's src/ is first on PYTHONPATH instead",
    r"^('?SBATCH_\w+=\S+'? )*snakemake --profile workflow/profiles/slurm": "submits jobs to a SLURM cluster "
    "(tests/test_slurm.py runs one)",
}
ADAPT = [  # (regex, arguments appended, why)
    (r"^snakemake (?!.*--configfile)(?!.*--profile)", SMOKE, "smoke scale: the papers' scale takes hours"),
    (
        r"^dpbandits audit ",
        ["--trials", "1000"],
        "smoke scale: the smoke config's 1000 trials per table, not the default 4000",
    ),
    (
        r"^pip install \./",
        ["--target", SITE, "--no-deps"],
        "installs into the test's folder (on PYTHONPATH), not into the environment the suite runs in",
    ),
    (
        r"^(\w+=\S+ )*pytest ",
        ["--collect-only", "-q", "-p", "no:cacheprovider"],
        "collects only (imports every module and plugin): the suite, of which this test is part, and the plugins' "
        "contract runs (tests/test_plugins.py) run them in full",
    ),
]
PYTHON_SKIP = {
    r"^class HalvingDPSE\(DPSE\):": "an excerpt of examples/dpse_halving/dpse_halving.py, which the example "
    "plugin's tests load",
}
OPERATORS = {"&&", "||", "|", ";", ">", ">>", "<", "2>&1"}


def blocks(text: str) -> list[tuple[str, str]]:
    """(language, body) of every fenced code block, in order."""
    return re.findall(r"^```(\w*)\n(.*?)^```", text, flags=re.M | re.S)


def commands(body: str) -> list[str]:
    """The commands of a shell block in order: continuation lines joined, comments dropped, ``&&`` split."""
    out = []
    for line in body.replace("\\\n", " ").splitlines():
        tokens = shlex.split(line, comments=True)
        while tokens:
            n = tokens.index("&&") if "&&" in tokens else len(tokens)
            out.append(" ".join(t if t in OPERATORS else shlex.quote(t) for t in tokens[:n]))
            tokens = tokens[n + 1 :]
    return out


def plan(readme: str) -> list[tuple[str, str, str]]:
    """(kind, what runs, the README's text) of each README step in order: kind "shell", "python" or "skip"."""
    steps = []
    for lang, body in blocks(readme):
        if lang == "python":
            reason = next((why for pattern, why in PYTHON_SKIP.items() if re.search(pattern, body, re.M)), None)
            steps.append(("skip", reason, body) if reason else ("python", body, body))
        elif lang in ("bash", "sh", "shell"):
            for command in commands(body):
                reason = next((why for pattern, why in SKIP.items() if re.search(pattern, command)), None)
                if reason:
                    steps.append(("skip", reason, command))
                    continue
                run = command
                for pattern, extra, _ in ADAPT:
                    if re.search(pattern, command):
                        run = f"{run} {shlex.join(extra)}"
                steps.append(("shell", run, command))
    return steps


def _env(clone: Path, site: Path) -> dict:
    env = {k: v for k, v in os.environ.items() if k != "DPBANDITS_PLUGINS" and not k.startswith("PIP_")}
    return {
        **env,
        "PYTHONUNBUFFERED": "1",
        "PYTHONPATH": os.pathsep.join([str(clone / "src"), str(site)]),
        "PATH": os.pathsep.join([str(Path(sys.executable).parent), env.get("PATH", "")]),
        "PIP_DISABLE_PIP_VERSION_CHECK": "1",
    }


def test_the_tables_match_readme_commands():
    steps = plan((ROOT / "README.md").read_text(encoding="utf-8"))
    shell = [text for kind, _, text in steps if kind in ("shell", "skip")]
    for pattern in [*SKIP, *(p for p, _, _ in ADAPT)]:
        assert any(re.search(pattern, c) for c in shell), f"no README command matches {pattern!r}: drop it"
    for pattern in PYTHON_SKIP:
        assert any(re.search(pattern, t, re.M) for k, _, t in steps if k == "skip"), pattern
    runnable = [run for kind, run, _ in steps if kind == "shell"]
    assert any(c.startswith("snakemake") for c in runnable) and any("pip install ./" in c for c in runnable)
    for command in runnable:  # a placeholder cannot run: such a command needs a SKIP entry with its reason
        assert not re.search(r"<\w+>", command), f"{command!r} has a placeholder: add it to SKIP with a reason"


def test_commands_split_like_the_shell():
    assert commands("# a comment\npython3 -m venv .venv && . .venv/bin/activate && pytest -n 2  # tests\n") == [
        "python3 -m venv .venv",
        ". .venv/bin/activate",
        "pytest -n 2",
    ]
    assert commands("snakemake --cores all \\\n  crosspaper --config 'plugins=[\"a b.py:X\"]'\n") == [
        "snakemake --cores all crosspaper --config 'plugins=[\"a b.py:X\"]'"
    ]
    assert commands("A=1 pytest x -k y\n") == ["A=1 pytest x -k y"]


@pytest.mark.pipeline
def test_every_readme_command_runs_in_order_on_a_fresh_clone(tmp_path):
    clone, site = tmp_path / "clone", tmp_path / "site"
    subprocess.run(["git", "clone", "-q", str(ROOT), str(clone)], check=True, capture_output=True)
    env = _env(clone, site)
    ran = []
    for kind, run, _ in plan((clone / "README.md").read_text(encoding="utf-8")):
        if kind == "skip":
            continue
        run = run.replace(shlex.quote(SITE), shlex.quote(str(site))) if kind == "shell" else run
        args = ["bash", "-c", f"set -eo pipefail\n{run}"] if kind == "shell" else [sys.executable, "-c", run]
        proc = subprocess.run(args, cwd=clone, env=env, capture_output=True, text=True)
        label = run if kind == "shell" else f"README python block:\n{run}"
        output = f"{proc.stdout[-3000:]}\n{proc.stderr[-3000:]}"
        assert proc.returncode == 0, f"{label}\nfailed ({proc.returncode}):\n{output}"
        ran.append(label)
        if kind == "shell" and "pytest" in run and " -k " in run:  # the plugin is collected, not silently absent
            words = shlex.split(run)
            name = words[words.index("-k") + 1]
            assert f"[{name}" in proc.stdout, f"{run}: no test of {name!r} collected\n{proc.stdout[-2000:]}"
    results = clone / "results"
    assert (results / "figures" / "crosspaper" / "summary").is_dir() and (results / "claims.md").is_file()
    assert (results / "notebooks" / "crosspaper.html").is_file()
    assert (site / "dpse_halving.py").is_file(), "pip install did not install the example into the test's folder"
    assert len(ran) >= 8, ran
