"""dpbandits: differentially private bandit algorithms, fast and exact, with reference twins.

Importing it registers the built-in algorithms and the plugins (:mod:`dpbandits.plugins`).

>>> import dpbandits
>>> r = dpbandits.simulate("ucb", [0.9, 0.6], horizon=1000, epsilon=None, runs=2, seed=0)
>>> r.regret.shape[0]
2
"""

from . import _version
from .pipeline import numba_cache

__version__ = _version.version()  # one source: the package metadata (pyproject.toml)

numba_cache.configure()  # before any kernel module: compiled code is keyed by the sources it compiles

from . import (  # noqa: E402
    bai,
    bandits,  # noqa: E402,F401  (registers the algorithms)
    plugins,
    reference,
)
from .bai import simulate_bai  # noqa: E402
from .core.registry import ALGORITHMS  # noqa: E402
from .core.simulate import SimulationResult, simulate  # noqa: E402

plugins.load_plugins()  # entry points of group dpbandits.algorithms and DPBANDITS_PLUGINS

__all__ = ["ALGORITHMS", "SimulationResult", "__version__", "bai", "plugins", "reference", "simulate", "simulate_bai"]
