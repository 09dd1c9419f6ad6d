# One plotting job per paper: every figure's PDF + PNG + tidy tables (curves and per-run finals), plus the
# cross-paper heat-map and ranking where the paper sets `summary: true`. One process per paper keeps the
# ~5 s of plotting imports off each figure; `snakemake results/figures/<paper>/<figure>.pdf` redraws it.


def figure_outputs(paper):
    """{figure: {"pdf", "png", "csv", "runs"}: path} of one paper."""
    base = figures_dir(RESULTS, paper)
    return {name: figure_paths(base, name) for name in FIGURES[paper]}


def paper_sims(paper):
    """{figure: {cid: [job result files]}} of one paper."""
    return {
        name: figure_sims(config, WHERE, fig) for name, fig in FIGURES[paper].items()
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
            privacy=privacy_file(_paper),
        output:
            # each list in the order of params.figures
            pdf=[
                report(
                    f["pdf"],
                    caption="../report/figure.rst",
                    category=_paper,
                    labels={"figure": name},
                )
                for name, f in _outputs.items()
            ],
            png=[f["png"] for f in _outputs.values()],
            csv=[f["csv"] for f in _outputs.values()],
            runs=[f["runs"] for f in _outputs.values()],
            summary=[
                (
                    report(p, caption="../report/heatmap.rst", category=_paper)
                    if p.endswith(".pdf")
                    else p
                )
                for p in _summary
            ],
            frontier=[
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
        script:
            "../scripts/figures.py"

    rule:
        name:
            _paper
        input:
            paper_targets(_paper),
