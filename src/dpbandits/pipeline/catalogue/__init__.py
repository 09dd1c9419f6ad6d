"""Figure catalogue: the config's figure descriptions expanded into simulation configurations and jobs.

Import the module you need (this package re-exports nothing, so that a job depends only on the modules it
imports, :mod:`dpbandits.pipeline.sources`):

* :mod:`~dpbandits.pipeline.catalogue.model`: the data model (``SimSpec``, ``Curve``, ``Panel``, ``Figure``, ``Job``),
  ``ConfigError`` and its key paths (``keypath``), and where jobs and figures write their files;
* :mod:`~dpbandits.pipeline.catalogue.expand`: validation and expansion of the config's figures (``expand``);
* :mod:`~dpbandits.pipeline.catalogue.jobs`: runs cut into chunks and packed into simulation jobs (``plan_jobs``);
* :mod:`~dpbandits.pipeline.catalogue.costs`: cost estimates of jobs and the warning of a costly run;
* :mod:`~dpbandits.pipeline.catalogue.text`: figure settings as text for captions and notebooks (``paper_settings``).
"""
