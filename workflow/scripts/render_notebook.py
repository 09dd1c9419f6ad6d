"""Snakemake entry point: execute a paper's notebook with papermill, then render it to HTML with nbconvert.

The HTML hides the code (the executed ``.ipynb`` beside it keeps it): it reads as the paper's appendix.
"""

import os
from pathlib import Path

import nbconvert
import nbformat
import papermill

out = snakemake.output  # noqa: F821
params = snakemake.params  # noqa: F821
os.makedirs(os.path.dirname(out.ipynb), exist_ok=True)
with open(snakemake.log[0], "w") as log:  # noqa: F821
    papermill.execute_notebook(
        snakemake.input.notebook,  # noqa: F821
        out.ipynb,
        parameters={
            "paper": snakemake.wildcards.paper,  # noqa: F821
            "results": str(Path(out.ipynb).resolve().parents[1]),  # <results>/notebooks/<paper>.ipynb
            "settings": params.settings,
        },
        cwd=os.path.dirname(os.path.abspath(snakemake.input.notebook)),  # noqa: F821
        log_output=False,
        progress_bar=False,
        stdout_file=log,
        stderr_file=log,
    )
exporter = nbconvert.HTMLExporter(exclude_input=True, exclude_input_prompt=True, exclude_output_prompt=True)
html, _ = exporter.from_notebook_node(nbformat.read(out.ipynb, as_version=4),
                                      resources={"metadata": {"name": params.settings["title"]}})
Path(out.html).write_text(html, encoding="utf-8")
