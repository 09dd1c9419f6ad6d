"""Regret-minimisation algorithms: one module per algorithm, each registering itself on import.

UCB, the non-private reference, registers first; the others follow in module name order (the order of
``ALGORITHMS``, and with it of the tables that list algorithms).
"""

import importlib
import pkgutil

for _name in ["ucb", *(m.name for m in pkgutil.iter_modules(__path__) if not m.name.startswith("_"))]:
    importlib.import_module(f"{__name__}.{_name}")
