# Cross-paper checks: the claims ledger and the statistical privacy audit.


def claims_file(paper):
    return f"{RESULTS}/claims/{paper}.csv"


for _paper in PAPERS:

    rule:
        name:
            f"claims_{_paper}"
        input:
            [f for f in figure_files(_paper) if f.endswith(".csv")],
            [f for slug in paper_readings(_paper) for f in reading_tables(_paper, slug)],
        output:
            claims_file(_paper),
        params:
            paper=_paper,
            readings=paper_readings(_paper),
        log:
            f"{RESULTS}/logs/claims/{_paper}.log",
        run:
            from dpbandits.claims.ledger import write_paper

            df = write_paper(RESULTS, params.paper, params.readings, output[0])
            Path(log[0]).write_text(f"{len(df)} rows ({len(params.readings)} readings) -> {output[0]}\n")


rule claims:
    input:
        [claims_file(p) for p in PAPERS if p in config["targets"]],
    output:
        csv=report(f"{RESULTS}/claims.csv", category="claims ledger", caption="../report/claims.rst"),
        md=f"{RESULTS}/claims.md",
        diagnostic=f"{RESULTS}/claims_readings.csv",
    log:
        f"{RESULTS}/logs/claims.log",
    run:
        from dpbandits.claims.ledger import write_ledger

        df = write_ledger(input, output.csv, output.md, output.diagnostic)
        Path(log[0]).write_text(f"{len(df)} rows -> {output.csv}\n")


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
