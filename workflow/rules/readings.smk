# Alternative readings of the reconstructed values (docs/reconstructions.md): each paper's figures are
# expanded again under every reading (dpbandits.readings); configurations a reading does not change are the
# default ones (same content hash), so only the changed curves are simulated. A reading writes only the tidy
# tables the claims read, under results/readings/<reading>/figures/<paper>/, and a reading.json manifest. One
# job per paper writes the tables of all its readings (a few seconds of work after ~3 s of imports).


def reading_tables(paper, slug):
    """Tables and manifest that reading ``slug`` writes for ``paper``."""
    base = f"{RESULTS}/readings/{slug}/figures/{paper}"
    names = list(READINGS[slug][1][paper])
    return [
        f"{base}/{name}{suffix}.csv" for name in names for suffix in ("", "_runs")
    ] + [f"{base}/reading.json"]


def paper_readings(paper):
    """Slugs of the readings of ``paper``."""
    return [slug for slug, (reading, _) in READINGS.items() if paper in reading.papers]


def reading_sims(paper):
    """{slug: {figure: {cid: [job result files]}}} of the readings of ``paper``."""
    return {
        slug: {
            name: catalogue.figure_sims(config, WHERE, fig)
            for name, fig in READINGS[slug][1][paper].items()
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
            [f for slug in paper_readings(_paper) for f in reading_tables(_paper, slug)],
        log:
            f"{RESULTS}/logs/readings/{_paper}.log",
        conda:
            "../envs/dpbandits.yaml"
        resources:
            runtime=30,
            mem_mb=2000,
        params:
            paper=_paper,
            figures={slug: READINGS[slug][1][_paper] for slug in paper_readings(_paper)},
            sims=reading_sims(_paper),
            outputs={
                slug: reading_tables(_paper, slug) for slug in paper_readings(_paper)
            },
            manifests={
                slug: readings.manifest(READINGS[slug][0], READINGS[slug][1], SIMS)
                for slug in paper_readings(_paper)
            },
        script:
            "../scripts/reading_tables.py"
