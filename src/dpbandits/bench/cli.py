"""Benchmark of the regret kernels: ns per pull, speed-up over the reference twins, memory, pipeline cost.

``python -m dpbandits.bench`` times, for every regret algorithm and every K, the fast path
(:func:`dpbandits.simulate`, best of ``--repeats`` after a warm-up call that compiles) and its
``dpbandits.reference`` twin (short horizon, same run) on Sajed's instance C2 with epsilon 0.5 and the
library's default parameters, under each reward law of ``--laws`` (:mod:`dpbandits.core.laws`; the twin is timed
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
import sys
from pathlib import Path

from .. import plugins
from ..core import registry
from ..core.checkpoints import default_checkpoints
from ..core.laws import LAWS
from ..core.simulate import versions
from .cost import ROOT, catalogue_jobs, job_overhead, measure_pipeline, pipeline_estimate
from .report import markdown
from .timing import EPSILON, INSTANCE, SEED, bench, load, regret_algorithms


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
    from ..pipeline import configfile

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
