"""The core API, the layer every other one builds on.

- :mod:`~dpbandits.core.registry`: algorithm descriptors and the registry ``ALGORITHMS``.
- :mod:`~dpbandits.core.simulate`: the regret runner behind ``dpbandits.simulate``.
- :mod:`~dpbandits.core.instances`: the papers' Bernoulli instances; :mod:`~dpbandits.core.laws`: reward laws.
- :mod:`~dpbandits.core.seeding`: per-run generators; :mod:`~dpbandits.core.checkpoints`: recorded time steps.
- :mod:`~dpbandits.core.validation`: argument checks whose errors name the argument.
- :mod:`~dpbandits.core.jit`: the numba compile options, spelled once.
- :mod:`~dpbandits.core.audit_tables`: neighbouring reward tables that algorithms' audit plans use.
- :mod:`~dpbandits.core.provenance`: which version and commit made an output.

It imports nothing from the other layers (``tests/test_layers.py``).
"""
