"""Entry points behind the Snakemake rules (kept here so they are importable and tested)."""

from __future__ import annotations

import json
import resource
import time
from pathlib import Path

import numpy as np

from .catalogue import Figure
from .checkpoints import default_checkpoints
from .instances import means_for
from .io import group_arrays, load_groups, load_member, save_job
from .seeding import config_id
from .simulate import simulate


def peak_rss_mb() -> float:
    """Peak resident memory of this process in MiB."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def run_spec(spec: dict, start: int, stop: int) -> tuple[dict, dict, dict]:
    """Runs ``start .. stop-1`` of one configuration (``SimSpec.as_dict()``): (meta, arrays, info)."""
    if spec["kind"] == "bai":
        from .bai.pipeline import run_bai_chunk

        return run_bai_chunk(spec, start, stop)
    results = [
        simulate(
            spec["algorithm"], means_for(spec["instance"]), spec["horizon"], eps, stop - start, spec["seed"],
            checkpoints=default_checkpoints(spec["horizon"], spec["checkpoints"]), first_run=start,
            **spec["params"],
        )
        for eps in spec["epsilons"]
    ]
    meta, arrays = group_arrays(results)
    return meta, arrays, {"pulls": int(sum(r.pulls.sum() for r in results))}


def run_job(specs: list[dict], start: int, stop: int, output: str) -> dict:
    """Simulate runs ``start .. stop-1`` of every configuration in ``specs`` and write them to ``output``.

    Returns the job's log: per configuration its cid, seconds and pulls or trials; totals and peak RSS.
    """
    parts, log = {}, []
    for spec in specs:
        t0 = time.perf_counter()
        cid = config_id(spec)
        meta, arrays, info = run_spec(spec, start, stop)
        parts[cid] = (meta, arrays)
        info = {"cid": cid, "seconds": time.perf_counter() - t0, **info}
        if "pulls" in info:
            info["ns_per_pull"] = 1e9 * info["seconds"] / max(info["pulls"], 1)
        log.append(info)
    save_job(output, parts)
    return {"seconds": sum(m["seconds"] for m in log), "peak_rss_mb": peak_rss_mb(), "members": log}


def load_bai(paths, cid: str) -> dict[str, np.ndarray]:
    """``success`` and ``recommended`` arrays [V, R] of BAI curve ``cid``, runs concatenated in file order."""
    parts = [load_member(p, cid)[1] for p in paths]
    return {key: np.concatenate([part[key] for part in parts], axis=1) for key in ("success", "recommended")}


def write_tables(fig: Figure, sims: dict[str, list[str]], csv: str, runs_csv: str):
    """Load a figure's configurations ({cid: job files in run order}) and write its tidy tables.

    Returns the curve table (regret: one row per checkpoint; BAI: one row per swept value).
    """
    from . import plotting

    Path(csv).parent.mkdir(parents=True, exist_ok=True)
    if fig.spec.get("kind", "regret") == "bai":
        data = {cid: load_bai(paths, cid) for cid, paths in sims.items()}
        table = plotting.success_table(fig, {cid: d["success"] for cid, d in data.items()})
        runs = plotting.recommendation_table(fig, {cid: d["recommended"] for cid, d in data.items()})
    else:
        results = {cid: load_groups(paths, cid) for cid, paths in sims.items()}
        table = plotting.curve_table(fig, results)
        runs = plotting.run_table(fig, results)
    table.to_csv(csv, index=False)
    runs.to_csv(runs_csv, index=False)
    return table


def make_figure(fig: Figure, sims: dict[str, list[str]], pdf: str, png: str, csv: str, runs_csv: str) -> None:
    """Write a figure's tidy tables (:func:`write_tables`) and draw it."""
    import matplotlib.pyplot as plt

    from . import plotting, style

    table = write_tables(fig, sims, csv, runs_csv)
    draw = plotting.success_figure if fig.spec.get("kind", "regret") == "bai" else plotting.regret_figure
    mfig = draw(fig, table)
    style.save(mfig, pdf, png)
    plt.close(mfig)


def write_json(path: str, obj) -> None:
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    Path(path).write_text(json.dumps(obj, indent=2, default=lambda o: np.asarray(o).tolist()))


def main(argv=None) -> None:
    """``python -m dpbandits.pipeline --specs JSON --start A --stop B --out FILE.npz --log FILE.json``.

    The simulation rule's command: one process per job, importing only what the job needs.
    """
    import argparse

    p = argparse.ArgumentParser(prog="python -m dpbandits.pipeline", description=main.__doc__.split("\n")[0])
    p.add_argument("--specs", required=True, help="JSON list of SimSpec.as_dict() (the job's configurations)")
    p.add_argument("--start", type=int, required=True)
    p.add_argument("--stop", type=int, required=True)
    p.add_argument("--out", required=True)
    p.add_argument("--log", required=True)
    args = p.parse_args(argv)
    specs = json.loads(args.specs)
    info = run_job(specs, args.start, args.stop, args.out)
    write_json(args.log, {"specs": specs, **info})


if __name__ == "__main__":
    main()
