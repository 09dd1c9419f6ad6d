"""Snakemake entry point: the tidy tables of one paper's figures under each of its readings, and manifests."""

import json
import logging
from pathlib import Path

from dpbandits.figures import write_tables

logging.basicConfig(filename=snakemake.log[0], level=logging.INFO)  # noqa: F821
params = snakemake.params  # noqa: F821
for slug, figures in params.figures.items():
    outputs = params.outputs[slug]
    for i, (name, fig) in enumerate(figures.items()):
        write_tables(fig, params.sims[slug][name], outputs[2 * i], outputs[2 * i + 1])
    Path(outputs[-1]).write_text(json.dumps(params.manifests[slug], indent=2))
    logging.info("reading %s: %d figures", slug, len(figures))
