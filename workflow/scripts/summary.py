"""Snakemake entry point: cross-paper heat-map and ranking (logic in dpbandits.crosspaper)."""

from dpbandits.crosspaper import write_summary

out = snakemake.output  # noqa: F821
write_summary(snakemake.input, out.pdf, out.png, out.ranking, out.finals)  # noqa: F821
