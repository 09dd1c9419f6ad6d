# One job = one chunk of runs of one simulation configuration (a BAI configuration is one curve:
# an algorithm's sweep over budgets, epsilons or ratios).


rule simulate:
    input:
        algorithm_sources,
    output:
        f"{RESULTS}/sims/{{algorithm}}/{{cid}}/runs{{start}}-{{stop}}.npz",
    params:
        spec=lambda w: shlex.quote(json.dumps(SIMS[w.cid].as_dict())),
    log:
        f"{RESULTS}/logs/simulate/{{algorithm}}/{{cid}}/runs{{start}}-{{stop}}.log",
    benchmark:
        f"{RESULTS}/benchmarks/simulate/{{algorithm}}/{{cid}}/runs{{start}}-{{stop}}.tsv"
    resources:
        runtime=60,
        mem_mb=1000,
    shell:
        "python -m dpbandits.pipeline --spec {params.spec} --start {wildcards.start}"
        " --stop {wildcards.stop} --out {output} --log {log}"
