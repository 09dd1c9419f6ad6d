"""Snakemake entry point: cross-paper heat-map and ranking (logic in dpbandits.crosspaper)."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(snakemake.scriptdir).parents[1] / "src"))  # noqa: F821

from dpbandits.crosspaper import write_summary  # noqa: E402

out = snakemake.output  # noqa: F821
write_summary(snakemake.input, out.pdf, out.png, out.ranking, out.finals)  # noqa: F821
