"""Result files: one ``.npz`` per simulation job (its member configurations' chunks), written atomically.

Each file carries the SHA-256 of its meta and arrays; a file that is truncated (a full disk), edited by
hand or not written by :func:`save_npz` raises :class:`CorruptResultError` naming its path, so it is
never plotted.
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import tempfile
from pathlib import Path

import numpy as np

from ..core.simulate import SimulationResult


class CorruptResultError(ValueError):
    """A result file that cannot be trusted; the message names the path and how to redo it."""

    def __init__(self, path, reason: str):
        super().__init__(
            f"{path}: corrupt or foreign result file ({reason}); delete it and rerun the same command to redo it"
        )


def _digest(meta_json: str, arrays: dict[str, np.ndarray]) -> str:
    """SHA-256 (hex) of the meta text and every array's name, dtype, shape and bytes."""
    h = hashlib.sha256(meta_json.encode())
    for name in sorted(arrays):
        a = np.ascontiguousarray(arrays[name])
        h.update(f"\0{name}\0{a.dtype.str}\0{a.shape}\0".encode())
        h.update(a.tobytes())
    return h.hexdigest()


def save_npz(path: str | os.PathLike, meta: dict, **arrays: np.ndarray) -> None:
    """Write ``arrays``, ``meta`` and their checksum to ``path`` atomically (temporary file + rename)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    meta_json = json.dumps(meta)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as fh:
            np.savez(fh, meta=np.array(meta_json), sha256=np.array(_digest(meta_json, arrays)), **arrays)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def load_npz(path: str | os.PathLike) -> tuple[dict, dict[str, np.ndarray]]:
    """(meta, arrays) of a file written by :func:`save_npz`, checked against its checksum.

    Raises :class:`CorruptResultError` (naming ``path``) if the file cannot be read or does not match.
    """
    stat = os.stat(path)
    return _load_checked(str(path), stat.st_mtime_ns, stat.st_size)


@functools.lru_cache(maxsize=16)
def _load_checked(path: str, mtime_ns: int, size: int) -> tuple[dict, dict[str, np.ndarray]]:
    """Cached by (path, mtime, size): figures read many configurations from one job file."""
    try:
        with np.load(path, allow_pickle=False) as data:
            files = set(data.files)
            if not {"meta", "sha256"} <= files:
                raise CorruptResultError(path, f"no {'meta' if 'meta' not in files else 'sha256'} entry")
            meta_json, stored = str(data["meta"]), str(data["sha256"])
            arrays = {k: data[k] for k in files - {"meta", "sha256"}}
        meta = json.loads(meta_json)
    except CorruptResultError:
        raise
    except Exception as err:  # zipfile.BadZipFile, EOFError, OSError, ValueError, JSONDecodeError, ...
        raise CorruptResultError(path, f"{type(err).__name__}: {err}") from None
    if _digest(meta_json, arrays) != stored:
        raise CorruptResultError(path, "contents do not match the stored SHA-256")
    for a in arrays.values():
        a.setflags(write=False)  # shared by the cache
    return meta, arrays


def save_job(path: str | os.PathLike, parts: dict[str, tuple[dict, dict[str, np.ndarray]]]) -> None:
    """Write one simulation job's result: {cid: (meta, arrays)} of its member configurations.

    Arrays are stored as ``<cid>.<name>``; the meta is ``{"members": {cid: meta}}``.
    """
    arrays = {f"{cid}.{name}": value for cid, (_, named) in parts.items() for name, value in named.items()}
    save_npz(path, {"members": {cid: meta for cid, (meta, _) in parts.items()}}, **arrays)


def members(path: str | os.PathLike) -> list[str]:
    """The configuration ids (cids) whose runs a job's result file holds."""
    return list(_job_meta(path)["members"])


def _job_meta(path) -> dict:
    meta, _ = load_npz(path)
    if not isinstance(meta, dict) or not isinstance(meta.get("members"), dict):
        raise CorruptResultError(path, "its meta has no 'members' mapping: not a simulation job's file")
    return meta


def load_member(path: str | os.PathLike, cid: str) -> tuple[dict, dict[str, np.ndarray]]:
    """(meta, arrays) of configuration ``cid`` in a job's result file."""
    prefix = f"{cid}."
    meta = _job_meta(path)["members"].get(cid)
    if meta is None:
        raise KeyError(f"{path}: holds no runs of configuration {cid}")
    _, arrays = load_npz(path)
    return meta, {k[len(prefix) :]: v for k, v in arrays.items() if k.startswith(prefix)}


def group_arrays(results: list[SimulationResult]) -> tuple[dict, dict[str, np.ndarray]]:
    """(meta, arrays) of the same runs of a regret configuration at E epsilons.

    Arrays: ``epsilons`` float64[E] (NaN = non-private), ``checkpoints`` int64[C], ``regret``
    float64[E, R, C], ``pulls`` int64[E, R, K], ``reward_sum`` float64[E, R]; meta: one dict per epsilon.
    """
    eps = [np.nan if r.meta["epsilon"] is None else r.meta["epsilon"] for r in results]
    arrays = dict(
        epsilons=np.array(eps),
        checkpoints=results[0].checkpoints,
        regret=np.stack([r.regret for r in results]),
        pulls=np.stack([r.pulls for r in results]),
        reward_sum=np.stack([r.reward_sum for r in results]),
    )
    return {"results": [r.meta for r in results]}, arrays


def load_groups(paths, cid: str) -> dict[float | None, SimulationResult]:
    """Runs of regret configuration ``cid`` from job files (concatenated in the order given), as {epsilon: result}."""
    metas, parts = zip(*(load_member(p, cid) for p in paths), strict=True)
    ckpts = parts[0]["checkpoints"]
    for p, meta, part in zip(paths, metas, parts, strict=True):
        if not np.array_equal(part["checkpoints"], ckpts):
            raise CorruptResultError(p, f"its checkpoints differ from those of {paths[0]}")
        _check_shapes(p, cid, meta, part)
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


def _check_shapes(path, cid: str, meta: dict, part: dict[str, np.ndarray]) -> None:
    """The arrays of regret configuration ``cid`` have the shapes its meta implies (E, R, C, K)."""
    try:
        e, r = len(meta["results"]), len(meta["results"][0]["run_ids"])
        k, c = len(meta["results"][0]["means"]), part["checkpoints"].size
        expected = {"epsilons": (e,), "regret": (e, r, c), "pulls": (e, r, k), "reward_sum": (e, r)}
        bad = {name: part[name].shape for name, shape in expected.items() if part[name].shape != shape}
    except (KeyError, IndexError, TypeError) as err:
        raise CorruptResultError(path, f"configuration {cid}: incomplete meta or arrays ({err!r})") from None
    if bad:
        raise CorruptResultError(path, f"configuration {cid}: shapes {bad} do not match its meta {expected}")


def check_bai_shapes(path, cid: str, meta: dict, part: dict[str, np.ndarray]) -> None:
    """The arrays of BAI configuration ``cid`` have the shapes its meta implies (V points, R runs)."""
    v, r = len(meta.get("points", [])), len(meta.get("run_ids", []))
    shapes = {key: part[key].shape if key in part else None for key in ("x", "success", "recommended")}
    if shapes != {"x": (v,), "success": (v, r), "recommended": (v, r)}:
        raise CorruptResultError(path, f"configuration {cid}: shapes {shapes} do not match {v} points x {r} runs")
