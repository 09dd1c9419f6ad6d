"""Algorithm descriptors and the global registry ``ALGORITHMS``.

Every algorithm module registers one :class:`Algorithm`. The fast entry point ``run`` simulates
one run; ``dpbandits.simulate`` loops over runs with per-run generators (see :mod:`.seeding`).
"""

from __future__ import annotations

import functools
import importlib
import re
import sys
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from numbers import Real
from typing import Any, ClassVar

import numpy as np

from .laws import LAWS
from .validation import brief, check_epsilon, check_horizon, check_integer, check_means, check_real

_PATH = re.compile(r"[\w.]+:\w+")  # dotted path of an object, "package.module:name"
_NAME = re.compile(r"[a-z][a-z0-9_]*")  # algorithm names; the pipeline's `algorithm` wildcard is [a-z0-9_]+
#: privacy models an algorithm may promise: {name: what it means}
PRIVACY_MODELS = {
    "pure": "central epsilon-DP",
    "approx": "central (epsilon, delta)-DP",
    "local": "local epsilon-DP (each reward noised once, before anything reads it)",
}


@dataclass(frozen=True)
class Param:
    """One algorithm parameter: its default and either allowed ``choices`` or a numeric range.

    ``readings`` makes the parameter a *reading axis*: a value the papers' text does not fix. It maps
    each plausible value (the default first) to a one-line reason it is plausible (the paper's
    sentence with its location, or an independent implementation's reading); ``docs/reconstructions.md``
    explains each axis at length. The claims ledger re-evaluates every claim under each non-default
    reading (see :mod:`dpbandits.pipeline.readings`).
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
                raise ValueError(
                    f"Param readings must list >= 2 values, the default {self.default!r} first; got {values}"
                )
            for value in values:
                self.check("<readings>", "value", value)

    @property
    def is_axis(self) -> bool:
        """True if the parameter is a reading axis (several plausible readings)."""
        return self.readings is not None

    def check(self, algorithm: str, name: str, value: Any) -> Any:
        """Return ``value`` if valid, else raise ``ValueError`` naming the parameter."""
        if self.choices is not None:
            # a boolean matches only a boolean choice (True == 1 in Python)
            if not any(value == c and isinstance(value, bool) == isinstance(c, bool) for c in self.choices):
                raise ValueError(f"{algorithm}: parameter {name}={brief(value)} is not one of {list(self.choices)}")
            return value
        if isinstance(self.default, bool):
            if not isinstance(value, bool):
                raise ValueError(f"{algorithm}: parameter {name} must be true or false, got {brief(value)}")
            return value
        if isinstance(self.default, (int, float)):
            what = f"{algorithm}: parameter {name}"
            try:
                if isinstance(self.default, int):
                    value = check_integer(what, value, low=-(2**63))
                else:
                    value = check_real(what, value)
            except ValueError as err:
                raise ValueError(str(err).replace(f"got {what}=", "got ")) from None
            if self.low is not None and not value > self.low:
                raise ValueError(f"{what} must be > {self.low}, got {brief(value)}")
            return value
        return value


class OptionalProbability(Param):
    """A probability in (0, 1), or None (then resolved by the algorithm, e.g. beta = 1/T)."""

    def check(self, algorithm: str, name: str, value):
        if value is None:
            return None
        if isinstance(value, bool | np.bool_) or not isinstance(value, Real) or not 0 < value < 1:
            raise ValueError(f"{algorithm}: parameter {name} must be None or lie in (0, 1), got {brief(value)}")
        return float(value)


@dataclass(frozen=True)
class Audit:
    """How :mod:`dpbandits.audit` audits an algorithm (the defaults are the generic plan).

    ``plan(epsilon, resolved params) -> (horizon, candidates or None)`` picks the audit horizon and the
    (table, flip) candidates (built with :mod:`dpbandits.core.audit_tables`; None: its ``generic_candidates``);
    ``params`` are hints tried first (if the algorithm rejects them its defaults are used and the result
    says so); ``noise`` names the
    Generator methods whose scale the under-noised control multiplies; ``epsilon`` replaces the epsilon
    of :func:`dpbandits.audit.run.audit_all`; ``note`` is copied into the result; ``control`` says why the under-noised
    control cannot be flagged ("" = it must be: the tests check it is).
    """

    params: dict = field(default_factory=dict)
    plan: Callable | None = None
    noise: tuple[str, ...] = ("laplace",)
    epsilon: float | None = None
    note: str = ""
    control: str = ""

    def notes(self) -> str:
        """``note`` and ``control`` joined, as the audit reports them."""
        return "; ".join(filter(None, [self.note, self.control]))


@dataclass(frozen=True)
class Setting:
    """One instance of the contract's distribution cases: Bernoulli ``means`` (float[K]), ``horizon`` T in pulls
    and ``epsilon``."""

    means: tuple
    horizon: int
    epsilon: float

    def __post_init__(self):
        means = check_means(self.means)
        object.__setattr__(self, "means", tuple(means.tolist()))
        object.__setattr__(self, "horizon", check_horizon(self.horizon, means.size))
        object.__setattr__(self, "epsilon", check_epsilon(self.epsilon))


@dataclass(frozen=True)
class Contract:
    """Where ``tests/test_contract.py`` compares a regret algorithm's fast kernel with its twin.

    ``bernoulli`` hosts the default and every reading, ``deterministic`` (means 0 or 1: the rewards are fixed,
    so only the algorithm's own noise and tie picks vary) the deterministic-reward case; ``params`` are set in
    every case (e.g. a ``beta`` that ends DP-SE's first epoch early). A private algorithm's settings must let
    its noise decide what it does (past its first epoch or elimination check): the contract checks that its
    runs vary and that its twin with every noise scale halved samples another distribution.
    ``deterministic=None`` declares that with rewards 0 or 1 the noise decides nothing (DP-SE: a gap of 1
    clears every elimination threshold), which the contract checks at ``DETERMINISTIC``. ``runs`` twin runs
    per case; the fast kernel runs ``fast_runs`` (it is cheap, and more runs sharpen every comparison).
    """

    DETERMINISTIC: ClassVar[Setting] = Setting((1.0, 0.0, 0.0), 300, 0.1)

    bernoulli: Setting = Setting((0.7, 0.5, 0.45), 400, 2.0)
    deterministic: Setting | None = DETERMINISTIC
    params: dict = field(default_factory=dict)
    runs: int = 300
    fast_runs: int = 1500

    def __post_init__(self):
        if not isinstance(self.bernoulli, Setting):
            raise ValueError(f"contract bernoulli must be a Setting, got {brief(self.bernoulli)}")
        if self.deterministic is not None:
            if not isinstance(self.deterministic, Setting):
                raise ValueError(f"contract deterministic must be a Setting or None, got {brief(self.deterministic)}")
            if not set(self.deterministic.means) <= {0.0, 1.0}:
                raise ValueError(f"contract deterministic means must be 0 or 1, got {list(self.deterministic.means)}")
        for what in ("runs", "fast_runs"):
            check_integer(f"contract {what}", getattr(self, what), low=2)


@dataclass(frozen=True)
class Bound:
    """A paper's regret upper bound: ``formula(means, t int[C], epsilon, params, horizon) -> float64[C]``.

    ``formula`` may be given as its dotted path ``"package.module:function"`` (imported on first use by
    :meth:`__call__`), so that the algorithm's module, and with it its simulations, does not depend on the
    bound's code (the built-in bounds live in :mod:`dpbandits.drawing.theory`).
    """

    label: str  # where the paper states it, e.g. "Thm 3.5"
    formula: Callable | str

    def __call__(self, means, t, epsilon, params, horizon) -> np.ndarray:
        formula = self.formula
        if not callable(formula):
            formula = _import_path(f"bound {self.label!r}: formula", formula)
        return formula(means, t, epsilon, params, horizon)


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
    rerun the algorithm's simulations (:mod:`dpbandits.pipeline.sources`). ``cost_ns`` (from
    ``python -m dpbandits.bench``, K = 20) only sizes the pipeline's jobs.

    What the rest of the package needs to know about an algorithm lives here too, nowhere else:
    ``collapsed`` (regret: the kernel simulates many pulls per unit of work, e.g. one Binomial draw per
    epoch, so the benchmark reports ns per *simulated* pull); ``reference``, the per-step reference twin
    (regret: a class ``(k, horizon, epsilon, rng, params)`` with ``select(t) -> arm``, t 1-based, and
    ``update(arm, reward)``, or its dotted path ``"package.module:Class"``, imported on first use by
    :meth:`reference_class`), which ``dpbandits.reference.simulate`` and the privacy audit run; every
    private regret algorithm has one; ``audit``, how :mod:`dpbandits.audit` audits it (:class:`Audit`);
    ``bound``, its paper's regret bound with explicit constants (:class:`Bound`), or None; ``replay``
    (regret, optional), the fast kernel's step loop on given draws, ``replay(means, epsilon, checkpoints,
    params, u, eta, picks) -> (regret[C], pulls[K], reward_sum)`` with the reward uniforms ``u`` (the horizon
    is ``u.size``), the standard Laplace values ``eta`` and the tie picks (0-based among the maximisers) in
    the order the twin drew them, or its dotted path: an algorithm that declares it must reproduce its twin
    pull for pull on the twin's own draws (``tests/test_contract.py``); ``contract`` (regret), the settings of
    the contract's distribution cases (:class:`Contract`; the default suits algorithms whose noise acts from
    the first pulls); ``laws`` (regret), the reward laws of :mod:`dpbandits.core.laws` that ``run`` (and
    ``run_batch``) accept: a law other than "bernoulli" is passed as the keyword ``rewards=``.

    Privacy (private algorithms): ``privacy`` is the model it promises, one of :data:`PRIVACY_MODELS`: "pure"
    (central epsilon-DP), "approx" (central (epsilon, delta)-DP, delta its parameter ``delta``) or "local" (each
    reward noised once before anything reads it: local epsilon-DP); ``releases`` (or its dotted path) runs one run
    that records every release in a book (:mod:`dpbandits.mechanisms.ledger`): ``releases(means, horizon, epsilon,
    params, rng, book) -> pulls int64[K]``, the entries each arm's stream holds at the end (a BAI algorithm reads
    ``means`` as its instance's arm means and ``horizon`` as its budget). :mod:`dpbandits.privacy` composes them.
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
    collapsed: bool = False  # regret only: many simulated pulls per unit of work (ns per simulated pull)
    reference: type | str | None = None  # regret only: per-step twin, or "package.module:Class"
    audit: Audit = field(default_factory=Audit)
    bound: Bound | None = None  # regret only: the paper's regret bound with explicit constants
    replay: Callable | str | None = None  # regret only: the kernel's loop on the twin's draws, or its path
    contract: Contract = field(default_factory=Contract)  # regret only: where the contract compares fast and twin
    laws: tuple[str, ...] = ("bernoulli",)  # regret only: the reward laws ``run`` accepts (dpbandits.core.laws)
    privacy: str = "pure"  # private only: the promised model (PRIVACY_MODELS)
    releases: Callable | str | None = None  # private only: one run recording its releases, or its dotted path

    def __post_init__(self):
        def fail(message):
            raise ValueError(f"algorithm {self.name!r}: {message}")

        if not isinstance(self.name, str) or not _NAME.fullmatch(self.name):
            fail("name must be lower case letters, digits and '_', starting with a letter")
        if self.kind not in ("regret", "bai"):
            fail(f"kind {self.kind!r} must be 'regret' or 'bai'")
        if not isinstance(self.label, str) or not self.label:
            fail("label must be a non-empty string")
        if not isinstance(self.private, bool):
            fail(f"private must be True or False, got {self.private!r}")
        if not callable(self.run):
            fail(f"run (the simulation of one run) must be callable, got {self.run!r}")
        if self.run_batch is not None and (self.kind != "regret" or not callable(self.run_batch)):
            fail("run_batch must be None or, for a regret algorithm, callable")
        if isinstance(self.cost_ns, bool) or not isinstance(self.cost_ns, Real) or not self.cost_ns > 0:
            fail(f"cost_ns must be a number > 0, got {self.cost_ns!r}")
        if not isinstance(self.params, dict):
            fail(f"params must be a dict of Param, got a {type(self.params).__name__}")
        for key, spec in self.params.items():
            if not isinstance(key, str) or not key.isidentifier():
                fail(f"parameter name {key!r} is not a Python identifier")
            if not isinstance(spec, Param):
                fail(f"parameter {key!r} is a {type(spec).__name__}, not a Param")
            spec.check(self.name, key, spec.default)
        if not isinstance(self.audit, Audit):
            fail(f"audit must be an Audit, got a {type(self.audit).__name__}")
        regret_only = (self.reference, self.bound, self.collapsed, self.replay)
        if self.kind == "bai" and regret_only != (None, None, False, None):
            fail("reference, bound, collapsed and replay are for regret algorithms (BAI is audited through its run)")
        if not isinstance(self.laws, tuple) or "bernoulli" not in self.laws or not set(self.laws) <= set(LAWS):
            fail(f"laws must be a tuple of reward laws including 'bernoulli', from {list(LAWS)}; got {self.laws!r}")
        if not isinstance(self.contract, Contract):
            fail(f"contract must be a Contract, got a {type(self.contract).__name__}")
        if self.kind == "regret":
            self.resolve(self.contract.params)  # a contract parameter must be one of the algorithm's
        if self.replay is not None and not (callable(self.replay) or _PATH.fullmatch(str(self.replay))):
            fail(f"replay {self.replay!r} must be callable or look like 'package.module:function'")
        if isinstance(self.reference, str):
            if not _PATH.fullmatch(self.reference):
                fail(f"reference {self.reference!r} must look like 'package.module:Class'")
        elif self.reference is not None:
            _check_twin(self.name, self.reference)
        if self.kind == "regret" and self.private and self.reference is None:
            fail("a private regret algorithm needs a reference twin (reference=...): the privacy audit runs it")
        if self.privacy not in PRIVACY_MODELS:
            fail(f"privacy {self.privacy!r} must be one of {list(PRIVACY_MODELS)}")
        if self.private and self.privacy == "approx" and "delta" not in self.params:
            fail("an (epsilon, delta) algorithm (privacy='approx') needs a parameter 'delta'")
        if self.releases is not None and not (callable(self.releases) or _PATH.fullmatch(str(self.releases))):
            fail(f"releases {self.releases!r} must be callable or look like 'package.module:function'")
        if self.bound is not None and not isinstance(self.bound, Bound):
            fail(f"bound must be a Bound, got a {type(self.bound).__name__}")
        if self.bound is not None and not (callable(self.bound.formula) or _PATH.fullmatch(str(self.bound.formula))):
            fail(f"bound formula {self.bound.formula!r} must be callable or look like 'package.module:function'")

    def reference_class(self) -> type | None:
        """The reference twin's class (importing ``reference`` if it is a dotted path), or None."""
        if self.reference is None or isinstance(self.reference, type):
            return self.reference
        return _import_twin(self.name, self.reference)

    def replay_function(self) -> Callable | None:
        """``replay`` (importing it if it is a dotted path), or None."""
        if self.replay is None or callable(self.replay):
            return self.replay
        return _import_path(f"algorithm {self.name!r}: replay", self.replay)

    def releases_function(self) -> Callable | None:
        """``releases`` (importing it if it is a dotted path), or None."""
        if self.releases is None or callable(self.releases):
            return self.releases
        return _import_path(f"algorithm {self.name!r}: releases", self.releases)

    def resolve(self, params: dict) -> dict:
        """Fill defaults and validate ``params``; unknown names raise ``ValueError``."""
        unknown = sorted(set(params) - set(self.params))
        if unknown:
            raise ValueError(f"{self.name}: unknown parameter(s) {unknown}; allowed: {sorted(self.params)}")
        out = {}
        for key, spec in self.params.items():
            out[key] = spec.check(self.name, key, params.get(key, spec.default))
        return out


ALGORITHMS: dict[str, Algorithm] = {}


@functools.cache
def _import_path(what: str, path: str):
    """The object at dotted path ``"package.module:name"``; ``ValueError`` naming ``what`` if absent."""
    module, _, attr = path.partition(":")
    try:
        return getattr(importlib.import_module(module), attr)
    except (ImportError, AttributeError) as err:
        raise ValueError(f"{what} {path!r} cannot be imported: {err}") from err


def _import_twin(name: str, path: str) -> type:
    cls = _import_path(f"algorithm {name!r}: reference", path)
    _check_twin(name, cls)
    return cls


def _check_twin(name: str, cls) -> None:
    if not isinstance(cls, type) or not all(callable(getattr(cls, m, None)) for m in ("select", "update")):
        raise ValueError(f"algorithm {name!r}: reference {cls!r} is not a class with select(t) and update(arm, reward)")


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
    """Add ``algorithm`` to ``ALGORITHMS`` (names are unique), noting the calling module as its ``module``
    unless it names one (plugins: the module they were loaded from)."""
    if algorithm.name in ALGORITHMS:
        raise ValueError(f"algorithm {algorithm.name!r} registered twice")
    if not algorithm.module:
        algorithm = replace(algorithm, module=sys._getframe(1).f_globals["__name__"])
    ALGORITHMS[algorithm.name] = algorithm
    return algorithm


def get(name: str, kind: str | None = None) -> Algorithm:
    """Look up an algorithm by name, raising ``ValueError`` naming ``algorithm`` if unknown."""
    if not isinstance(name, str) or name not in ALGORITHMS:
        raise ValueError(f"algorithm={brief(name)} is unknown; known: {sorted(ALGORITHMS)}")
    alg = ALGORITHMS[name]
    if kind is not None and alg.kind != kind:
        raise ValueError(f"algorithm={name!r} is a {alg.kind} algorithm, not {kind}")
    return alg
