# Each paper's spent privacy: every private algorithm's releases at the paper's largest horizon, under the
# default and every reading, composed per reward (dpbandits.privacy); the figures' captions and the claims
# ledger read it.


def privacy_settings(paper):
    """Where paper ``paper``'s private algorithms are accounted, under the default and every reading
    (dpbandits.pipeline.privacy_plan)."""
    out = privacy_plan.settings(FIGURES[paper], SIMS)
    for slug in paper_readings(paper):
        read = READINGS[slug]
        out += privacy_plan.settings(
            read.figures[paper], SIMS, read.reading.name, read.reading.algorithm_params
        )
    return out


def privacy_file(paper):
    return f"{RESULTS}/privacy/{paper}.csv"


for _paper in PAPERS:

    rule:
        name:
            f"privacy_{_paper}"
        input:
            sorted(
                {
                    f
                    for s in privacy_settings(_paper)
                    for f in sources.algorithm_files(s["algorithm"])
                }
            ),
            script_sources("paper_privacy.py"),
        output:
            privacy_file(_paper),
        log:
            f"{RESULTS}/logs/privacy/{_paper}.log",
        conda:
            "../envs/dpbandits.yaml"
        params:
            settings=privacy_settings(_paper),
        script:
            "../scripts/paper_privacy.py"
