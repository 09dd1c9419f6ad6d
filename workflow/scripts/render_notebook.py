"""Snakemake entry point: execute a paper's notebook with papermill, then render it to HTML with nbconvert.

The HTML hides the code (the executed ``.ipynb`` beside it keeps it): it reads as the paper's appendix. Both end
with the version and commit that made them. The HTML reads offline: nbconvert's lab template without the
require.js, MathJax and Mermaid scripts it would load from a CDN (the notebooks use none of them).
"""

import os
from pathlib import Path

import nbconvert
import nbformat
import papermill

from dpbandits.provenance import made_with

TEMPLATES = Path(__file__).resolve().parents[1] / "templates"  # offline.html.j2

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
nb = nbformat.read(out.ipynb, as_version=4)
nb.cells.append(nbformat.v4.new_markdown_cell(f"*Made with {made_with()}.*"))
nbformat.write(nb, out.ipynb)
exporter = nbconvert.HTMLExporter(exclude_input=True, exclude_input_prompt=True, exclude_output_prompt=True,
                                  template_name="lab", template_file="offline.html.j2",
                                  extra_template_paths=[str(TEMPLATES)])
html, _ = exporter.from_notebook_node(nb, resources={"metadata": {"name": params.settings["title"]}})
Path(out.html).write_text(html, encoding="utf-8")
