"""Snakemake entry point: draw every figure of one paper, write its tidy tables (and its cross-paper summary and
privacy-utility frontier summary, where it has them; diagnostic figures join neither)."""

import logging

import pandas as pd

from dpbandits.drawing.figures import make_figure, privacy_note
from dpbandits.pipeline.catalogue.model import is_diagnostic

logging.basicConfig(filename=snakemake.log[0], level=logging.INFO)  # noqa: F821
params, out = snakemake.params, snakemake.output  # noqa: F821
spent = pd.read_csv(snakemake.input.privacy, keep_default_na=False)  # noqa: F821
figures = list(params.figures.items())  # the order of each output list
for i, (name, fig) in enumerate(figures):
    fig.spec["privacy_note"] = privacy_note(fig, spent)
    make_figure(fig, params.sims[name], out.pdf[i], out.png[i], out.csv[i], out.runs[i])
    logging.info("wrote %s", out.pdf[i])
if out.summary:
    from dpbandits.drawing.crosspaper import write_summary

    pdf, png, ranking, finals = out.summary
    tables = [out.csv[i] for i, (name, fig) in enumerate(figures) if not fig.frontier and not is_diagnostic(name)]
    write_summary(tables, pdf, png, ranking, finals)
    logging.info("wrote %s", pdf)
if out.frontier:
    from dpbandits.drawing.frontier import write_frontier

    frontier = [(fig, out.csv[i]) for i, (name, fig) in enumerate(figures) if fig.frontier and not is_diagnostic(name)]
    write_frontier(frontier, list(out.frontier))
    logging.info("wrote %s", out.frontier[0])
