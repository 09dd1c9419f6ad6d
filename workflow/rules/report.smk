# Each paper's replication report (results/report/<paper>.html): its verdicts, the diagnoses of its failing
# claims with their experiments (dpbandits.diagnoses; docs/findings.md), its verdicts under every reading, the
# reading axes and its figures, in one page that reads offline. A diagnosis's figures and, where it reads them,
# the readings' tables are the job's inputs, so editing a diagnosis or what it reads reruns only this job.


def report_files(paper):
    return [f"{RESULTS}/report/{paper}.html", f"{RESULTS}/report/{paper}.csv"]


def diagnosis_sims(paper):
    """{figure: {cid: [job result files]}} of the figures the paper's diagnoses load simulations of."""
    names = sorted({f for d in diagnoses.diagnoses(paper) for f in d.figures})
    return {name: figure_sims(config, WHERE, FIGURES[paper][name]) for name in names}


def diagnosis_readings(paper):
    """The readings' tables of ``paper``, if one of its diagnoses reads them."""
    if not any(d.readings for d in diagnoses.diagnoses(paper)):
        return []
    return [f for slug in paper_readings(paper) for f in reading_files(paper, slug)]


for _paper in PAPERS:

    rule:
        name:
            f"report_{_paper}"
        input:
            claims=claims_file(_paper),
            figures=[
                figure_paths(figures_dir(RESULTS, _paper), name)[what]
                for name in FIGURES[_paper]
                for what in ("png", "csv", "runs")
            ],
            sims=sorted(
                {
                    p
                    for sims in diagnosis_sims(_paper).values()
                    for paths in sims.values()
                    for p in paths
                }
            ),
            readings=diagnosis_readings(_paper),
            code=script_sources("replication_report.py"),
        output:
            html=report(
                f"{RESULTS}/report/{_paper}.html",
                category=_paper,
                caption="../report/replication.rst",
            ),
            csv=f"{RESULTS}/report/{_paper}.csv",
        log:
            f"{RESULTS}/logs/report/{_paper}.log",
        conda:
            "../envs/dpbandits.yaml"
        resources:
            runtime=30,
            mem_mb=4000,
        params:
            paper=_paper,
            sims=diagnosis_sims(_paper),
            seed=config["seed"],
            settings=paper_settings(config, _paper, FIGURES[_paper]),
        script:
            "../scripts/replication_report.py"
