"""The Snakemake pipeline's Python side: from the config to simulation jobs and their result files.

- :mod:`~dpbandits.pipeline.configfile`: the config's schema, defaults, compact forms and documentation.
- :mod:`~dpbandits.pipeline.catalogue`: figures, panels, curves and simulation jobs expanded from the config.
- :mod:`~dpbandits.pipeline.planning`: config -> plan (every check before any job runs).
- :mod:`~dpbandits.pipeline.readings`: the figures re-simulated under other readings of lost values.
- :mod:`~dpbandits.pipeline.sources`: which package files a job runs (what reruns after an edit).
- :mod:`~dpbandits.pipeline.numba_cache`: compiled kernels keyed by the code they compile.
- :mod:`~dpbandits.pipeline.entry` and :mod:`~dpbandits.pipeline.entry_bai`: the simulation jobs' entry points.
- :mod:`~dpbandits.pipeline.io`: result files; :mod:`~dpbandits.pipeline.lockcheck`: their versions against the lock.
- :mod:`~dpbandits.pipeline.progress`: one terminal line per finished job.

It builds on :mod:`dpbandits.core`, :mod:`dpbandits.mechanisms` and the algorithms.
"""
