"""Result files: one ``.npz`` per simulation chunk, written atomically, meta stored as JSON."""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path

import numpy as np

from .simulate import SimulationResult


def save_npz(path: str | os.PathLike, meta: dict, **arrays: np.ndarray) -> None:
    """Write ``arrays`` and ``meta`` to ``path`` atomically (temporary file + rename)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as fh:
            np.savez(fh, meta=np.array(json.dumps(meta)), **arrays)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def load_npz(path: str | os.PathLike) -> tuple[dict, dict[str, np.ndarray]]:
    """(meta, arrays) of a file written by :func:`save_npz`."""
    with np.load(path, allow_pickle=False) as data:
        meta = json.loads(str(data["meta"]))
        arrays = {k: data[k] for k in data.files if k != "meta"}
    return meta, arrays


def save_result(path: str | os.PathLike, result: SimulationResult) -> None:
    """Write a regret :class:`SimulationResult` chunk."""
    save_npz(
        path, result.meta, checkpoints=result.checkpoints, regret=result.regret,
        pulls=result.pulls, reward_sum=result.reward_sum,
    )


def load_results(paths) -> SimulationResult:
    """Concatenate regret chunks of one configuration (in the order given) into one result."""
    metas, parts = zip(*(load_npz(p) for p in paths), strict=True)
    ckpts = parts[0]["checkpoints"]
    for p, part in zip(paths, parts, strict=True):
        if not np.array_equal(part["checkpoints"], ckpts):
            raise ValueError(f"{p}: checkpoints differ from {paths[0]}")
    meta = dict(metas[0])
    meta["run_ids"] = [i for m in metas for i in m["run_ids"]]
    return SimulationResult(
        ckpts,
        np.concatenate([p["regret"] for p in parts]),
        np.concatenate([p["pulls"] for p in parts]),
        np.concatenate([p["reward_sum"] for p in parts]),
        meta,
    )
