"""Snakemake entry point: draw one paper figure and write its tidy tables."""

import logging

from dpbandits.pipeline import make_figure

logging.basicConfig(filename=snakemake.log[0], level=logging.INFO)  # noqa: F821
out = snakemake.output  # noqa: F821
make_figure(snakemake.params.figure, snakemake.input, out.pdf, out.png, out.csv, out.runs)  # noqa: F821
logging.info("wrote %s", out.pdf)
