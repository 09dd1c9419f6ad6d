# Helpers: config validation and expansion of the figure catalogue into simulation jobs.
# The package is installed (`pip install -e .`, see README.md; the conda environment's post-deploy script).
import json
import os
import shlex
from pathlib import Path

from dpbandits import ALGORITHMS, diagnoses
from dpbandits.core import provenance
from dpbandits.pipeline import (
    catalogue,
    planning,
    privacy_plan,
    progress,
    readings,
    sources,
)
from dpbandits.pipeline.catalogue.costs import cost_summary, job_seconds
from dpbandits.pipeline.catalogue.jobs import figure_sims
from dpbandits.pipeline.catalogue.model import (
    JOB_KEY,
    ConfigError,
    figure_paths,
    figures_dir,
    is_diagnostic,
    job_path,
)
from dpbandits.pipeline.catalogue.text import paper_settings
from dpbandits.pipeline.entry import ENTRY_POINTS
from snakemake.logging import logger

try:
    # schema (its defaults filled into config, the compact figure forms expanded: dpbandits.pipeline.configfile),
    # plugins, figure catalogue, readings and jobs (dpbandits.pipeline.planning); the config's plugins join
    # ALGORITHMS here and, through DPBANDITS_PLUGINS, in every job's process
    PLAN = planning.plan(
        config,
        str(Path(workflow.basedir) / "workflow/schemas/config.schema.yaml"),
        export_plugins=True,
    )
except ConfigError as err:
    raise ValueError(f"invalid config: {err}") from None
SIMS, FIGURES, READINGS, JOBS, WHERE = (
    PLAN.sims,
    PLAN.figures,
    PLAN.readings,
    PLAN.jobs,
    PLAN.where,
)

RESULTS = config["results"]
# the report's description states what made it (workflow/report/workflow.rst); no rule reads this key
config["_made_with"] = provenance.made_with()
BASE = Path(workflow.basedir)
PAPERS = list(FIGURES)
SIM_OUTPUTS = {os.path.abspath(job.path(RESULTS)): key for key, job in JOBS.items()}


def cost_lines(outputs):
    """The cost estimate of a run whose jobs write ``outputs`` (Snakemake's plan: what it will rerun)."""
    todo = [SIM_OUTPUTS[p] for p in map(os.path.abspath, outputs) if p in SIM_OUTPUTS]
    return cost_summary(
        JOBS, todo, config["cost_warning_hours"], papers_scale=not config["scale"]
    )


def job_cost(job):
    """Estimated core-seconds of one Snakemake job (its start-up plus, for a simulation, its runs)."""
    key = SIM_OUTPUTS.get(os.path.abspath(str(job.output[0]))) if job.output else None
    return progress.JOB_OVERHEAD_S + (job_seconds(JOBS[key]) if key else 0.0)


# a dry run's estimate, printed by the dpbandits logger
progress.set_summary(cost_lines)


wildcard_constraints:
    algorithm="[a-z0-9_]+",
    bid="[0-9a-f]{12}",
    start=r"\d+",
    stop=r"\d+",
    paper="[a-z0-9]+",
    reading="[A-Za-z0-9_.=+-]+",


def algorithm_sources(wildcards):
    """Package files a simulation job of the algorithm runs (dpbandits.pipeline.sources): editing one reruns its jobs."""
    return sources.algorithm_sources(wildcards.algorithm)


def script_sources(script):
    """Package files a workflow script (workflow/scripts/) imports, directly or not."""
    return sources.script_sources(BASE / "workflow/scripts" / script)


def claims_file(paper):
    return f"{RESULTS}/claims/{paper}.csv"


def figure_files(paper):
    return [
        figure_paths(figures_dir(RESULTS, paper), name)[ext]
        for name in FIGURES[paper]
        for ext in ("pdf", "png", "csv")
    ]


def summary_files(paper):
    """Extra outputs of a paper with ``summary: true`` (the cross-paper heat-map and ranking)."""
    if not config["papers"][paper].get("summary"):
        return []
    base = f"{figures_dir(RESULTS, paper)}/summary"
    return [
        f"{base}/heatmap.pdf",
        f"{base}/heatmap.png",
        f"{base}/ranking.csv",
        f"{base}/finals.csv",
    ]


def frontier_files(paper):
    """Summary outputs of a paper's frontier figures (``x: epsilon``): tidy table and one-page summary."""
    if not any(
        fig.frontier and not is_diagnostic(name) for name, fig in FIGURES[paper].items()
    ):
        return []
    base = f"{figures_dir(RESULTS, paper)}/frontier"
    # the files dpbandits.drawing.frontier.OUTPUTS names, in its order
    return [
        f"{base}/{name}"
        for name in (
            "frontier.csv",
            "winners.csv",
            "ranking.csv",
            "below.csv",
            "crossovers.csv",
            "slopes.csv",
            "gap_slopes.csv",
            "summary.pdf",
            "summary.png",
        )
    ]


def paper_targets(paper):
    return (
        figure_files(paper)
        + summary_files(paper)
        + frontier_files(paper)
        + [
            f"{RESULTS}/notebooks/{paper}.ipynb",
            f"{RESULTS}/notebooks/{paper}.html",
            f"{RESULTS}/report/{paper}.html",
        ]
    )


def job_specs(wildcards):
    """The configurations (``SimSpec.as_dict()``) simulated by one job."""
    job = JOBS[JOB_KEY.format(**dict(wildcards.items()))]
    return [spec.as_dict() for spec in job.members]
