"""Entry points behind the Snakemake rules (kept here so they are importable and tested)."""

from __future__ import annotations

import json
import re
import resource
import time
from pathlib import Path

import numpy as np

from .catalogue import Figure
from .checkpoints import default_checkpoints
from .instances import means_for
from .io import load_groups, save_group
from .simulate import simulate

_CID = re.compile(r"/sims/[a-z0-9_]+/([0-9a-f]{12})/runs(\d+)-(\d+)\.npz$")


def peak_rss_mb() -> float:
    """Peak resident memory of this process in MiB."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def run_chunk(spec: dict, start: int, stop: int, output: str) -> dict:
    """Simulate runs ``start .. stop-1`` of one configuration and write them to ``output``."""
    t0 = time.perf_counter()
    if spec["kind"] == "bai":
        from .bai.pipeline import run_bai_chunk

        info = run_bai_chunk(spec, start, stop, output)
    else:
        results = [
            simulate(
                spec["algorithm"], means_for(spec["instance"]), spec["horizon"], eps, stop - start, spec["seed"],
                checkpoints=default_checkpoints(spec["horizon"], spec["checkpoints"]), first_run=start,
                **spec["params"],
            )
            for eps in spec["epsilons"]
        ]
        save_group(output, results)
        info = {"pulls": int(sum(r.pulls.sum() for r in results))}
    info.update(seconds=time.perf_counter() - t0, peak_rss_mb=peak_rss_mb())
    if "pulls" in info:
        info["ns_per_pull"] = 1e9 * info["seconds"] / max(info["pulls"], 1)
    return info


def group_by_cid(paths) -> dict[str, list[str]]:
    """Chunk files grouped by configuration id, each group sorted by first run."""
    groups: dict[str, list[tuple[int, str]]] = {}
    for p in map(str, paths):
        m = _CID.search(p)
        if m is None:
            raise ValueError(f"not a simulation chunk path: {p}")
        groups.setdefault(m.group(1), []).append((int(m.group(2)), p))
    return {cid: [p for _, p in sorted(v)] for cid, v in groups.items()}


def load_bai(paths) -> dict[str, np.ndarray]:
    """``success`` and ``recommended`` arrays [V, R] of a BAI curve's chunks, runs concatenated in order."""
    from .io import load_npz

    parts = [load_npz(p)[1] for p in paths]
    return {key: np.concatenate([part[key] for part in parts], axis=1) for key in ("success", "recommended")}


def make_figure(fig: Figure, inputs, pdf: str, png: str, csv: str, runs_csv: str) -> None:
    """Load a figure's chunks, write its tidy tables and draw it."""
    import matplotlib.pyplot as plt

    from . import plotting

    Path(csv).parent.mkdir(parents=True, exist_ok=True)
    groups = group_by_cid(inputs)
    if fig.spec.get("kind", "regret") == "bai":
        data = {cid: load_bai(paths) for cid, paths in groups.items()}
        table = plotting.success_table(fig, {cid: d["success"] for cid, d in data.items()})
        table.to_csv(csv, index=False)
        plotting.recommendation_table(fig, {cid: d["recommended"] for cid, d in data.items()}).to_csv(
            runs_csv, index=False)
        mfig = plotting.success_figure(fig, table)
    else:
        results = {cid: load_groups(paths) for cid, paths in groups.items()}
        table = plotting.curve_table(fig, results)
        table.to_csv(csv, index=False)
        plotting.run_table(fig, results).to_csv(runs_csv, index=False)
        mfig = plotting.regret_figure(fig, table)
    mfig.savefig(pdf)
    mfig.savefig(png, dpi=130)
    plt.close(mfig)


def write_json(path: str, obj) -> None:
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    Path(path).write_text(json.dumps(obj, indent=2, default=lambda o: np.asarray(o).tolist()))


def main(argv=None) -> None:
    """``python -m dpbandits.pipeline --spec JSON --start A --stop B --out FILE.npz --log FILE.json``.

    The simulation rule's command: one process per job, importing only what the job needs.
    """
    import argparse

    p = argparse.ArgumentParser(prog="python -m dpbandits.pipeline", description=main.__doc__.split("\n")[0])
    p.add_argument("--spec", required=True, help="SimSpec.as_dict() as JSON")
    p.add_argument("--start", type=int, required=True)
    p.add_argument("--stop", type=int, required=True)
    p.add_argument("--out", required=True)
    p.add_argument("--log", required=True)
    args = p.parse_args(argv)
    spec = json.loads(args.spec)
    info = run_chunk(spec, args.start, args.stop, args.out)
    write_json(args.log, {"spec": spec, **info})


if __name__ == "__main__":
    main()
