"""Cost estimates of simulations (core-seconds, from the registry's per-pull cost hints) and the warning of a
costly run."""

from __future__ import annotations

from ...core import registry
from ...core.instances import instance_label
from ...core.laws import DEFAULT, cost_ns
from .model import Job, SimSpec


def pulls_per_run(spec: SimSpec) -> int:
    """Work of one run of ``spec``: pulls over all its epsilons (regret) or budget over all sweep points (BAI)."""
    if spec.kind == "regret":
        return spec.horizon * len(spec.epsilons)
    sweep = spec.sweep or {}
    if sweep.get("x") == "budget":
        return int(sum(sweep["values"]))
    return spec.budget * len(sweep.get("values", [0]))


def estimated_seconds(spec: SimSpec, runs: int) -> float:
    """Rough core-seconds of ``runs`` runs of ``spec`` from the registry's cost hint under the instance's reward
    law (job sizing only)."""
    regret = spec.kind == "regret" and isinstance(spec.instance, dict)
    law = spec.instance.get("rewards", DEFAULT) if regret else DEFAULT
    return cost_ns(registry.ALGORITHMS[spec.algorithm], law) * 1e-9 * pulls_per_run(spec) * runs


def _length(spec: SimSpec) -> str:
    """How long a run of ``spec`` is: ``T=<horizon>`` (regret), ``budget=<budget>`` or the swept budgets (BAI)."""
    if spec.kind == "regret":
        return f"T={spec.horizon:,}"
    if spec.sweep["x"] == "budget":
        return f"budgets {min(spec.sweep['values']):,}-{max(spec.sweep['values']):,}"
    return f"budget={spec.budget:,}"


def cost_summary(jobs: dict[str, Job], todo: list[str], warn_hours: float, papers_scale: bool = False) -> list[str]:
    """Lines announcing the estimated core-hours of the simulation jobs ``todo`` (keys of ``jobs``).

    Estimated from the registry's per-pull cost hints (measured by ``python -m dpbandits.bench``); above
    ``warn_hours`` a warning names the three costliest configurations, so that a horizon or run count
    mistyped by a factor of 1000 is seen before the wait, not after. ``papers_scale`` (no ``scale`` caps)
    adds a notice saying so and how to run a quick version instead.
    """
    todo = [jobs[key] for key in todo]
    costs: dict[str, tuple[float, SimSpec]] = {}
    for job in todo:
        for spec in job.members:
            c = estimated_seconds(spec, job.stop - job.start)
            costs[spec.cid] = (costs.get(spec.cid, (0.0, spec))[0] + c, spec)
    hours = sum(c for c, _ in costs.values()) / 3600
    lines = [f"dpbandits: {len(todo)} of {len(jobs)} simulation jobs to run, estimated {hours:.2g} core-hours"]
    if papers_scale and todo:
        lines.append("dpbandits: this is the papers' scale; for a quick run add --configfile config/smoke.yaml")
    if hours > warn_hours:
        top = sorted(costs.values(), key=lambda item: -item[0])[:3]
        worst = "; ".join(
            f"{spec.algorithm} on {instance_label(spec.instance)}, {_length(spec)}, {spec.runs} runs: {c / 3600:.2g} h"
            for c, spec in top
        )
        lines.append(
            f"dpbandits: WARNING: above cost_warning_hours={warn_hours:g}; check the horizons and runs of the "
            f"costliest configurations ({worst}) and interrupt (Ctrl-C) if unintended"
        )
    return lines


def job_seconds(job: Job) -> float:
    """Estimated core-seconds of one simulation job."""
    return sum(estimated_seconds(spec, job.stop - job.start) for spec in job.members)
