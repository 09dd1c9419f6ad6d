"""From a pipeline configuration to its plan, validating everything before any job runs.

:func:`plan` is what ``workflow/rules/common.smk`` does at start-up: the JSON schema (with its defaults and
the compact figure forms, :func:`dpbandits.configfile.prepare`), the plugins, the figure catalogue, the
readings and the simulation jobs. Every invalid value raises
:class:`~dpbandits.catalogue.ConfigError` with one line naming its key, so a bad config fails in seconds,
before any output is written.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from . import catalogue, configfile, plugins, readings, registry


@dataclass
class Plan:
    """sims {cid: SimSpec}; figures {paper: {figure: Figure}}; readings {slug: (Reading, {paper: figures})};
    jobs {job key: Job}; where {cid: [job keys in run order]}."""

    sims: dict
    figures: dict
    readings: dict
    jobs: dict
    where: dict


def plan(config: dict, schema_path=configfile.SCHEMA, export_plugins: bool = False) -> Plan:
    """Validate ``config`` and expand it; ``ConfigError`` (one line, naming the key) if anything is wrong.

    ``config`` is prepared in place first (:func:`dpbandits.configfile.prepare`: the schema's defaults filled
    in, each paper's figures in explicit form).

    ``export_plugins`` also names the config's plugins in ``DPBANDITS_PLUGINS`` for the jobs' processes
    and makes their file paths absolute in ``config["plugins"]`` (the pipeline's start-up).
    """
    configfile.prepare(config, schema_path)
    try:
        plugins.load_plugins(config["plugins"], export=export_plugins)
    except plugins.PluginError as err:
        raise catalogue.ConfigError(f"plugins: {err}") from None
    if export_plugins:
        config["plugins"] = [plugins.resolve(spec) for spec in config["plugins"]]
    _check_top_level(config)
    sims, figures = catalogue.expand(config)
    read = readings.expand_readings(config, sims)  # adds the readings' configurations to sims
    jobs, where = catalogue.plan_jobs(config, sims)
    return Plan(sims, figures, read, jobs, where)


def _check_top_level(config: dict) -> None:
    """What the JSON schema cannot say: finite numbers, and keys that name registered algorithms."""
    for key in ("job_seconds", "cost_warning_hours"):
        if not math.isfinite(config[key]):
            raise catalogue.ConfigError(f"{key}: must be a finite number, got {config[key]!r}")
    for key, names, extra in [
        ("chunk_runs", config["chunk_runs"], {"default"}),
        ("readings.runs", config["readings"]["runs"], set()),
    ]:
        for name in names:
            if name not in registry.ALGORITHMS and name not in extra:
                allowed = sorted(extra | set(registry.ALGORITHMS))
                raise catalogue.ConfigError(f"{key}.{name}: not an algorithm; allowed: {allowed}")
