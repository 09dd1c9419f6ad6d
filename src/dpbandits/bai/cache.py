"""Designs (Max-Det collections, G-optimal designs) cached by active set: they depend on public data only."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np


class DesignCache:
    """Memoise ``compute(key)`` by a hashable key, usually the sorted tuple of active arm indices."""

    def __init__(self, compute: Callable[[tuple], Any]):
        self._compute = compute
        self._store: dict[tuple, Any] = {}

    def __call__(self, key) -> Any:
        key = tuple(key.tolist()) if isinstance(key, np.ndarray) else key
        if key not in self._store:
            self._store[key] = self._compute(key)
        return self._store[key]
