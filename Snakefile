# Reproduces every figure of five differentially private bandit papers. See README.md.


configfile: "config/config.yaml"


report: "workflow/report/workflow.rst"


include: "workflow/rules/common.smk"
include: "workflow/rules/simulate.smk"
include: "workflow/rules/readings.smk"
include: "workflow/rules/figures.smk"
include: "workflow/rules/notebooks.smk"
include: "workflow/rules/checks.smk"


onstart:
    print(
        f"dpbandits: {len(SIMS)} simulation configurations in {len(JOBS)} jobs, results in {RESULTS}/"
    )
    for line in catalogue.cost_summary(JOBS, RESULTS, config["cost_warning_hours"]):
        print(line)


rule all:
    default_target: True
    input:
        [paper_targets(p) for p in PAPERS if p in config["targets"]],
        [f"{RESULTS}/claims.md", f"{RESULTS}/audit/audit.md"],
