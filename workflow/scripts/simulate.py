"""Snakemake entry point: simulate one chunk of runs (logic in dpbandits.pipeline)."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(snakemake.scriptdir).parents[1] / "src"))  # noqa: F821

import json

from dpbandits.pipeline import run_chunk

w = snakemake.wildcards  # noqa: F821
info = run_chunk(snakemake.params.spec, int(w.start), int(w.stop), snakemake.output[0])  # noqa: F821
with open(snakemake.log[0], "w") as fh:  # noqa: F821
    json.dump({"spec": snakemake.params.spec, **info}, fh, indent=1)  # noqa: F821
