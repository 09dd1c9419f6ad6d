"""Snakemake entry point: one paper's diagnoses and replication report (results/report/<paper>.{html,csv})."""

import tempfile
from pathlib import Path

from dpbandits.diagnoses import Context, diagnose
from dpbandits.diagnoses.render import findings_table, report_html

out, params = snakemake.output, snakemake.params  # noqa: F821
results = Path(out.html).parents[1]  # <results>/report/<paper>.html
with tempfile.TemporaryDirectory() as tmp:  # the diagnoses' drawings, embedded in the page
    ctx = Context(results, params.paper, params.sims, params.seed, params.settings["scale"], figure_dir=tmp)
    found = diagnose(ctx)
    Path(out.html).write_text(report_html(results, params.paper, params.settings, found, tmp))
findings_table(params.paper, found).to_csv(out.csv, index=False)
lines = [
    f"{d.name}: {f.conclusion}, mechanism {'shown' if f.confirmed else 'not shown'}: {f.summary}" for d, f in found
]
Path(snakemake.log[0]).write_text("\n".join(lines) + "\n")  # noqa: F821
