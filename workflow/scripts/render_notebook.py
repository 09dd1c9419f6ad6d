"""Snakemake entry point: execute a paper's notebook with papermill, then render it to HTML with nbconvert."""

import os
from pathlib import Path

import nbconvert
import nbformat
import papermill

out = snakemake.output  # noqa: F821
os.makedirs(os.path.dirname(out.ipynb), exist_ok=True)
with open(snakemake.log[0], "w") as log:  # noqa: F821
    papermill.execute_notebook(
        snakemake.input.notebook,  # noqa: F821
        out.ipynb,
        parameters={"results": os.path.abspath(snakemake.params.results), "config": snakemake.params.config},  # noqa: F821
        cwd=os.path.dirname(os.path.abspath(snakemake.input.notebook)),  # noqa: F821
        log_output=False,
        progress_bar=False,
        stdout_file=log,
        stderr_file=log,
    )
html, _ = nbconvert.HTMLExporter().from_notebook_node(nbformat.read(out.ipynb, as_version=4))
Path(out.html).write_text(html, encoding="utf-8")
