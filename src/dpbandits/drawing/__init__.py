"""Drawing and reading the results: figures, tables, bounds and the notebooks' helpers.

- :mod:`~dpbandits.drawing.plotting`: figures and tidy summaries of regret curves.
- :mod:`~dpbandits.drawing.style`: one colour and marker per algorithm, print settings.
- :mod:`~dpbandits.drawing.figures`: the figure rules' entry points.
- :mod:`~dpbandits.drawing.frontier`: the privacy-utility frontier.
- :mod:`~dpbandits.drawing.crosspaper`: every algorithm on every paper's instances, normalised and ranked.
- :mod:`~dpbandits.drawing.theory`: the papers' regret upper bounds.
- :mod:`~dpbandits.drawing.notebook`: helpers of the rendered notebooks.

The same layer holds :mod:`dpbandits.claims` (the verdicts) and :mod:`dpbandits.diagnoses` (the replication
reports). It builds on the pipeline and everything below it.
"""
