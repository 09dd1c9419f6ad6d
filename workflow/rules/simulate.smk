# One job = one chunk of runs of one or more configurations of one algorithm: cheap chunks are packed
# together up to `job_seconds` (see dpbandits.catalogue.plan_jobs). A BAI configuration is one curve:
# an algorithm's sweep over budgets, epsilons or ratios.


rule simulate:
    input:
        algorithm_sources,
    output:
        f"{RESULTS}/sims/{{algorithm}}/{{bid}}/runs{{start}}-{{stop}}.npz",
    params:
        specs=lambda w: shlex.quote(json.dumps(job_specs(w))),
    log:
        f"{RESULTS}/logs/simulate/{{algorithm}}/{{bid}}/runs{{start}}-{{stop}}.log",
    benchmark:
        f"{RESULTS}/benchmarks/simulate/{{algorithm}}/{{bid}}/runs{{start}}-{{stop}}.tsv"
    resources:
        runtime=60,
        mem_mb=1000,
    shell:
        "python -m dpbandits.pipeline --specs {params.specs} --start {wildcards.start}"
        " --stop {wildcards.stop} --out {output} --log {log}"
