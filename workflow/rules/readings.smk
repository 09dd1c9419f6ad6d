# Alternative readings of the reconstructed values (docs/reconstructions.md): each paper's figures are
# expanded again under every reading (dpbandits.pipeline.readings); configurations a reading does not change are the
# default ones (same content hash), so only the changed curves are simulated. A reading writes only the tidy
# tables the claims read, under results/readings/<reading>/figures/<paper>/, and a reading.json manifest. One
# job per paper writes the tables of all its readings (a few seconds of work after ~3 s of imports).


def reading_tables(paper, slug):
    """Tidy tables that reading ``slug`` writes for ``paper``: each figure's curves, then its per-run finals."""
    base = figures_dir(RESULTS, paper, slug)
    return [
        figure_paths(base, name)[what]
        for name in READINGS[slug].figures[paper]
        for what in ("csv", "runs")
    ]


def reading_manifest(paper, slug):
    """The manifest of reading ``slug`` for ``paper`` (what it changed, with how many runs)."""
    return f"{figures_dir(RESULTS, paper, slug)}/reading.json"


def reading_files(paper, slug):
    """Everything reading ``slug`` writes for ``paper`` (what the claims read)."""
    return reading_tables(paper, slug) + [reading_manifest(paper, slug)]


def paper_readings(paper):
    """Slugs of the readings of ``paper``."""
    return [slug for slug, read in READINGS.items() if paper in read.reading.papers]


def reading_sims(paper):
    """{slug: {figure: {cid: [job result files]}}} of the readings of ``paper``."""
    return {
        slug: {
            name: figure_sims(config, WHERE, fig)
            for name, fig in READINGS[slug].figures[paper].items()
        }
        for slug in paper_readings(paper)
    }


for _paper in PAPERS:
    if not paper_readings(_paper):
        continue

    rule:
        name:
            f"readings_{_paper}"
        input:
            sorted(
                {
                    p
                    for figs in reading_sims(_paper).values()
                    for sims in figs.values()
                    for ps in sims.values()
                    for p in ps
                }
            ),
            script_sources("reading_tables.py"),
        output:
            tables=[
                f
                for slug in paper_readings(_paper)
                for f in reading_tables(_paper, slug)
            ],
            manifests=[
                reading_manifest(_paper, slug) for slug in paper_readings(_paper)
            ],
        log:
            f"{RESULTS}/logs/readings/{_paper}.log",
        conda:
            "../envs/dpbandits.yaml"
        resources:
            runtime=30,
            mem_mb=2000,
        params:
            paper=_paper,
            figures={
                slug: READINGS[slug].figures[_paper] for slug in paper_readings(_paper)
            },
            sims=reading_sims(_paper),
            manifests={
                slug: readings.manifest(
                    READINGS[slug].reading, READINGS[slug].figures, SIMS
                )
                for slug in paper_readings(_paper)
            },
        script:
            "../scripts/reading_tables.py"
