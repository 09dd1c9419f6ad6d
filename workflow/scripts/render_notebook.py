"""Snakemake entry point: execute a paper's notebook with papermill, then render it to HTML with nbconvert.

The HTML hides the code (the executed ``.ipynb`` beside it keeps it): it reads as the paper's appendix. Both end
with the version and commit that made them. The HTML reads offline: nbconvert's lab template without the
require.js, MathJax and Mermaid scripts it would load from a CDN (the notebooks use none of them).
The job's log holds papermill's progress and each cell's output, and whatever the kernel prints: the terminal
shows none of it unless the job fails (``--show-failed-logs``).
"""

import logging
import os
import sys
from pathlib import Path

import nbconvert
import nbformat
import papermill

from dpbandits.core.provenance import made_with

TEMPLATES = Path(__file__).resolve().parents[1] / "templates"  # offline.html.j2

out = snakemake.output  # noqa: F821
params = snakemake.params  # noqa: F821
os.makedirs(os.path.dirname(out.ipynb), exist_ok=True)
log = open(snakemake.log[0], "w", buffering=1)  # noqa: F821 (open for the whole job)
for stream in (sys.stdout, sys.stderr):  # this process's and the kernel's (it inherits them) output
    stream.flush()
    os.dup2(log.fileno(), stream.fileno())
logging.basicConfig(level=logging.INFO, stream=log, format="%(asctime)s %(name)s %(levelname)s %(message)s")
papermill.execute_notebook(
    snakemake.input.notebook,  # noqa: F821
    out.ipynb,
    parameters={
        "paper": snakemake.wildcards.paper,  # noqa: F821
        "results": str(Path(out.ipynb).resolve().parents[1]),  # <results>/notebooks/<paper>.ipynb
        "settings": params.settings,
    },
    cwd=os.path.dirname(os.path.abspath(snakemake.input.notebook)),  # noqa: F821
    log_output=True,
    progress_bar=False,
    # the kernel's own log: only its critical errors (not the TCP notice at start-up, nor the "KeyboardInterrupt
    # caught" that the interrupt of a normal shutdown makes it log); cell errors still fail the job
    extra_arguments=["--IPKernelApp.log_level=CRITICAL"],
)
nb = nbformat.read(out.ipynb, as_version=4)
nb.cells.append(nbformat.v4.new_markdown_cell(f"*Made with {made_with()}.*"))
nbformat.write(nb, out.ipynb)
exporter = nbconvert.HTMLExporter(
    exclude_input=True,
    exclude_input_prompt=True,
    exclude_output_prompt=True,
    template_name="lab",
    template_file="offline.html.j2",
    extra_template_paths=[str(TEMPLATES)],
)
html, _ = exporter.from_notebook_node(nb, resources={"metadata": {"name": params.settings["title"]}})
Path(out.html).write_text(html, encoding="utf-8")
logging.getLogger("render_notebook").info("wrote %s and %s", out.ipynb, out.html)
