"""Benchmark of the regret kernels: ns per pull, speed-up over the reference twins, memory, pipeline cost.

``python -m dpbandits.bench`` times, for every regret algorithm and every K, the fast path
(:func:`dpbandits.simulate`, best of ``--repeats`` after a warm-up call that compiles) and its
``dpbandits.reference`` twin (short horizon, same run) on Sajed's instance C2 with epsilon 0.5 and the
library's default parameters, under each reward law of ``--laws`` (:mod:`dpbandits.laws`; the twin is timed
under the default law only, where the ratio is stated). Collapsed kernels (``Algorithm.collapsed``) simulate
many pulls per unit of work; their figure is ns per *simulated* pull. From the measured ns/pull and the
configuration catalogue it estimates the cost of the whole pipeline; ``--measure-pipeline`` also runs and
times Snakemake.
Writes JSON (``--out``) and prints markdown tables.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import subprocess
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

import numpy as np

from . import plugins, reference, registry
from .catalogue.costs import pulls_per_run
from .catalogue.expand import expand
from .catalogue.jobs import plan_jobs
from .checkpoints import default_checkpoints
from .instances import means_for, sajed_instance
from .laws import DEFAULT, LAWS
from .simulate import simulate, versions

EPSILON = 0.5
INSTANCE = "C2"
SEED = 20240101
ROOT = Path(__file__).resolve().parents[2]  # repository root (Snakefile, config/)


def regret_algorithms() -> list[str]:
    """Names of the registered regret algorithms, sorted."""
    return sorted(name for name, alg in registry.ALGORITHMS.items() if alg.kind == "regret")


def instance_means(k: int) -> np.ndarray:
    """float64[k]: Sajed's instance C2 with k arms."""
    return np.array([float(m) for m in sajed_instance(INSTANCE, k)])


def load() -> tuple[float, float, float]:
    """System load averages (1, 5, 15 min)."""
    return os.getloadavg()


def time_fast(name: str, means: np.ndarray, horizon: int, runs: int, repeats: int, rewards: str = DEFAULT) -> dict:
    """Best-of-``repeats`` seconds of ``simulate(name, means, horizon, EPSILON, runs, rewards=rewards)`` and its
    memory.

    A first call on a short horizon compiles the kernels. Memory comes from one more call: the peak of
    Python-tracked allocations (``tracemalloc``, numpy arrays) and the growth of the process's peak RSS.
    """
    simulate(name, means, min(horizon, 2000), EPSILON, runs, SEED, rewards=rewards)  # warm-up: compile
    best = float("inf")
    for _ in range(repeats):
        t0 = time.perf_counter()
        simulate(name, means, horizon, EPSILON, runs, SEED, rewards=rewards)
        best = min(best, time.perf_counter() - t0)
    rss0 = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    tracemalloc.start()
    simulate(name, means, horizon, EPSILON, runs, SEED, rewards=rewards)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    rss1 = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return {
        "fast_seconds": best,
        "fast_pulls": horizon * runs,
        "fast_ns_per_pull": 1e9 * best / (horizon * runs),
        "tracemalloc_peak_kib": peak / 1024,
        "maxrss_delta_kib": float(rss1 - rss0),
    }


def time_reference(name: str, means: np.ndarray, horizon: int, repeats: int) -> dict:
    """Best-of-``repeats`` seconds and ns per pull of one run of the reference twin (``None`` if none)."""
    if registry.get(name).reference is None:
        return {"reference_seconds": None, "reference_ns_per_pull": None}
    seconds = float("inf")
    for _ in range(repeats):
        t0 = time.perf_counter()
        reference.simulate(name, means, horizon, EPSILON, 1, SEED)
        seconds = min(seconds, time.perf_counter() - t0)
    return {"reference_seconds": seconds, "reference_ns_per_pull": 1e9 * seconds / horizon}


