"""Snakemake entry point: execute a paper's notebook with papermill."""

import os

import papermill

out = snakemake.output[0]  # noqa: F821
os.makedirs(os.path.dirname(out), exist_ok=True)
with open(snakemake.log[0], "w") as log:  # noqa: F821
    papermill.execute_notebook(
        snakemake.input.notebook,  # noqa: F821
        out,
        parameters={"results": os.path.abspath(snakemake.params.results), "config": snakemake.params.config},  # noqa: F821
        cwd=os.path.dirname(os.path.abspath(snakemake.input.notebook)),  # noqa: F821
        log_output=False,
        progress_bar=False,
        stdout_file=log,
        stderr_file=log,
    )
