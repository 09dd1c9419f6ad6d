"""Determinism across --cores and chunk sizes, and resumption after SIGINT / SIGKILL (smoke scale)."""

import base64
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest
import yaml
from test_pipeline import _copy_repo, _env, _run

from dpbandits.pipeline.io import load_groups, load_member, members

pytestmark = pytest.mark.pipeline


def smk(repo: Path, name: str, *args, **config):
    """Snakemake on the smoke config plus ``config`` (written to ``name``.yaml); flags before the configfiles."""
    (repo / f"{name}.yaml").write_text(yaml.safe_dump(config))
    return [sys.executable, "-m", "snakemake", *args, "--configfile", "config/smoke.yaml", f"{name}.yaml"]


def _sims(results: Path) -> dict:
    """{cid: {epsilon: (regret, pulls, reward_sum)}} with runs concatenated across chunks."""
    files: dict[str, list[tuple[int, Path]]] = {}
    for path in results.glob("sims/*/*/*.npz"):
        first_run = int(path.stem.removeprefix("runs").split("-")[0])
        for cid in members(path):
            files.setdefault(cid, []).append((first_run, path))
    out = {}
    for cid, paths in files.items():
        ordered = [p for _, p in sorted(paths)]
        out[cid] = {e: (r.regret, r.pulls, r.reward_sum) for e, r in load_groups(ordered, cid).items()}
    return out


@pytest.fixture(scope="module")
def repo(tmp_path_factory):
    return _copy_repo(tmp_path_factory.mktemp("rel"))


def test_results_identical_across_cores_and_chunk_sizes(repo):
    def figs(results):
        return [f"{results}/figures/tossou2016/fig2a.csv", f"{results}/figures/tossou2016/fig2c.csv"]

    _run(smk(repo, "one", *figs("r1"), "--cores", "1", results="r1", chunk_runs={"default": 4}), repo)
    _run(smk(repo, "two", *figs("r2"), "--cores", "2", results="r2", chunk_runs={"default": 1}), repo)
    a, b = _sims(repo / "r1"), _sims(repo / "r2")
    assert a.keys() == b.keys() and len(a) > 0
    for cid in a:
        for eps in a[cid]:
            for x, y in zip(a[cid][eps], b[cid][eps], strict=True):
                np.testing.assert_array_equal(x, y)
    # the figures' tables are byte-identical too
    c1 = sorted((repo / "r1").glob("figures/tossou2016/*.csv"))
    assert [p.read_bytes() for p in c1] == [(repo / "r2" / p.relative_to(repo / "r1")).read_bytes() for p in c1]


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGKILL])
def test_interrupted_run_resumes_without_recomputing(repo, sig):
    results = f"res_{sig.name}"
    cmd = smk(
        repo,
        results,
        f"{results}/figures/tossou2016/fig2c.png",
        "--cores",
        "2",
        results=results,
        chunk_runs={"default": 1},
    )
    proc = subprocess.Popen(
        cmd, cwd=repo, env=_env(repo), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True
    )
    sims = repo / results / "sims"
    deadline = time.time() + 240
    while time.time() < deadline and len(list(sims.glob("*/*/*.npz"))) < 6:
        time.sleep(0.2)
    os.killpg(proc.pid, sig)
    # SIGINT lets Snakemake stop its running jobs first: over a minute once on the 2-core machine under the suite's load
    proc.wait(timeout=180)
    # chunks whose job Snakemake recorded as finished (a job interrupted after its atomic rename but
    # before Snakemake recorded it stays marked incomplete and is rightly redone)
    markers = (repo / ".snakemake" / "incomplete").glob("*")
    incomplete = {
        base64.urlsafe_b64decode(f.name).decode() for f in markers if f.is_file() and f.name != "migration_underway"
    }
    done = {p: p.stat().st_mtime_ns for p in sims.glob("*/*/*.npz") if str(p.relative_to(repo)) not in incomplete}
    assert done, "no chunk finished before the interrupt"
    for p in done:  # every finished job's file is complete and readable
        assert all(load_member(p, cid)[1]["regret"].size for cid in members(p))
    if sig == signal.SIGKILL:  # a killed Snakemake cannot release its lock (documented in README)
        _run([*cmd, "--unlock"], repo)
    _run(cmd, repo)  # the same command finishes the run
    for p, mtime in done.items():
        assert p.stat().st_mtime_ns == mtime, f"{p} was recomputed"
    assert (repo / results / "figures" / "tossou2016" / "fig2c.png").stat().st_size > 0


def test_a_corrupt_simulation_file_is_reported_not_plotted(repo):
    """A truncated result file (e.g. from a full disk) stops the figure with its path; deleting it and
    rerunning the same command redoes it."""
    results = "res_corrupt"
    target = f"{results}/figures/tossou2016/fig2c.png"
    cmd = smk(repo, results, target, "--cores", "2", results=results)
    _run(cmd, repo)
    victim = sorted((repo / results / "sims").glob("*/*/*.npz"))[0]
    (repo / target).unlink()
    victim.write_bytes(victim.read_bytes()[:100])
    out = subprocess.run(cmd, cwd=repo, env=_env(repo), capture_output=True, text=True)
    log = out.stdout + out.stderr + "".join(p.read_text() for p in (repo / results / "logs").rglob("*.log"))
    assert out.returncode != 0 and not (repo / target).exists()
    assert f"{victim.relative_to(repo)}: corrupt or foreign result file" in log
    victim.unlink()
    _run(cmd, repo)
    assert (repo / target).stat().st_size > 0 and members(victim)
