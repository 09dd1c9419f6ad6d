"""Per-run random generators that do not depend on chunking, job order or ``--cores``.

Run ``i`` of a configuration uses ``SeedSequence(root, spawn_key=(config_key, i))`` where
``config_key`` is a stable 63-bit hash of the configuration (algorithm, instance, horizon,
epsilon, resolved parameters).
"""

from __future__ import annotations

import hashlib
import json

import numpy as np


def _canonical(obj):
    if isinstance(obj, dict):
        return {str(k): _canonical(v) for k, v in sorted(obj.items())}
    if isinstance(obj, (list, tuple, np.ndarray)):
        return [_canonical(v) for v in obj]
    if isinstance(obj, (np.integer,)):
        return int(obj)
    if isinstance(obj, (float, np.floating)):
        f = float(obj)
        return int(f) if f.is_integer() and abs(f) < 2**53 else repr(f)
    return obj


def config_key(config: dict) -> int:
    """Stable 63-bit integer hash of a JSON-able configuration (int-valued floats == ints)."""
    text = json.dumps(_canonical(config), sort_keys=True, separators=(",", ":"))
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "little") >> 1


def config_id(config: dict) -> str:
    """Short hex name of a configuration, used in result paths."""
    return f"{config_key(config):016x}"[:12]


def run_seed_sequence(root: int, key: int, run: int) -> np.random.SeedSequence:
    """SeedSequence of run ``run`` of the configuration with hash ``key``."""
    return np.random.SeedSequence(int(root), spawn_key=(int(key), int(run)))


def run_generator(root: int, key: int, run: int) -> np.random.Generator:
    """PCG64 generator of one run."""
    return np.random.Generator(np.random.PCG64(run_seed_sequence(root, key, run)))
