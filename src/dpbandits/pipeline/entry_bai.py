"""Pipeline entry point for BAI simulation jobs: ``python -m dpbandits.pipeline.entry_bai`` (same arguments as
:func:`dpbandits.pipeline.entry.main`)."""

from __future__ import annotations

import numpy as np

from ..bai.linear_instances import instance_for
from ..bai.trials import simulate_bai
from . import entry


def sweep_points(spec: dict) -> list[tuple[dict, int, float | None]]:
    """(instance, budget, epsilon) of every point of a BAI curve ``spec`` (a ``SimSpec.as_dict()``)."""
    sweep = spec["sweep"]
    points = []
    for v in sweep["values"]:
        instance, budget, eps = dict(spec["instance"]), spec["horizon"], spec["epsilons"][0]
        if sweep["x"] == "budget":
            budget = int(v)
        elif sweep["x"] == "epsilon":
            eps = v
        else:
            instance["ratio"] = v
        points.append((instance, budget, eps))
    return points


def run_bai_chunk(spec: dict, start: int, stop: int) -> tuple[dict, dict, dict]:
    """Simulate runs ``start .. stop-1`` at every point of the BAI curve ``spec``.

    ``spec`` is a ``SimSpec.as_dict()``: algorithm, instance (see :func:`instance_for`), horizon (the
    budget T), epsilon, params, seed and ``sweep`` (the swept variable and its values). Each point is
    simulated by :func:`simulate_bai` exactly as if alone (its own configuration hash seeds its runs).
    Returns (meta, arrays, info): arrays ``x`` float64[V], ``recommended`` int64[V, R] and ``success``
    bool[V, R]; info ``{"trials": V * R, "successes": S}``.
    """
    recommended, success, metas = [], [], []
    for instance, budget, eps in sweep_points(spec):
        arms, theta, reward = instance_for(instance)
        res = simulate_bai(
            spec["algorithm"],
            arms,
            theta,
            budget,
            eps,
            stop - start,
            spec["seed"],
            first_run=start,
            **reward,
            **spec["params"],
        )
        recommended.append(res.recommended)
        success.append(res.success)
        metas.append(res.meta)
    meta = {**metas[0], "sweep": spec["sweep"], "points": [m.get("config_key") for m in metas]}
    success = np.array(success)
    arrays = {
        "x": np.asarray(spec["sweep"]["values"], dtype=float),
        "recommended": np.array(recommended),
        "success": success,
    }
    return meta, arrays, {"trials": int(success.size), "successes": int(success.sum())}


if __name__ == "__main__":
    entry.main(run_chunk=run_bai_chunk, prog="python -m dpbandits.pipeline.entry_bai")
