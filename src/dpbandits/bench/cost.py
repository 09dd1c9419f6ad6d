"""The pipeline's cost: per-job ns/pull estimates from the benchmark rows, the catalogue's jobs, the job
overhead, and the wall time on N cores (or a timed Snakemake run)."""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from ..core.instances import means_for
from ..core.laws import DEFAULT
from ..pipeline.catalogue.costs import pulls_per_run
from ..pipeline.catalogue.expand import expand
from ..pipeline.catalogue.jobs import plan_jobs

ROOT = Path(__file__).resolve().parents[3]  # repository root (Snakefile, config/)


def ns_per_pull(rows: list[dict], algorithm: str, k: int, rewards: str = DEFAULT) -> float | None:
    """ns/pull of ``algorithm`` at ``k`` arms under law ``rewards`` (the default law's if that one was not
    measured): linear in K between measured K, constant beyond them."""
    mine = [r for r in rows if r["algorithm"] == algorithm]
    law = rewards if any(r.get("rewards", DEFAULT) == rewards for r in mine) else DEFAULT
    pts = sorted((r["k"], r["fast_ns_per_pull"]) for r in mine if r.get("rewards", DEFAULT) == law)
    if not pts:
        return None
    ks, values = zip(*pts, strict=True)
    return float(np.interp(k, ks, values))


def catalogue_jobs(config: dict) -> list[dict]:
    """Every simulation job of the pipeline (:func:`plan_jobs`): algorithm, kind and its members'
    (K, pulls, reward law) (pulls 0 for BAI), plus the first member's spec."""
    sims, _ = expand(config)
    jobs = []
    for job in plan_jobs(config, sims)[0].values():
        members = [
            (
                means_for(s.instance).size if s.kind == "regret" else None,
                pulls_per_run(s) * (job.stop - job.start) if s.kind == "regret" else 0,
                s.instance.get("rewards", DEFAULT) if s.kind == "regret" else None,
            )
            for s in job.members
        ]
        first = job.members[0]
        jobs.append({"algorithm": job.algorithm, "kind": first.kind, "members": members, "spec": first.as_dict()})
    return jobs


def job_overhead(spec: dict, repeats: int = 3) -> float:
    """Seconds of one tiny simulation job run as the pipeline runs it (``python -m dpbandits.pipeline.entry``).

    The job is ``spec`` cut to horizon 1000 and one run: process start, imports, loading the compiled
    kernels from numba's cache, simulating and writing the chunk. Best of ``repeats``.
    """
    tiny = {**spec, "horizon": min(int(spec["horizon"]), 1000)}
    best = float("inf")
    with tempfile.TemporaryDirectory(prefix="dpbandits-bench-") as tmp:
        cmd = [
            sys.executable,
            "-m",
            "dpbandits.pipeline.entry",
            "--specs",
            json.dumps([tiny]),
            "--start",
            "0",
            "--stop",
            "1",
            "--out",
            f"{tmp}/chunk.npz",
            "--log",
            f"{tmp}/chunk.json",
        ]
        subprocess.run(cmd, check=True, capture_output=True)  # compiles into numba's cache if needed
        for _ in range(repeats):
            t0 = time.perf_counter()
            subprocess.run(cmd, check=True, capture_output=True)
            best = min(best, time.perf_counter() - t0)
    return best


def makespan(durations: list[float], cores: int) -> float:
    """Wall time of jobs scheduled longest first on ``cores`` cores (each job on the least-loaded core)."""
    loads = [0.0] * cores
    for d in sorted(durations, reverse=True):
        i = loads.index(min(loads))
        loads[i] += d
    return max(loads)


def pipeline_estimate(rows: list[dict], config: dict, cores: list[int], job_overhead_s: float) -> dict:
    """Core-seconds and wall time of the pipeline's simulation jobs from the measured ns/pull.

    Each regret job costs pulls x ns/pull(algorithm, K) + ``job_overhead_s``; BAI jobs and algorithms
    that were not benchmarked count ``job_overhead_s`` only and are listed as unmeasured. Collapsed
    kernels cost less per simulated pull at longer horizons, so their share is an upper bound. Wall
    time: jobs longest first, each on the least-loaded of N cores (Snakemake ``--cores N``).
    """
    per_alg: dict[str, dict] = {}
    durations = []
    for job in catalogue_jobs(config):
        entry = per_alg.setdefault(
            job["algorithm"], {"kind": job["kind"], "jobs": 0, "pulls": 0, "core_seconds": 0.0, "measured": True}
        )
        entry["jobs"] += 1
        seconds = job_overhead_s
        for k, pulls, law in job["members"]:
            entry["pulls"] += pulls
            ns = ns_per_pull(rows, job["algorithm"], k, law) if job["kind"] == "regret" else None
            if ns is None:
                entry["measured"] = False
            else:
                seconds += 1e-9 * ns * pulls
        entry["core_seconds"] += seconds
        durations.append(seconds)
    return {
        "job_overhead_s": job_overhead_s,
        "jobs": len(durations),
        "core_seconds": float(sum(durations)),
        "wall_seconds": {str(c): makespan(durations, c) for c in cores},
        "per_algorithm": per_alg,
        "unmeasured": sorted(a for a, e in per_alg.items() if not e["measured"]),
    }


def measure_pipeline(configfile: str, cores: str = "all") -> dict:
    """Run ``snakemake --cores`` into a scratch results directory and time it (wall seconds)."""
    scratch = tempfile.mkdtemp(prefix="dpbandits-bench-")
    cmd = [
        sys.executable,
        "-m",
        "snakemake",
        "--cores",
        cores,
        "--configfile",
        configfile,
        "--config",
        f"results={scratch}",
        "-q",
    ]
    t0 = time.perf_counter()
    proc = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True)
    wall = time.perf_counter() - t0
    return {
        "command": " ".join(cmd),
        "results": scratch,
        "returncode": proc.returncode,
        "wall_seconds": wall,
        "stderr_tail": proc.stderr[-2000:],
    }
