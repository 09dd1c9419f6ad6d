"""One paper of the smoke pipeline on a real one-node SLURM cluster without job accounting, through the project's
profile with the account and partition the README shows: the jobs get the profile's resources and the results
are the same, bit for bit, as a local run's."""

import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
import yte
from _slurm import Cluster, install
from test_pipeline import _copy_repo, _env

pytestmark = pytest.mark.pipeline

ROOT = Path(__file__).resolve().parents[1]
TARGET = "tossou2016"
ACCOUNT = "dpbtest"
SMOKE = ["--configfile", "config/smoke.yaml", "--config"]  # --config last: results=<folder> follows
SKIP_DIRS = {"logs", "benchmarks"}  # timings
SKIP_EXT = {".pdf", ".png", ".ipynb", ".html"}  # embed dates or run times


@pytest.fixture(scope="module")
def cluster():
    if os.geteuid() != 0:
        pytest.skip("a SLURM test cluster needs root")
    reason = install()
    if reason:
        pytest.skip(reason)
    c = Cluster(Path(tempfile.mkdtemp(prefix="dpb-slurm-")), cpus=os.cpu_count() or 1)
    try:
        c.start()
        yield c
    finally:
        c.stop()  # raises if a process is left
    shutil.rmtree(c.root)


def _contents(results: Path) -> dict:
    """{relative path: bytes} of the result files that must not depend on where they were computed (.npz archives
    included: numpy dates every member 1980-01-01)."""
    return {
        str(f.relative_to(results)): f.read_bytes()
        for f in sorted(results.rglob("*"))
        if f.is_file() and f.relative_to(results).parts[0] not in SKIP_DIRS and f.suffix not in SKIP_EXT
    }


def _jobs(cluster) -> list[dict]:
    """Every job the controller knows, as {field: value} from `scontrol show job --oneliner`."""
    text = cluster.run("scontrol", "show", "job", "--oneliner").stdout
    return [dict(re.findall(r"(\S+?)=(\S*)", line)) for line in text.splitlines() if line.strip()]


def _minutes(limit: str) -> int:
    """Minutes of a SLURM time limit such as 06:00:00 or 1-00:00:00."""
    days, _, hms = limit.rpartition("-")
    h, m, s = map(int, hms.split(":"))
    return int(days or 0) * 1440 + h * 60 + m + (s > 0)


def test_account_and_partition_join_the_profile_resources(tmp_path):
    """No cluster needed: the planned jobs carry the environment's account and partition beside the profile's
    runtime, memory and CPUs."""
    env = {**_env(ROOT), "SBATCH_ACCOUNT": "acct1", "SBATCH_PARTITION": "part1"}
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "snakemake",
            TARGET,
            "--profile",
            "workflow/profiles/slurm",
            "--dry-run",
            "--printshellcmds",  # the full job blocks (the default logger prints one line per job)
            *SMOKE,
            f"results={tmp_path}",
        ],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
    )
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    resources = re.findall(r"^    resources: (.*)$", proc.stdout, re.M)
    assert resources
    for line in resources:
        found = dict(re.findall(r"(\w+)=([^,\s]+)", line))
        assert {"runtime", "mem_mb", "cpus_per_task"} <= found.keys(), line
        assert (found.get("slurm_account"), found.get("slurm_partition")) == ("acct1", "part1"), line


def test_a_paper_on_slurm_matches_a_local_run(cluster, tmp_path):
    repo = _copy_repo(tmp_path)
    env = _env(repo)
    snakemake = [sys.executable, "-m", "snakemake", TARGET]
    local = subprocess.run(
        [*snakemake, "--cores", "2", *SMOKE, "results=results_local"],
        cwd=repo,
        env=env,
        capture_output=True,
        text=True,
        timeout=1800,
    )
    assert local.returncode == 0, local.stderr[-3000:]
    # the README's command; the short first status check only saves test time
    slurm_env = {**env, **cluster.client_env, "SBATCH_ACCOUNT": ACCOUNT, "SBATCH_PARTITION": cluster.partition}
    proc = subprocess.run(
        [
            *snakemake,
            "--profile",
            "workflow/profiles/slurm",
            "--slurm-init-seconds-before-status-checks",
            "2",
            *SMOKE,
            "results=results_slurm",
        ],
        cwd=repo,
        env=slurm_env,
        capture_output=True,
        text=True,
        timeout=1800,
    )
    log = proc.stdout[-3000:] + proc.stderr[-5000:]
    assert proc.returncode == 0, log

    jobs = _jobs(cluster)
    assert jobs and all(j["JobState"] == "COMPLETED" for j in jobs), [(j["JobId"], j["JobState"]) for j in jobs]
    assert {j["Account"] for j in jobs} == {ACCOUNT} and {j["Partition"] for j in jobs} == {cluster.partition}
    with open(repo / "workflow/profiles/slurm/config.yaml") as fh:
        profile = yte.process_yaml(fh, require_use_yte=True)
    by_rule = {j["Comment"].removeprefix("rule_").split("_wildcards_")[0]: j for j in jobs}
    notebook, sims = by_rule["notebook"], by_rule["sims_simulate"]  # set-resources of a rule and of a group
    expected = {**profile["default-resources"], **profile["set-resources"]["notebook"]}
    assert (_minutes(notebook["TimeLimit"]), notebook["MinMemoryNode"], notebook["CPUs/Task"]) == (
        expected["runtime"],
        f"{expected['mem_mb']}M",
        str(expected["cpus_per_task"]),
    ), notebook
    width = int(sims["CPUs/Task"])  # simulations the group job runs side by side
    simulate = profile["set-resources"]["simulate"]
    assert sims["MinMemoryNode"] == f"{width * simulate['mem_mb']}M", sims
    assert _minutes(sims["TimeLimit"]) % simulate["runtime"] == 0, sims
    claims = by_rule[f"claims_{TARGET}"]  # a rule without resources of its own: the profile's defaults
    assert (_minutes(claims["TimeLimit"]), claims["MinMemoryNode"]) == (
        profile["default-resources"]["runtime"],
        f"{profile['default-resources']['mem_mb']}M",
    ), claims

    local_files, slurm_files = _contents(repo / "results_local"), _contents(repo / "results_slurm")
    assert any(k.endswith(".npz") for k in local_files) and any(k.endswith(".csv") for k in local_files)
    assert sorted(slurm_files) == sorted(local_files)
    assert [k for k in local_files if slurm_files[k] != local_files[k]] == []
