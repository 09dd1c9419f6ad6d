"""From a pipeline configuration to its plan, validating everything before any job runs.

:func:`plan` is what ``workflow/rules/common.smk`` does at start-up: the JSON schema (with its defaults and
the compact figure forms, :func:`dpbandits.pipeline.configfile.prepare`), the plugins, the figure catalogue, the
readings and the simulation jobs. Every invalid value raises
:class:`~dpbandits.ConfigError` with one line naming its key, so a bad config fails in seconds,
before any output is written.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from .. import plugins
from ..core import registry
from . import configfile, readings
from .catalogue.expand import expand
from .catalogue.jobs import plan_jobs
from .catalogue.model import ConfigError, Figure, Job, SimSpec, keypath


@dataclass
class Plan:
    """A validated config expanded into everything the pipeline runs (:func:`plan`)."""

    sims: dict[str, SimSpec]  # {cid: configuration}, the readings' configurations included
    figures: dict[str, dict[str, Figure]]  # {paper: {figure name: Figure}}
    readings: dict[str, readings.ReadingFigures]  # {reading slug: the reading and its figures}
    jobs: dict[str, Job]  # {job key (JOB_KEY): simulation job}
    where: dict[str, list[str]]  # {cid: [keys of the jobs holding its runs, in run order]}


def plan(config: dict, schema_path=configfile.SCHEMA, export_plugins: bool = False) -> Plan:
    """Validate ``config`` and expand it; ``ConfigError`` (one line, naming the key) if anything is wrong.

    ``config`` is prepared in place first (:func:`dpbandits.pipeline.configfile.prepare`: the schema's defaults filled
    in, each paper's figures in explicit form).

    ``export_plugins`` also names the config's plugins in ``DPBANDITS_PLUGINS`` for the jobs' processes
    and makes their file paths absolute in ``config["plugins"]`` (the pipeline's start-up).
    """
    configfile.prepare(config, schema_path)
    try:
        plugins.load_plugins(config["plugins"], export=export_plugins)
    except plugins.PluginError as err:
        raise ConfigError(f"plugins: {err}") from None
    if export_plugins:
        config["plugins"] = [plugins.resolve(spec) for spec in config["plugins"]]
    _check_top_level(config)
    sims, figures = expand(config)
    read = readings.expand_readings(config, sims)  # adds the readings' configurations to sims
    jobs, where = plan_jobs(config, sims)
    return Plan(sims, figures, read, jobs, where)


def _check_top_level(config: dict) -> None:
    """What the JSON schema cannot say: finite numbers, and keys that name registered algorithms."""
    for key in ("job_seconds", "cost_warning_hours"):
        if not math.isfinite(config[key]):
            raise ConfigError(f"{key}: must be a finite number, got {config[key]!r}")
    for key, names, extra in [
        ("chunk_runs", config["chunk_runs"], {"default"}),
        (keypath("readings", "runs"), config["readings"]["runs"], set()),
    ]:
        for name in names:
            if name not in registry.ALGORITHMS and name not in extra:
                allowed = sorted(extra | set(registry.ALGORITHMS))
                raise ConfigError(f"{keypath(key, name)}: not an algorithm; allowed: {allowed}")
