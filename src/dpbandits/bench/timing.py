"""Timing of one regret kernel and its reference twin: best-of-N seconds, ns per pull, memory.

Sajed's instance C2 (:data:`INSTANCE`) with K arms, epsilon :data:`EPSILON`, seed :data:`SEED`, the library's
default parameters.
"""

from __future__ import annotations

import os
import resource
import time
import tracemalloc

import numpy as np

from .. import reference
from ..core import registry
from ..core.instances import sajed_instance
from ..core.laws import DEFAULT
from ..core.simulate import simulate

EPSILON = 0.5
INSTANCE = "C2"
SEED = 20240101


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
