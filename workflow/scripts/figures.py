"""Snakemake entry point: draw every figure of one paper, write its tidy tables (and its cross-paper summary and
privacy-utility frontier summary, where it has them; diagnostic figures join neither)."""

import logging

from dpbandits.catalogue import is_diagnostic
from dpbandits.figures import make_figure

logging.basicConfig(filename=snakemake.log[0], level=logging.INFO)  # noqa: F821
params = snakemake.params  # noqa: F821
for name, fig in params.figures.items():
    out = params.outputs[name]
    make_figure(fig, params.sims[name], out["pdf"], out["png"], out["csv"], out["runs"])
    logging.info("wrote %s", out["pdf"])
if params.summary:
    from dpbandits.crosspaper import write_summary

    pdf, png, ranking, finals = params.summary
    tables = [
        out["csv"]
        for name, out in params.outputs.items()
        if not params.figures[name].frontier and not is_diagnostic(name)
    ]
    write_summary(tables, pdf, png, ranking, finals)
    logging.info("wrote %s", pdf)
if params.frontier:
    from dpbandits.frontier import write_frontier

    csv, ranking, pdf, png = params.frontier
    frontier = [
        (fig, params.outputs[name]["csv"])
        for name, fig in params.figures.items()
        if fig.frontier and not is_diagnostic(name)
    ]
    write_frontier(frontier, csv, ranking, pdf, png)
    logging.info("wrote %s", pdf)
