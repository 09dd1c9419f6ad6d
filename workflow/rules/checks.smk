# Cross-paper checks: the claims ledger and the statistical privacy audit.


for _paper in PAPERS:

    rule:
        name:
            f"claims_{_paper}"
        input:
            [
                figure_paths(figures_dir(RESULTS, _paper), name)["csv"]
                for name in FIGURES[_paper]
                if not is_diagnostic(name)
            ],
            [f for slug in paper_readings(_paper) for f in reading_files(_paper, slug)],
            privacy_file(_paper),
            script_sources("paper_claims.py"),
        output:
            claims_file(_paper),
        log:
            f"{RESULTS}/logs/claims/{_paper}.log",
        conda:
            "../envs/dpbandits.yaml"
        params:
            paper=_paper,
            readings=paper_readings(_paper),
        script:
            "../scripts/paper_claims.py"


rule claims:
    input:
        papers=[claims_file(p) for p in PAPERS if p in config["targets"]],
        code=script_sources("claims_ledger.py"),
    output:
        csv=report(
            f"{RESULTS}/claims.csv",
            category="claims ledger",
            caption="../report/claims.rst",
        ),
        md=f"{RESULTS}/claims.md",
        diagnostic=f"{RESULTS}/claims_readings.csv",
    log:
        f"{RESULTS}/logs/claims.log",
    conda:
        "../envs/dpbandits.yaml"
    params:
        scale=config["scale"],
    script:
        "../scripts/claims_ledger.py"


# The audit runs every private algorithm's reference twin and, where it declares replay, its fast kernel.
rule audit:
    input:
        sorted(
            {
                *sources.closure(
                    "dpbandits.audit.__main__",
                    "dpbandits.audit.cli",
                    *sources.submodules("dpbandits.reference"),
                ),
                *(f for name in ALGORITHMS for f in sources.algorithm_files(name)),
            }
        ),
    output:
        csv=report(
            f"{RESULTS}/audit/audit.csv",
            category="privacy audit",
            caption="../report/audit.rst",
        ),
        md=f"{RESULTS}/audit/audit.md",
        power=report(
            f"{RESULTS}/audit/power.csv",
            category="privacy audit",
            caption="../report/audit_power.rst",
        ),
        power_md=f"{RESULTS}/audit/power.md",
    log:
        f"{RESULTS}/logs/audit.log",
    conda:
        "../envs/dpbandits.yaml"
    params:
        trials=config["audit"]["trials"],
        seed=config["seed"],
        power=" ".join(f"{f:g}" for f in config["audit"]["power_factors"]),
        ladder=" ".join(str(n) for n in config["audit"]["power_ladder"]),
    shell:
        "python -m dpbandits.audit --out $(dirname {output.csv}) --trials {params.trials} --seed {params.seed}"
        " --power-factors {params.power} --power-table --ladder {params.ladder} > {log} 2>&1"
