# Papermill executes notebooks/{paper}.ipynb into results/notebooks/, nbconvert renders HTML.


rule notebook:
    input:
        notebook="notebooks/{paper}.ipynb",
        figures=lambda w: figure_files(w.paper) + summary_files(w.paper),
    output:
        f"{RESULTS}/notebooks/{{paper}}.ipynb",
    params:
        results=RESULTS,
        config=config,
    log:
        f"{RESULTS}/logs/notebooks/{{paper}}.log",
    script:
        "../scripts/notebook.py"


rule html:
    input:
        f"{RESULTS}/notebooks/{{paper}}.ipynb",
    output:
        f"{RESULTS}/notebooks/{{paper}}.html",
    log:
        f"{RESULTS}/logs/notebooks/{{paper}}.html.log",
    shell:
        "python -m nbconvert --to html --output-dir $(dirname {output}) {input} > {log} 2>&1"
