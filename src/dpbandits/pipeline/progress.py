"""One short terminal line per finished pipeline job, with an estimate of the time left.

The pipeline's start-up registers the estimated cost of every job it will run (:func:`expect`);
the ``dpbandits`` Snakemake logger (``snakemake_logger_plugin_dpbandits``) feeds a :class:`Tracker` the jobs
as they start and finish. Time left = elapsed time x (estimated cost left / estimated cost done), so it
calibrates itself to the machine and the number of cores.
"""

from __future__ import annotations

import time

JOB_OVERHEAD_S = 5.0  # process start-up and imports of any job, added to its estimated work

_EXPECTED: dict[int, float] = {}  # Snakemake job id -> estimated core-seconds, set at start-up
_SUMMARY = [lambda outputs: []]  # the pipeline's cost estimate: output files of the jobs to run -> lines


def set_summary(fn) -> None:
    """Register the function that turns the output files of the jobs to run into the cost-estimate lines."""
    _SUMMARY[0] = fn


def summary(outputs: list[str]) -> list[str]:
    """The cost-estimate lines of a run whose jobs write ``outputs`` (a dry run prints them at its end)."""
    return _SUMMARY[0](outputs)


def expect(costs: dict[int, float]) -> None:
    """Register the estimated cost (core-seconds) of each job id the run will execute."""
    _EXPECTED.clear()
    _EXPECTED.update(costs)


def label(rule: str, wildcards: dict | None) -> str:
    """``rule`` and its wildcards, short: ``simulate dp_se2 runs 0-4``, ``notebook chen2024``."""
    wildcards = dict(wildcards or {})
    parts = [rule] + [str(v) for k, v in wildcards.items() if k not in ("bid", "start", "stop")]
    if "start" in wildcards and "stop" in wildcards:
        parts.append(f"runs {wildcards['start']}-{wildcards['stop']}")
    return " ".join(parts)


def duration(seconds: float) -> str:
    """``42 s``, ``3 min``, ``2.5 h``."""
    if seconds < 90:
        return f"{seconds:.0f} s"
    if seconds < 5400:
        return f"{seconds / 60:.0f} min"
    return f"{seconds / 3600:.1f} h"


class Tracker:
    """Jobs started and finished; :meth:`finished` returns the job's progress line."""

    def __init__(self, expected: dict[int, float] | None = None, clock=time.monotonic):
        self.expected = _EXPECTED if expected is None else expected
        self.clock = clock
        self.started: dict[int, tuple[str, float]] = {}
        self.t0: float | None = None
        self.done_cost = 0.0

    def start(self, jobid: int, rule: str, wildcards: dict | None) -> None:
        now = self.clock()
        self.t0 = now if self.t0 is None else self.t0
        self.started[jobid] = (label(rule, wildcards), now)

    def finished(self, jobid: int, done: int, total: int) -> str:
        name, began = self.started.pop(jobid, (f"job {jobid}", self.clock()))
        now = self.clock()
        self.done_cost += self.expected.get(jobid, JOB_OVERHEAD_S)
        width = len(str(total))
        line = f"[{done:>{width}}/{total}] {name}  {duration(now - began)}"
        left = self.time_left(now, done, total)
        if left is not None:
            line += f"  (~{duration(left)} left)"
        return line

    def time_left(self, now: float, done: int, total: int) -> float | None:
        """Seconds left, from the rate so far; None before any job has finished or once all have."""
        if self.t0 is None or done >= total or self.done_cost <= 0:
            return None
        if self.expected:
            left_cost = max(sum(self.expected.values()) - self.done_cost, 0.0)
        else:  # no estimates registered: every job costs the same
            left_cost = self.done_cost / done * (total - done)
        return (now - self.t0) * left_cost / self.done_cost
