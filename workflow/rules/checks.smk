# Cross-paper checks: the claims ledger and the statistical privacy audit.


rule claims:
    input:
        [f for p in PAPERS for f in figure_files(p)],
    output:
        csv=report(f"{RESULTS}/claims.csv", category="claims ledger", caption="../report/claims.rst"),
        md=f"{RESULTS}/claims.md",
    log:
        f"{RESULTS}/logs/claims.log",
    run:
        from dpbandits.claims.theory import write_ledger

        write_ledger(RESULTS, output.csv, output.md)


rule audit:
    input:
        [str(BASE / s) for name in ALGORITHMS for s in ALGORITHMS[name].sources],
    output:
        csv=report(f"{RESULTS}/audit/audit.csv", category="privacy audit", caption="../report/audit.rst"),
        md=f"{RESULTS}/audit/audit.md",
    params:
        trials=config["audit"]["trials"],
        seed=config["seed"],
    log:
        f"{RESULTS}/logs/audit.log",
    shell:
        "python -m dpbandits.audit --out $(dirname {output.csv}) --trials {params.trials} --seed {params.seed}"
        " > {log} 2>&1"
