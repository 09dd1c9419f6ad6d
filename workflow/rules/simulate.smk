# One job = one chunk of runs of one simulation configuration. The job runs inside the Snakemake
# process (`run:`), so imports and numba compilation happen once, not once per job; the kernels
# release the GIL, so jobs still run in parallel on --cores.


rule simulate:
    input:
        algorithm_sources,
    output:
        f"{RESULTS}/sims/{{algorithm}}/{{cid}}/runs{{start}}-{{stop}}.npz",
    params:
        spec=lambda w: SIMS[w.cid].as_dict(),
    log:
        f"{RESULTS}/logs/simulate/{{algorithm}}/{{cid}}/runs{{start}}-{{stop}}.log",
    benchmark:
        f"{RESULTS}/benchmarks/simulate/{{algorithm}}/{{cid}}/runs{{start}}-{{stop}}.tsv"
    resources:
        runtime=60,
        mem_mb=1000,
    run:
        info = pipeline.run_chunk(params.spec, int(wildcards.start), int(wildcards.stop), output[0])
        pipeline.write_json(log[0], {"spec": params.spec, **info})
