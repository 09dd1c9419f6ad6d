"""Algorithm descriptors and the global registry ``ALGORITHMS``.

Every algorithm module registers one :class:`Algorithm`. The fast entry point ``run`` simulates
one run; ``dpbandits.simulate`` loops over runs with per-run generators (see :mod:`.seeding`).
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from numbers import Real
from typing import Any


@dataclass(frozen=True)
class Param:
    """One algorithm parameter: its default and either allowed ``choices`` or a numeric range.

    ``readings`` makes the parameter a *reading axis*: a value the papers' text does not fix. It maps
    each plausible value (the default first) to a one-line reason it is plausible (the paper's
    sentence with its location, or an independent implementation's reading); ``docs/reconstructions.md``
    explains each axis at length. The claims ledger re-evaluates every claim under each non-default
    reading (see :mod:`dpbandits.readings`).
    """

    default: Any
    choices: tuple | None = None
    low: float | None = None  # exclusive lower bound for numeric parameters
    doc: str = ""
    readings: dict | None = None  # {value: reason}, default first; None = not a reading axis

    def __post_init__(self):
        if self.readings is not None:
            values = list(self.readings)
            if len(values) < 2 or values[0] != self.default:
                raise ValueError(f"Param readings must list >= 2 values, the default {self.default!r} first; "
                                 f"got {values}")
            for value in values:
                self.check("<readings>", "value", value)

    @property
    def is_axis(self) -> bool:
        """True if the parameter is a reading axis (several plausible readings)."""
        return self.readings is not None

    def check(self, algorithm: str, name: str, value: Any) -> Any:
        """Return ``value`` if valid, else raise ``ValueError`` naming the parameter."""
        if self.choices is not None:
            if value not in self.choices:
                raise ValueError(
                    f"{algorithm}: parameter {name}={value!r} is not one of {list(self.choices)}"
                )
            return value
        if isinstance(self.default, bool):
            if not isinstance(value, bool):
                raise ValueError(f"{algorithm}: parameter {name} must be true or false, got {value!r}")
            return value
        if isinstance(self.default, (int, float)):
            if isinstance(value, bool) or not isinstance(value, (int, float)):
                raise ValueError(f"{algorithm}: parameter {name} must be a number, got {value!r}")
            if self.low is not None and not value > self.low:
                raise ValueError(f"{algorithm}: parameter {name} must be > {self.low}, got {value!r}")
            return type(self.default)(value) if isinstance(self.default, float) else value
        return value


class OptionalProbability(Param):
    """A probability in (0, 1), or None (then resolved by the algorithm, e.g. beta = 1/T)."""

    def check(self, algorithm: str, name: str, value):
        if value is None:
            return None
        if isinstance(value, bool) or not isinstance(value, Real) or not 0 < value < 1:
            raise ValueError(f"{algorithm}: parameter {name} must be None or lie in (0, 1), got {value!r}")
        return float(value)


@dataclass(frozen=True)
class Algorithm:
    """Descriptor of one algorithm.

    ``kind == "regret"``: ``run(means, horizon, epsilon, checkpoints, rng, params) -> (regret[C],
    pulls[K], reward_sum)`` simulates one run; the optional ``run_batch(means, horizon, epsilon,
    checkpoints, rngs, params) -> (regret[R, C], pulls[R, K], reward_sum[R])`` simulates one run per
    generator, each exactly as ``run`` would (``dpbandits.simulate`` uses it when present).
    ``kind == "bai"``: ``run(arms, budget, epsilon, rngs, params, table_for) -> int64[len(rngs)]``
    recommended arms, one per generator (see :mod:`dpbandits.bai`).
    ``module`` is the registering module (set by :func:`register`); its import closure decides which edits
    rerun the algorithm's simulations (:mod:`dpbandits.sources`). ``cost_ns`` (from
    ``python -m dpbandits.bench``, K = 20) only sizes the pipeline's jobs.
    """

    name: str
    kind: str  # "regret" or "bai"
    label: str
    private: bool
    run: Callable
    params: dict[str, Param] = field(default_factory=dict)
    module: str = ""  # set by register()
    needs_horizon: bool = False  # True if the algorithm reads T (not anytime)
    doc: str = ""
    run_batch: Callable | None = None  # regret only: several runs in one call (e.g. interleaved)
    cost_ns: float = 100.0  # rough ns of one core per pull (regret) or per budget unit of a trial (bai); job sizing

    def resolve(self, params: dict) -> dict:
        """Fill defaults and validate ``params``; unknown names raise ``ValueError``."""
        unknown = sorted(set(params) - set(self.params))
        if unknown:
            raise ValueError(
                f"{self.name}: unknown parameter(s) {unknown}; allowed: {sorted(self.params)}"
            )
        out = {}
        for key, spec in self.params.items():
            out[key] = spec.check(self.name, key, params.get(key, spec.default))
        return out


ALGORITHMS: dict[str, Algorithm] = {}

def reading_axes(kind: str | None = None) -> dict[str, dict[str, Param]]:
    """{parameter name: {algorithm name: Param}} of every reading axis of the registered algorithms.

    Algorithms that share a parameter name share the axis (e.g. ``hybrid_split`` of DP-UCB-BOUND and
    DP-UCB-Tossou, which use the same hybrid counter), so a reading changes it in all of them.
    """
    out: dict[str, dict[str, Param]] = {}
    for alg in ALGORITHMS.values():
        if kind is not None and alg.kind != kind:
            continue
        for name, spec in alg.params.items():
            if spec.is_axis:
                out.setdefault(name, {})[alg.name] = spec
    return out


def register(algorithm: Algorithm) -> Algorithm:
    """Add ``algorithm`` to ``ALGORITHMS`` (names are unique), noting the calling module as its ``module``."""
    if algorithm.name in ALGORITHMS:
        raise ValueError(f"algorithm {algorithm.name!r} registered twice")
    algorithm = replace(algorithm, module=sys._getframe(1).f_globals["__name__"])
    ALGORITHMS[algorithm.name] = algorithm
    return algorithm


def get(name: str, kind: str | None = None) -> Algorithm:
    """Look up an algorithm by name, raising ``ValueError`` naming ``algorithm`` if unknown."""
    if name not in ALGORITHMS:
        raise ValueError(f"algorithm={name!r} is unknown; known: {sorted(ALGORITHMS)}")
    alg = ALGORITHMS[name]
    if kind is not None and alg.kind != kind:
        raise ValueError(f"algorithm={name!r} is a {alg.kind} algorithm, not {kind}")
    return alg
