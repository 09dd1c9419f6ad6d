"""Snakemake entry point: draw every figure of one paper, write its tidy tables (and its cross-paper summary)."""

import logging

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
    write_summary([out["csv"] for out in params.outputs.values()], pdf, png, ranking, finals)
    logging.info("wrote %s", pdf)
