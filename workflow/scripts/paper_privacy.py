"""Snakemake entry point: one paper's spent privacy under every reading (results/privacy/<paper>.csv)."""

from pathlib import Path

from dpbandits.privacy import table

out = Path(snakemake.output[0])  # noqa: F821
settings = snakemake.params.settings  # noqa: F821
df = table(settings)
out.parent.mkdir(parents=True, exist_ok=True)
df.to_csv(out, index=False)
lines = [
    f"{len(df)} settings -> {out}",
    *(f"{r.reading} {r.algorithm} eps={r.epsilon:g}: {r.ratio:.4g}" for r in df.itertuples()),
]
Path(snakemake.log[0]).write_text("\n".join(lines) + "\n")  # noqa: F821
