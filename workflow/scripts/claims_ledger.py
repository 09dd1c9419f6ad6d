"""Snakemake entry point: gather the per-paper claims into the claims ledger and its reading diagnostic."""

from pathlib import Path

from dpbandits.claims.page import write_ledger
from dpbandits.core.provenance import made_with

inp, out, params = snakemake.input, snakemake.output, snakemake.params  # noqa: F821
df = write_ledger(inp.papers, out.csv, out.md, out.diagnostic, made_with(), params.scale)
Path(snakemake.log[0]).write_text(f"{len(df)} rows -> {out.csv}\n")  # noqa: F821
