# One job = one chunk of runs of one or more configurations of one algorithm: cheap chunks are packed
# together up to `job_seconds` (see dpbandits.pipeline.catalogue.jobs.plan_jobs). A BAI configuration is one curve:
# an algorithm's sweep over budgets, epsilons or ratios. Its inputs are the package files the job runs
# (dpbandits.pipeline.sources): editing any of them reruns exactly the jobs that run it.


rule simulate:
    input:
        algorithm_sources,
    output:
        job_path(RESULTS, JOB_KEY),
    log:
        f"{RESULTS}/logs/simulate/{JOB_KEY}.log",
    benchmark:
        f"{RESULTS}/benchmarks/simulate/{JOB_KEY}.tsv"
    conda:
        "../envs/dpbandits.yaml"
    resources:
        runtime=60,
        mem_mb=1000,
    params:
        entry=lambda w: ENTRY_POINTS[ALGORITHMS[w.algorithm].kind],
        specs=lambda w: shlex.quote(json.dumps(job_specs(w))),
    shell:
        "python -m {params.entry} --specs {params.specs} --start {wildcards.start}"
        " --stop {wildcards.stop} --out {output} --log {log}"