def bench(
    algorithms,
    ks,
    horizon: int,
    reference_horizon: int,
    runs: int,
    repeats: int,
    reference_repeats: int = 1,
    log=None,
    laws=(DEFAULT,),
) -> list[dict]:
    """One row per (algorithm, K, reward law it accepts): fast ns per pull and memory; under the default law
    also the reference's ns per pull and the ratio (None under the others)."""
    rows = []
    for name in algorithms:
        alg = registry.get(name, "regret")
        for k in ks:
            means = instance_means(k)
            for law in (law for law in laws if law in alg.laws):
                row = {"algorithm": name, "k": k, "rewards": law, "collapsed": alg.collapsed}
                row.update(time_fast(name, means, horizon, runs, repeats, law))
                if law == DEFAULT:
                    row.update(time_reference(name, means, reference_horizon, reference_repeats))
                else:
                    row.update({"reference_seconds": None, "reference_ns_per_pull": None})
                ref = row["reference_ns_per_pull"]
                row["ratio"] = None if ref is None else ref / row["fast_ns_per_pull"]
                rows.append(row)
                if log is not None:
                    log(f"{name} K={k} {law}: {row['fast_ns_per_pull']:.1f} ns/pull, ratio {row['ratio']}")
    return rows


# --------------------------------------------------------------------------------------------- pipeline


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
    """Seconds of one tiny simulation job run as the pipeline runs it (``python -m dpbandits.pipeline``).

    The job is ``spec`` cut to horizon 1000 and one run: process start, imports, loading the compiled
    kernels from numba's cache, simulating and writing the chunk. Best of ``repeats``.
    """
    tiny = {**spec, "horizon": min(int(spec["horizon"]), 1000)}
    best = float("inf")
    with tempfile.TemporaryDirectory(prefix="dpbandits-bench-") as tmp:
        cmd = [
            sys.executable,
            "-m",
            "dpbandits.pipeline",
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


# --------------------------------------------------------------------------------------------- report


def _fmt(x, spec=".1f"):
    return "-" if x is None else format(x, spec)


def markdown(report: dict) -> str:
    """Markdown tables of a benchmark report (see :func:`main`)."""
    meta = report["meta"]
    lines = [
        f"Instance {meta['instance']}, epsilon {meta['epsilon']}, fast horizon {meta['horizon']} x "
        f"{meta['runs']} run(s) (best of {meta['repeats']}), reference horizon {meta['reference_horizon']} "
        f"(best of {meta['reference_repeats']}); "
        f"load {', '.join(f'{x:.2f}' for x in meta['load_before'])} before, "
        f"{', '.join(f'{x:.2f}' for x in meta['load_after'])} after.",
        "",
        "| algorithm | K | rewards | fast ns per (simulated*) pull | reference ns/pull | ratio | "
        "tracemalloc peak KiB | max RSS growth KiB |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for r in report["rows"]:
        name = r["algorithm"] + ("*" if r["collapsed"] else "")
        lines.append(
            f"| {name} | {r['k']} | {r['rewards']} | {_fmt(r['fast_ns_per_pull'], '.2f')} | "
            f"{_fmt(r['reference_ns_per_pull'], '.0f')} | {_fmt(r['ratio'], '.0f')} | "
            f"{_fmt(r['tracemalloc_peak_kib'])} | {_fmt(r['maxrss_delta_kib'], '.0f')} |"
        )
    lines.append("")
    lines.append(
        "\\* collapsed kernel: many pulls per unit of work (Binomial / epoch draws; under another law than "
        "bernoulli, one draw per pull wherever the Binomial stood); ns per simulated pull."
    )
    est = report.get("pipeline_estimate")
    if est:
        lines += [
            "",
            f"Pipeline estimate ({est['jobs']} simulation jobs, {est['job_overhead_s']:.2f} s overhead "
            f"each): {est['core_seconds']:.0f} core-seconds; wall "
            + ", ".join(f"{s:.0f} s on {c} core(s)" for c, s in est["wall_seconds"].items())
            + ".",
            "",
            "| algorithm | jobs | pulls | core-seconds |",
            "|---|---|---|---|",
        ]
        for name, e in sorted(est["per_algorithm"].items(), key=lambda kv: -kv[1]["core_seconds"]):
            flag = "" if e["measured"] else " (unmeasured: overhead only)"
            lines.append(f"| {name}{flag} | {e['jobs']} | {e['pulls']:.3g} | {e['core_seconds']:.1f} |")
    measured = report.get("pipeline_measured")
    if measured:
        lines += [
            "",
            f"Measured pipeline: `{measured['command']}` -> return code {measured['returncode']}, "
            f"{measured['wall_seconds']:.0f} s wall.",
        ]
    return "\n".join(lines)


def parse_args(argv=None, prog: str = "dpbandits bench") -> argparse.Namespace:
    p = argparse.ArgumentParser(prog=prog, description=__doc__.split("\n")[0])
    p.add_argument("--algorithms", nargs="+", default=None, help="regret algorithms (default: all)")
    p.add_argument("--k", nargs="+", type=int, default=[5, 20], help="numbers of arms (instance C2)")
    p.add_argument("--horizon", type=int, default=1_000_000, help="pulls per fast run")
    p.add_argument(
        "--laws", nargs="+", choices=LAWS, default=list(LAWS), help="reward laws (default: all; reference: bernoulli)"
    )
    p.add_argument("--reference-horizon", type=int, default=20_000, help="pulls of the reference run")
    p.add_argument("--runs", type=int, default=3, help="runs per fast timing (one simulate call)")
    p.add_argument("--repeats", type=int, default=5, help="fast timings; the best counts")
    p.add_argument("--reference-repeats", type=int, default=3, help="reference timings; the best counts")
    p.add_argument("--out", default="results/bench/bench.json", help="JSON output path")
    p.add_argument(
        "--pipeline-estimate",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="estimate the pipeline's cost from the catalogue of --config",
    )
    p.add_argument(
        "--config",
        default=str(ROOT / "config" / "config.yaml"),
        help="pipeline config file (its plugins are benchmarked too)",
    )
    p.add_argument("--cores", nargs="+", type=int, default=[1, 2], help="core counts of the wall-time estimate")
    p.add_argument(
        "--job-overhead", type=float, default=None, help="seconds added per job (default: measured, see job_overhead)"
    )
    p.add_argument(
        "--measure-pipeline",
        action="store_true",
        help="also run snakemake --cores all into a scratch results directory and time it",
    )
    args = p.parse_args(argv)
    for key in ("horizon", "reference_horizon", "runs", "repeats", "reference_repeats"):
        if getattr(args, key) < 1:
            p.error(f"--{key.replace('_', '-')} must be >= 1")
    if min(args.k) < 2:
        p.error("--k values must be >= 2")
    return args


def main(argv=None, prog: str = "dpbandits bench") -> dict:
    """Run the benchmark, write the JSON report to ``--out``, print markdown; return the report.

    A bad ``--config`` or ``--algorithms`` raises ``ValueError`` naming it (``dpbandits bench``: exit 2)."""
    from . import configfile

    args = parse_args(argv, prog)
    try:
        config = configfile.load([args.config])  # validated, with the schema's defaults
    except (OSError, ValueError) as err:
        raise ValueError(f"--config {args.config}: {err}") from None
    plugins.load_plugins(config["plugins"])  # the config's plugin algorithms are benchmarked too
    algorithms = args.algorithms or regret_algorithms()
    for name in algorithms:
        try:
            registry.get(name, "regret")
        except ValueError as err:
            raise ValueError(f"--algorithms: {err}") from None
    meta = {
        "instance": INSTANCE,
        "epsilon": EPSILON,
        "seed": SEED,
        "horizon": args.horizon,
        "reference_horizon": args.reference_horizon,
        "runs": args.runs,
        "laws": args.laws,
        "repeats": args.repeats,
        "reference_repeats": args.reference_repeats,
        "checkpoints": int(default_checkpoints(args.horizon).size),
        "cpu_count": os.cpu_count(),
        "machine": platform.processor() or platform.machine(),
        "versions": versions(),
        "load_before": list(load()),
    }
    rows = bench(
        algorithms,
        args.k,
        args.horizon,
        args.reference_horizon,
        args.runs,
        args.repeats,
        args.reference_repeats,
        log=lambda s: print(s, file=sys.stderr),
        laws=args.laws,
    )
    meta["load_after"] = list(load())
    report = {"meta": meta, "rows": rows, "pipeline_estimate": None, "pipeline_measured": None}
    if args.pipeline_estimate:
        overhead = args.job_overhead
        if overhead is None:
            first = next(j for j in catalogue_jobs(config) if j["kind"] == "regret")
            overhead = job_overhead(first["spec"])
        report["pipeline_estimate"] = pipeline_estimate(rows, config, args.cores, overhead)
        report["pipeline_estimate"]["config"] = args.config
    if args.measure_pipeline:
        report["pipeline_measured"] = measure_pipeline(args.config)
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(report, indent=2))
    print(markdown(report))
    return report


if __name__ == "__main__":  # the same as `dpbandits bench`
    from .cli import main as cli

    sys.exit(cli(["bench", *sys.argv[1:]]))
