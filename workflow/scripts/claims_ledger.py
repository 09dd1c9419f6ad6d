"""Snakemake entry point: gather the per-paper claims into the claims ledger and its reading diagnostic."""

from pathlib import Path

from dpbandits.claims.ledger import write_ledger
from dpbandits.provenance import made_with

out = snakemake.output  # noqa: F821
df = write_ledger(snakemake.input.papers, out.csv, out.md, out.diagnostic, made_with(),  # noqa: F821
                  snakemake.params.scale)  # noqa: F821
Path(snakemake.log[0]).write_text(f"{len(df)} rows -> {out.csv}\n")  # noqa: F821
