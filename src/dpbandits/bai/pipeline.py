"""Pipeline entry point for BAI simulation chunks (called by ``dpbandits.pipeline.run_chunk``)."""

from __future__ import annotations

from ..io import save_npz
from .instances import instance_for
from .simulate import simulate_bai


def run_bai_chunk(spec: dict, start: int, stop: int, output: str) -> dict:
    """Simulate runs ``start .. stop-1`` of the BAI configuration ``spec`` and write ``output``.

    ``spec`` is a ``SimSpec.as_dict()``: algorithm, instance (see :func:`instance_for`), horizon (the
    budget T), epsilon, params, seed. The ``.npz`` holds ``recommended`` int64[R], ``success`` bool[R]
    and the result's meta. Returns ``{"trials": R, "successes": S}``.
    """
    arms, theta, reward = instance_for(spec["instance"])
    res = simulate_bai(
        spec["algorithm"], arms, theta, spec["horizon"], spec["epsilon"], stop - start, spec["seed"],
        first_run=start, **reward, **spec["params"],
    )
    save_npz(output, res.meta, recommended=res.recommended, success=res.success)
    return {"trials": int(res.success.size), "successes": int(res.success.sum())}
