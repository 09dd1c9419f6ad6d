# Papermill executes notebooks/{paper}.ipynb into results/notebooks/, and nbconvert renders it to HTML in the
# same job (one process start-up instead of two). A notebook gets only its paper's settings, so editing
# another paper (or e.g. `audit`) does not rerun it; editing a package module its code cells import does.


rule notebook:
    input:
        notebook="notebooks/{paper}.ipynb",
        figures=lambda w: figure_files(w.paper) + summary_files(w.paper),
        claims=lambda w: claims_file(w.paper),
        code=lambda w: sources.script_sources(f"notebooks/{w.paper}.ipynb"),
    output:
        ipynb=f"{RESULTS}/notebooks/{{paper}}.ipynb",
        html=f"{RESULTS}/notebooks/{{paper}}.html",
    log:
        f"{RESULTS}/logs/notebooks/{{paper}}.log",
    conda:
        "../envs/dpbandits.yaml"
    params:
        settings=lambda w: paper_settings(config, w.paper, FIGURES[w.paper]),
    script:
        "../scripts/render_notebook.py"  # not notebook.py: nbconvert imports a module named `notebook`
