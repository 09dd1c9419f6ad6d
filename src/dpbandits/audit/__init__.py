"""Statistical privacy audit: Monte-Carlo privacy loss of the released actions on neighbouring reward tables.

- :mod:`~dpbandits.audit.runners`: what runs on a fixed table (reference twin, BAI ``run_on_table``, or the
  fast kernel through its replay);
- :mod:`~dpbandits.audit.stats`: Clopper-Pearson bounds of the loss;
- :mod:`~dpbandits.audit.loss`: one algorithm's audit (:func:`~dpbandits.audit.loss.audit_algorithm`);
- :mod:`~dpbandits.audit.run`: every private algorithm with its under-noised controls and power rows;
- :mod:`~dpbandits.audit.report`: ``audit.md``;
- :mod:`~dpbandits.audit.cli`: the ``dpbandits audit`` command (also ``python -m dpbandits.audit``);
- :mod:`~dpbandits.audit.counters`: exact loss of linear Laplace continual counters.

Each algorithm's plan (horizon, tables, parameter hints) is its ``Algorithm.audit``
(:class:`dpbandits.core.registry.Audit`); the candidate tables are built by :mod:`dpbandits.core.audit_tables`.
"""
