# One plotting job per paper figure: PDF + PNG + tidy summaries (curves and per-run finals).


rule figure:
    input:
        figure_sim_inputs,
    output:
        pdf=report(
            f"{RESULTS}/figures/{{paper}}/{{figure}}.pdf",
            caption="../report/figure.rst",
            category="{paper}",
        ),
        png=f"{RESULTS}/figures/{{paper}}/{{figure}}.png",
        csv=f"{RESULTS}/figures/{{paper}}/{{figure}}.csv",
        runs=f"{RESULTS}/figures/{{paper}}/{{figure}}_runs.csv",
    params:
        figure=lambda w: FIGURES[w.paper][w.figure],
    log:
        f"{RESULTS}/logs/figures/{{paper}}/{{figure}}.log",
    script:
        "../scripts/figure.py"


rule summary:
    input:
        lambda w: expand(f"{RESULTS}/figures/{w.paper}/{{figure}}.csv", figure=list(FIGURES[w.paper])),
    output:
        pdf=report(
            f"{RESULTS}/figures/{{paper}}/summary/heatmap.pdf",
            caption="../report/heatmap.rst",
            category="{paper}",
        ),
        png=f"{RESULTS}/figures/{{paper}}/summary/heatmap.png",
        ranking=report(f"{RESULTS}/figures/{{paper}}/summary/ranking.csv", category="{paper}"),
        finals=f"{RESULTS}/figures/{{paper}}/summary/finals.csv",
    log:
        f"{RESULTS}/logs/figures/{{paper}}/summary/summary.log",
    script:
        "../scripts/summary.py"


for _paper in PAPERS:

    rule:
        name:
            _paper
        input:
            paper_targets(_paper),

