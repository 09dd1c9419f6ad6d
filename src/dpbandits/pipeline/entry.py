"""The simulation rule's entry point: one job simulates a chunk of runs of its configurations.

A job runs ``python -m <ENTRY_POINTS[kind]>``: this module for regret configurations,
:mod:`dpbandits.pipeline.entry_bai` for BAI ones, so a job imports only its kind's code and
:func:`dpbandits.pipeline.sources.algorithm_sources` makes only that code its inputs.
"""

from __future__ import annotations

import json
import resource
import time
from pathlib import Path

import numpy as np

from ..core.checkpoints import default_checkpoints
from ..core.instances import means_for
from ..core.laws import DEFAULT
from ..core.seeding import config_id
from ..core.simulate import simulate
from .io import group_arrays, save_job


def peak_rss_mb() -> float:
    """Peak resident memory of this process in MiB."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


#: The module a simulation job of each kind runs with ``python -m``.
ENTRY_POINTS = {"regret": "dpbandits.pipeline.entry", "bai": "dpbandits.pipeline.entry_bai"}


def run_spec(spec: dict, start: int, stop: int) -> tuple[dict, dict, dict]:
    """Runs ``start .. stop-1`` of one regret configuration (``SimSpec.as_dict()``): (meta, arrays, info)."""
    if spec["kind"] != "regret":
        raise ValueError(f"a {spec['kind']} configuration: run it with python -m {ENTRY_POINTS[spec['kind']]}")
    results = [
        simulate(
            spec["algorithm"],
            means_for(spec["instance"]),
            spec["horizon"],
            eps,
            stop - start,
            spec["seed"],
            checkpoints=default_checkpoints(spec["horizon"], spec["checkpoints"]),
            first_run=start,
            rewards=spec["instance"].get("rewards", DEFAULT),
            **spec["params"],
        )
        for eps in spec["epsilons"]
    ]
    meta, arrays = group_arrays(results)
    return meta, arrays, {"pulls": int(sum(r.pulls.sum() for r in results))}


def run_job(specs: list[dict], start: int, stop: int, output: str, run_chunk=run_spec) -> dict:
    """Simulate runs ``start .. stop-1`` of every configuration in ``specs`` with ``run_chunk`` (``run_spec``
    or :func:`dpbandits.pipeline.entry_bai.run_bai_chunk`) and write them to ``output``.

    Returns the job's log: per configuration its cid, seconds and pulls or trials; totals and peak RSS.
    """
    parts, log = {}, []
    for spec in specs:
        t0 = time.perf_counter()
        cid = config_id(spec)
        meta, arrays, info = run_chunk(spec, start, stop)
        parts[cid] = (meta, arrays)
        info = {"cid": cid, "seconds": time.perf_counter() - t0, **info}
        if "pulls" in info:
            info["ns_per_pull"] = 1e9 * info["seconds"] / max(info["pulls"], 1)
        log.append(info)
    save_job(output, parts)
    return {"seconds": sum(m["seconds"] for m in log), "peak_rss_mb": peak_rss_mb(), "members": log}


def write_json(path: str, obj) -> None:
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    Path(path).write_text(json.dumps(obj, indent=2, default=lambda o: np.asarray(o).tolist()))


def main(argv=None, run_chunk=run_spec, prog="python -m dpbandits.pipeline.entry") -> None:
    """``python -m dpbandits.pipeline.entry --specs JSON --start A --stop B --out FILE.npz --log FILE.json``.

    The simulation rule's command: one process per job, importing only what the job needs.
    """
    import argparse

    p = argparse.ArgumentParser(prog=prog, description=main.__doc__.split("\n")[0])
    p.add_argument("--specs", required=True, help="JSON list of SimSpec.as_dict() (the job's configurations)")
    p.add_argument("--start", type=int, required=True)
    p.add_argument("--stop", type=int, required=True)
    p.add_argument("--out", required=True)
    p.add_argument("--log", required=True)
    args = p.parse_args(argv)
    specs = json.loads(args.specs)
    info = run_job(specs, args.start, args.stop, args.out, run_chunk)
    write_json(args.log, {"specs": specs, **info})


if __name__ == "__main__":
    main()
