"""Simulation jobs: each configuration's runs cut into chunks, cheap chunks of one algorithm packed together."""

from __future__ import annotations

from .costs import estimated_seconds
from .model import Figure, Job, SimSpec, job_path


def chunks(runs: int, size: int) -> list[tuple[int, int]]:
    """[(start, stop), ...] covering range(runs) in pieces of at most ``size``."""
    return [(s, min(s + size, runs)) for s in range(0, runs, size)]


def chunk_size(config: dict, algorithm: str) -> int:
    """Runs per simulation chunk for ``algorithm`` (``chunk_runs.<algorithm>`` or ``chunk_runs.default``)."""
    sizes = config["chunk_runs"]
    return int(sizes.get(algorithm, sizes["default"]))


def plan_jobs(config: dict, sims: dict[str, SimSpec]) -> tuple[dict[str, Job], dict[str, list[str]]]:
    """Simulation jobs: ({job key: Job}, {cid: [job keys holding its chunks, in run order]}).

    Each configuration's runs are cut into chunks of ``chunk_runs``. Chunks of one algorithm with the
    same run range are then packed, in cid order, into jobs of at most ``job_seconds`` estimated
    core-seconds (:func:`estimated_seconds`); a chunk costing more is a job of its own. Packing only
    amortises process start-up (about 2 s a job): every run is seeded by its own index, so results do
    not depend on it. Adding or removing a configuration may repack that algorithm's cheap chunks.
    """
    budget = float(config["job_seconds"])
    pending: dict[tuple, list[tuple[str, SimSpec]]] = {}
    for cid in sorted(sims):
        spec = sims[cid]
        for start, stop in chunks(spec.runs, chunk_size(config, spec.algorithm)):
            pending.setdefault((spec.algorithm, start, stop), []).append((cid, spec))
    jobs: dict[str, Job] = {}
    where: dict[str, list[tuple[int, str]]] = {}

    def emit(algorithm, start, stop, members):
        job = Job(algorithm, tuple(members), start, stop)
        jobs[job.key] = job
        for spec in members:
            where.setdefault(spec.cid, []).append((start, job.key))

    for (algorithm, start, stop), units in pending.items():
        batch, cost = [], 0.0
        for _, spec in units:
            c = estimated_seconds(spec, stop - start)
            if batch and cost + c > budget:
                emit(algorithm, start, stop, batch)
                batch, cost = [], 0.0
            batch.append(spec)
            cost += c
        emit(algorithm, start, stop, batch)
    return jobs, {cid: [key for _, key in sorted(keys)] for cid, keys in where.items()}


def figure_sims(config: dict, where: dict[str, list[str]], fig: Figure) -> dict[str, list[str]]:
    """{cid: [job result paths, in run order]} of every configuration a figure reads."""
    results = config["results"]
    cids = dict.fromkeys(curve.cid for panel in fig.panels for curve in panel.curves)
    return {cid: [job_path(results, key) for key in where[cid]] for cid in cids}
