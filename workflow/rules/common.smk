# Helpers: config validation and expansion of the figure catalogue into simulation jobs.
import json
import re
import os
import shlex
import sys
from pathlib import Path

from snakemake.utils import validate

sys.path.insert(0, str(Path(workflow.basedir) / "src"))
# shell jobs run `python -m ...` with this interpreter and this checkout's package (no `pip install -e` needed)
os.environ["PATH"] = os.pathsep.join([str(Path(sys.executable).parent), os.environ.get("PATH", "")])
os.environ["PYTHONPATH"] = os.pathsep.join(
    [str(Path(workflow.basedir) / "src"), *filter(None, [os.environ.get("PYTHONPATH")])]
)

from dpbandits import ALGORITHMS  # noqa: E402
from dpbandits import catalogue, plugins, readings  # noqa: E402


try:
    catalogue.check_schema(config, str(Path(workflow.basedir) / "workflow/schemas/config.schema.yaml"))
    # the config's plugins join ALGORITHMS here and, through DPBANDITS_PLUGINS, in every job's process;
    # file paths are made absolute for the jobs that run elsewhere (notebooks run in notebooks/)
    plugins.load_plugins(config.get("plugins", []), export=True)
    config["plugins"] = [plugins.resolve(spec) for spec in config.get("plugins", [])]
    SIMS, FIGURES = catalogue.expand(config)
    READINGS = readings.expand_readings(config, SIMS)  # {slug: (Reading, {paper: figures})}; adds to SIMS
    JOBS, WHERE = catalogue.plan_jobs(config, SIMS)
except catalogue.ConfigError as err:
    raise ValueError(f"invalid config: {err}") from None
validate(config, schema="../schemas/config.schema.yaml")

RESULTS = config.get("results", "results")
BASE = Path(workflow.basedir)
PAPERS = list(FIGURES)


wildcard_constraints:
    algorithm="[a-z0-9_]+",
    bid="[0-9a-f]{12}",
    start=r"\d+",
    stop=r"\d+",
    paper="[a-z0-9]+",
    reading="[A-Za-z0-9_.=+-]+",


def algorithm_sources(wildcards):
    """Source files of an algorithm: editing one reruns only its simulations."""
    return [str(BASE / s) for s in ALGORITHMS[wildcards.algorithm].sources]


def figure_files(paper):
    return expand(
        f"{RESULTS}/figures/{paper}/{{figure}}.{{ext}}",
        figure=list(FIGURES[paper]),
        ext=["pdf", "png", "csv"],
    )


def summary_files(paper):
    """Extra outputs of a paper with ``summary: true`` (the cross-paper heat-map and ranking)."""
    if not config["papers"][paper].get("summary"):
        return []
    base = f"{RESULTS}/figures/{paper}/summary"
    return [f"{base}/heatmap.pdf", f"{base}/heatmap.png", f"{base}/ranking.csv", f"{base}/finals.csv"]


def paper_targets(paper):
    return figure_files(paper) + summary_files(paper) + [
        f"{RESULTS}/notebooks/{paper}.ipynb",
        f"{RESULTS}/notebooks/{paper}.html",
    ]


def job_specs(wildcards):
    """The configurations (``SimSpec.as_dict()``) simulated by one job."""
    job = JOBS[f"{wildcards.algorithm}/{wildcards.bid}/runs{wildcards.start}-{wildcards.stop}"]
    return [spec.as_dict() for spec in job.members]
