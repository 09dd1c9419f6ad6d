# Reproduces every figure of five differentially private bandit papers. See README.md.


configfile: "config/config.yaml"


report: "workflow/report/workflow.rst"


include: "workflow/rules/common.smk"
include: "workflow/rules/simulate.smk"
include: "workflow/rules/readings.smk"
include: "workflow/rules/privacy.smk"
include: "workflow/rules/figures.smk"
include: "workflow/rules/notebooks.smk"
include: "workflow/rules/checks.smk"
include: "workflow/rules/report.smk"


# through Snakemake's logger, so the lines keep their place among its own
onstart:
    logger.info(
        f"dpbandits: {len(SIMS)} simulation configurations in {len(JOBS)} jobs, results in {RESULTS}/"
    )
    todo = list(workflow.dag.needrun_jobs())
    for line in cost_lines([str(f) for job in todo for f in job.output]):
        logger.info(line)
    progress.expect({workflow.dag.jobid(job): job_cost(job) for job in todo})


rule all:
    default_target: True
    input:
        [paper_targets(p) for p in PAPERS if p in config["targets"]],
        [f"{RESULTS}/claims.md", f"{RESULTS}/audit/audit.md"],
