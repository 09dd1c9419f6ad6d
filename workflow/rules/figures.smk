# One plotting job per paper: every figure's PDF + PNG + tidy tables (curves and per-run finals), plus the
# cross-paper heat-map and ranking where the paper sets `summary: true`. One process per paper keeps the
# ~5 s of plotting imports off each figure; `snakemake results/figures/<paper>/<figure>.pdf` redraws it.


def figure_outputs(paper):
    """{figure: {"pdf", "png", "csv", "runs"}: path} of one paper."""
    base = f"{RESULTS}/figures/{paper}"
    return {
        name: {
            "pdf": f"{base}/{name}.pdf",
            "png": f"{base}/{name}.png",
            "csv": f"{base}/{name}.csv",
            "runs": f"{base}/{name}_runs.csv",
        }
        for name in FIGURES[paper]
    }


def paper_sims(paper):
    """{figure: {cid: [job result files]}} of one paper."""
    return {
        name: catalogue.figure_sims(config, WHERE, fig)
        for name, fig in FIGURES[paper].items()
    }


for _paper in PAPERS:
    _outputs = figure_outputs(_paper)
    _summary = summary_files(_paper)
    _frontier = frontier_files(_paper)

    rule:
        name:
            f"figures_{_paper}"
        input:
            sorted(
                {
                    p
                    for sims in paper_sims(_paper).values()
                    for paths in sims.values()
                    for p in paths
                }
            ),
            script_sources("figures.py"),
        output:
            [
                report(
                    f["pdf"],
                    caption="../report/figure.rst",
                    category=_paper,
                    labels={"figure": name},
                )
                for name, f in _outputs.items()
            ],
            [f[ext] for f in _outputs.values() for ext in ("png", "csv", "runs")],
            [
                (
                    report(p, caption="../report/heatmap.rst", category=_paper)
                    if p.endswith(".pdf")
                    else p
                )
                for p in _summary
            ],
            [
                (
                    report(p, caption="../report/frontier.rst", category=_paper)
                    if p.endswith(".pdf")
                    else p
                )
                for p in _frontier
            ],
        log:
            f"{RESULTS}/logs/figures/{_paper}.log",
        conda:
            "../envs/dpbandits.yaml"
        resources:
            runtime=30,
            mem_mb=2000,
        params:
            figures=FIGURES[_paper],
            sims=paper_sims(_paper),
            outputs=_outputs,
            summary=_summary,
            frontier=_frontier,
        script:
            "../scripts/figures.py"

    rule:
        name:
            _paper
        input:
            paper_targets(_paper),
