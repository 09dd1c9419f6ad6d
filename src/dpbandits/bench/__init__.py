"""Benchmark of the regret kernels: ns per pull, speed-up over the reference twins, memory, pipeline cost.

- :mod:`~dpbandits.bench.timing`: one kernel and its reference twin timed (:func:`~dpbandits.bench.timing.bench`);
- :mod:`~dpbandits.bench.cost`: the pipeline's cost estimated from those timings and the catalogue;
- :mod:`~dpbandits.bench.report`: the markdown tables;
- :mod:`~dpbandits.bench.cli`: the ``dpbandits bench`` command (also ``python -m dpbandits.bench``).
"""
