#!/usr/bin/env bash
# Snakemake runs this in the new environment from the workflow's working directory (the repository root):
# install this checkout's package, editable, so jobs run the code their inputs (dpbandits.pipeline.sources) name.
set -euo pipefail
python -m pip install --no-deps --quiet -e .
