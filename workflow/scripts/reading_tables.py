"""Snakemake entry point: the tidy tables of one paper's figures under each of its readings, and manifests."""

import json
import logging
from pathlib import Path

from dpbandits.drawing.figures import write_tables

logging.basicConfig(filename=snakemake.log[0], level=logging.INFO)  # noqa: F821
params, out = snakemake.params, snakemake.output  # noqa: F821
tables = iter(out.tables)  # per reading, per figure: its curves table, then its per-run finals
for (slug, figures), manifest in zip(params.figures.items(), out.manifests, strict=True):
    for name, fig in figures.items():
        write_tables(fig, params.sims[slug][name], next(tables), next(tables))
    Path(manifest).write_text(json.dumps(params.manifests[slug], indent=2))
    logging.info("reading %s: %d figures", slug, len(figures))
