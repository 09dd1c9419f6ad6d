"""Result files: one ``.npz`` per simulation job (its member configurations' chunks), written atomically."""

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


def save_job(path: str | os.PathLike, parts: dict[str, tuple[dict, dict[str, np.ndarray]]]) -> None:
    """Write one simulation job's result: {cid: (meta, arrays)} of its member configurations.

    Arrays are stored as ``<cid>.<name>``; the meta is ``{"members": {cid: meta}}``.
    """
    arrays = {f"{cid}.{name}": value for cid, (_, named) in parts.items() for name, value in named.items()}
    save_npz(path, {"members": {cid: meta for cid, (meta, _) in parts.items()}}, **arrays)


def members(path: str | os.PathLike) -> list[str]:
    """The configuration ids (cids) whose runs a job's result file holds."""
    with np.load(path, allow_pickle=False) as data:
        return list(json.loads(str(data["meta"]))["members"])


def load_member(path: str | os.PathLike, cid: str) -> tuple[dict, dict[str, np.ndarray]]:
    """(meta, arrays) of configuration ``cid`` in a job's result file."""
    prefix = f"{cid}."
    with np.load(path, allow_pickle=False) as data:
        meta = json.loads(str(data["meta"]))["members"].get(cid)
        if meta is None:
            raise KeyError(f"{path}: holds no runs of configuration {cid}")
        arrays = {k[len(prefix):]: data[k] for k in data.files if k.startswith(prefix)}
    return meta, arrays


def group_arrays(results: list[SimulationResult]) -> tuple[dict, dict[str, np.ndarray]]:
    """(meta, arrays) of the same runs of a regret configuration at E epsilons.

    Arrays: ``epsilons`` float64[E] (NaN = non-private), ``checkpoints`` int64[C], ``regret``
    float64[E, R, C], ``pulls`` int64[E, R, K], ``reward_sum`` float64[E, R]; meta: one dict per epsilon.
    """
    eps = [np.nan if r.meta["epsilon"] is None else r.meta["epsilon"] for r in results]
    arrays = dict(
        epsilons=np.array(eps), checkpoints=results[0].checkpoints, regret=np.stack([r.regret for r in results]),
        pulls=np.stack([r.pulls for r in results]), reward_sum=np.stack([r.reward_sum for r in results]),
    )
    return {"results": [r.meta for r in results]}, arrays


def load_groups(paths, cid: str) -> dict[float | None, SimulationResult]:
    """Runs of regret configuration ``cid`` from job files (concatenated in the order given), as {epsilon: result}."""
    metas, parts = zip(*(load_member(p, cid) for p in paths), strict=True)
    ckpts = parts[0]["checkpoints"]
    for p, part in zip(paths, parts, strict=True):
        if not np.array_equal(part["checkpoints"], ckpts):
            raise ValueError(f"{p}: checkpoints differ from {paths[0]}")
    out = {}
    for e, eps in enumerate(parts[0]["epsilons"]):
        meta = dict(metas[0]["results"][e])
        meta["run_ids"] = [i for m in metas for i in m["results"][e]["run_ids"]]
        key = None if np.isnan(eps) else float(eps)
        out[key] = SimulationResult(
            ckpts,
            np.concatenate([p["regret"][e] for p in parts]),
            np.concatenate([p["pulls"][e] for p in parts]),
            np.concatenate([p["reward_sum"][e] for p in parts]),
            meta,
        )
    return out
