"""Snakemake entry point: one paper's claims under every reading (results/claims/<paper>.csv)."""

from pathlib import Path

from dpbandits.claims.ledger import write_paper

out = Path(snakemake.output[0])  # noqa: F821
params = snakemake.params  # noqa: F821
df = write_paper(out.parents[1], params.paper, params.readings, out)  # results/claims/<paper>.csv
Path(snakemake.log[0]).write_text(f"{len(df)} rows ({len(params.readings)} readings) -> {out}\n")  # noqa: F821
