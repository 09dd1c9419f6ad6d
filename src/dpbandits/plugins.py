"""Algorithms from outside the package: entry points, and modules or files named in the config.

A plugin is a :class:`dpbandits.core.registry.Algorithm` defined in the user's own code, with the same fields
as the built-in algorithms (``reference`` twin, ``audit`` plan, ``bound``, ``collapsed``, ``cost_ns``). It
is found in one of three ways:

* an entry point of group ``dpbandits.algorithms`` of an installed distribution, whose value names the
  object (``my_package.module:ALGORITHM``); every one is loaded when ``dpbandits`` is imported;
* ``package.module:NAME`` or ``path/to/file.py:NAME`` in the environment variable ``DPBANDITS_PLUGINS``
  (entries separated by ``;``), also loaded on import: this is how the pipeline's jobs find the
  plugins its config names;
* the same forms in the config's ``plugins`` list (:func:`dpbandits.pipeline.catalogue.expand.expand` loads them) or
  passed to :func:`load_plugins`.

Each plugin is checked (an ``Algorithm``, whose own checks run when it is built; parameters that do not
shadow the simulator's arguments; a name no other algorithm has) and registered in
``dpbandits.ALGORITHMS``; every problem raises :class:`PluginError` (a ``ValueError``) naming the plugin.
A regret plugin's ``run`` may be plain Python (see :func:`per_step`) or a numba kernel. Its files outside
the package (its module, the files of its run function, of its reference twin and of the twin's bases) are
kept in :data:`FILES`; :func:`dpbandits.pipeline.sources.algorithm_sources` adds the package modules they import, so
the pipeline reruns its simulations when any of them changes.
"""

from __future__ import annotations

import functools
import hashlib
import importlib
import importlib.util
import inspect
import os
import re
import sys
from collections.abc import Callable, Iterable
from dataclasses import replace
from importlib.metadata import entry_points
from pathlib import Path

from .core import registry
from .core.registry import Algorithm

GROUP = "dpbandits.algorithms"
"""Entry-point group of plugin algorithms."""
ENV = "DPBANDITS_PLUGINS"
"""Environment variable naming plugins (``;``-separated), loaded on import."""

PLUGINS: dict[str, str] = {}
"""{algorithm name: where it came from} of every plugin registered, in load order."""
FILES: dict[str, tuple[str, ...]] = {}
"""{algorithm name: absolute paths of the plugin's own files outside the package}."""
_ORIGINS: dict[str, str] = {}  # origin (entry point or resolved spec) -> algorithm name
_DIGESTS: dict[str, str | None] = {}  # algorithm name -> SHA-256 of its module's file (see _digest)


class PluginError(ValueError):
    """A plugin cannot be loaded or is invalid; the message starts with ``plugin <where it came from>``."""


def _play(twin, means, horizon, epsilon, checkpoints, rng, params, rewards="bernoulli", book=None):
    """(regret[C], pulls[K], reward_sum) of ``twin`` played one pull at a time; ``book``, if given, is set as the
    agent's ``book`` attribute before the first pull."""
    import numpy as np

    from .reference._rewards import REWARDS  # here: a plugin may load while dpbandits is imported

    draw = REWARDS[rewards]
    gap = (means.max() - means).tolist()
    mu = means.tolist()
    agent = twin(len(mu), horizon, epsilon, rng, params)
    if book is not None:
        agent.book = book
    regret = np.empty(checkpoints.size)
    pulls = np.zeros(len(mu), dtype=np.int64)
    marks = checkpoints.tolist()
    total, cum, c = 0.0, 0.0, 0
    for t in range(1, horizon + 1):
        a = agent.select(t)
        r = draw(rng, mu[a])
        agent.update(a, r)
        pulls[a] += 1
        total += r
        cum += gap[a]
        while c < len(marks) and marks[c] == t:
            regret[c] = cum
            c += 1
    return regret, pulls, total


def per_step(twin: type) -> Callable:
    """A plain-Python regret ``run`` that plays the per-step policy ``twin`` one pull at a time (slow).

    ``twin(k, horizon, epsilon, rng, params)`` offers ``select(t) -> arm`` (t 1-based) and
    ``update(arm, reward)``, like the reference twins. Rewards are drawn as ``dpbandits.reference.simulate``
    draws them, so with ``Algorithm(run=per_step(P), reference=P)`` ``dpbandits.simulate`` and
    ``dpbandits.reference.simulate`` agree bit for bit, under every reward law (``rewards``, :mod:`dpbandits.core.laws`;
    declare ``Algorithm(laws=dpbandits.core.laws.LAWS)`` to accept them all).
    """

    def run(means, horizon, epsilon, checkpoints, rng, params, rewards="bernoulli"):
        return _play(twin, means, horizon, epsilon, checkpoints, rng, params, rewards)

    run.__doc__ = f"One run of {twin.__name__}, one pull at a time (dpbandits.plugins.per_step)."
    return run


def per_step_releases(twin: type) -> Callable:
    """The ``Algorithm.releases`` of a per-step policy: the run of :func:`per_step` with a release book set as the
    agent's ``book`` attribute (None otherwise), in which the policy notes each of its releases
    (``dpbandits.mechanisms.ledger.note``; see examples/template/private_etc.py); returns the pulls int64[K]."""
    import numpy as np

    def releases(means, horizon, epsilon, params, rng, book):
        last = np.array([horizon], dtype=np.int64)
        return _play(twin, means, horizon, epsilon, last, rng, params, book=book)[1]

    return releases


def load_plugins(specs: Iterable[str] = (), export: bool = False) -> list[str]:
    """Register the entry-point plugins, those of ``DPBANDITS_PLUGINS`` and those named by ``specs``.

    Parameters
    ----------
    specs : iterable of str   ``package.module:NAME`` or ``path/to/file.py:NAME`` (relative paths are
                              relative to the working directory)
    export : bool             also add ``specs`` to ``DPBANDITS_PLUGINS`` so that child processes (the
                              pipeline's jobs) load them when they import ``dpbandits``

    Returns
    -------
    list[str]: names of the plugins ``specs`` name, in order. Loading is idempotent: a plugin already
    registered from the same place, or from a file with the same contents (an installed copy of
    the module a spec names), is not loaded again.

    Raises
    ------
    PluginError
        naming the plugin, if one cannot be imported or is not a valid algorithm.
    """
    specs = list(specs)
    for ep in entry_points(group=GROUP):
        label = f"entry point {ep.name!r} ({ep.value})"
        _load(
            label,
            f"entry point {ep.name}={ep.value}",
            functools.partial(_attribute, label, ep.module, ep.attr),
            ep.module,
        )
    for spec in filter(None, (s.strip() for s in os.environ.get(ENV, "").split(";"))):
        load_spec(spec)
    names = [load_spec(spec) for spec in specs]
    if export and specs:
        current = [s for s in os.environ.get(ENV, "").split(";") if s]
        os.environ[ENV] = ";".join(dict.fromkeys(current + [resolve(s) for s in specs]))
    return names


def resolve(spec: str) -> str:
    """``spec`` with a file path made absolute (relative to the working directory); modules unchanged."""
    target, attr = _split(spec)
    return f"{Path(target).resolve()}:{attr}" if _is_file(target) else spec


def load_spec(spec: str) -> str:
    """Register the plugin named by ``package.module:NAME`` or ``path/to/file.py:NAME``; return its name."""
    target, attr = _split(spec)
    label = repr(spec)
    if not _is_file(target):
        return _load(label, spec, functools.partial(_attribute, label, target, attr), target)
    path = Path(target).resolve()
    if not path.is_file():
        raise PluginError(f"plugin {label}: no such file {str(path)!r}")
    stem = re.sub(r"\W", "_", path.stem)
    module = f"dpbandits_plugin_{stem}_{hashlib.sha1(bytes(path)).hexdigest()[:8]}"
    return _load(label, f"{path}:{attr}", functools.partial(_file_attribute, label, module, path, attr), module)


def _split(spec) -> tuple[str, str]:
    target, _, attr = spec.strip().rpartition(":") if isinstance(spec, str) else ("", "", "")
    if not target or not attr.isidentifier():
        raise PluginError(f"plugin {spec!r}: must look like 'package.module:NAME' or 'path/to/file.py:NAME'")
    return target, attr


def _is_file(target: str) -> bool:
    return target.endswith(".py") or "/" in target or os.sep in target


def _attribute(label: str, module: str, attr: str):
    """Attribute ``attr`` (dotted) of ``module``, importing it; :class:`PluginError` naming the plugin if absent."""
    try:
        obj = importlib.import_module(module)
    except Exception as err:
        raise PluginError(f"plugin {label}: importing {module!r} failed: {type(err).__name__}: {err}") from err
    try:
        return functools.reduce(getattr, attr.split("."), obj)
    except AttributeError:
        raise PluginError(f"plugin {label}: module {module!r} has no attribute {attr!r}") from None


def _file_attribute(label: str, module: str, path: Path, attr: str):
    """Attribute ``attr`` of the module executed from ``path`` (imported once, as ``module``)."""
    if module not in sys.modules:
        spec = importlib.util.spec_from_file_location(module, path)
        sys.modules[module] = mod = importlib.util.module_from_spec(spec)  # dataclasses and numba look it up
        try:
            spec.loader.exec_module(mod)
        except Exception as err:
            del sys.modules[module]
            raise PluginError(f"plugin {label}: importing {str(path)!r} failed: {type(err).__name__}: {err}") from err
    return _attribute(label, module, attr)


def _load(label: str, origin: str, get: Callable, module: str) -> str:
    """Import one plugin object with ``get()``, check it and register it; return its name."""
    if origin in _ORIGINS:
        return _ORIGINS[origin]
    alg = check(get(), label)
    alg = replace(alg, module=module)
    existing = registry.ALGORITHMS.get(alg.name)
    if existing is not None and alg.name not in PLUGINS:
        raise PluginError(
            f"plugin {label}: name {alg.name!r} clashes with the built-in algorithm {alg.name!r}; rename the plugin"
        )
    digest = _digest(sys.modules.get(module))
    if existing is not None and existing.run is not alg.run and (digest is None or digest != _DIGESTS.get(alg.name)):
        raise PluginError(
            f"plugin {label}: name {alg.name!r} clashes with plugin {PLUGINS[alg.name]}, whose "
            "source differs; load one of them only (pip uninstall the package, or drop it from "
            f"{ENV} and the config's plugins), or rename one"
        )
    if existing is None:
        registry.register(alg)
        PLUGINS[alg.name] = label
        FILES[alg.name] = _files(alg, sys.modules.get(module))
        _DIGESTS[alg.name] = digest
    _ORIGINS[origin] = alg.name
    return alg.name


def _digest(module) -> str | None:
    """SHA-256 of the file defining ``module``: the same plugin reached by two routes (an installed copy and
    its source file) has the same one, and is loaded once."""
    path = _source(module) if module is not None else None
    return hashlib.sha256(path.read_bytes()).hexdigest() if path is not None else None


def _reserved(kind: str) -> set[str]:
    """Argument names of the simulator of ``kind``: parameters cannot take them (they are passed as **params)."""
    if kind == "regret":
        from .core.simulate import simulate as run
    else:
        from .bai import simulate_bai as run
    return {p.name for p in inspect.signature(run).parameters.values() if p.kind is not p.VAR_KEYWORD}


def check(obj, label: str) -> Algorithm:
    """``obj`` if it is a valid plugin algorithm, else :class:`PluginError` starting with ``plugin <label>``.

    ``Algorithm`` checks its own fields when it is built; this adds what only a plugin can get wrong.
    """
    if not isinstance(obj, Algorithm):
        raise PluginError(f"plugin {label}: is a {type(obj).__name__}, not a dpbandits.core.registry.Algorithm")
    reserved = _reserved(obj.kind)
    for key in obj.params:
        if key in reserved:
            raise PluginError(
                f"plugin {label}: parameter {key!r} clashes with an argument of the simulator ({sorted(reserved)})"
            )
    try:
        obj.reference_class()
    except ValueError as err:
        raise PluginError(f"plugin {label}: {err}") from None
    return obj


def _source(obj) -> Path | None:
    """Absolute path of the file defining ``obj`` (None for built-in or generated objects)."""
    try:
        path = inspect.getsourcefile(inspect.unwrap(getattr(obj, "py_func", obj)))  # numba: the Python function
    except TypeError:
        return None
    return Path(path).resolve() if path and Path(path).is_file() else None


def _files(alg: Algorithm, module) -> tuple[str, ...]:
    """Absolute paths of ``alg``'s files outside the package: its module, run function, twin and twin's bases."""
    files = [_source(module) if module is not None else None, _source(alg.run)]
    twin = alg.reference_class()
    if twin is not None:
        files += [_source(cls) for cls in twin.__mro__ if cls is not object]
    package = Path(__file__).resolve().parent
    return tuple(str(f) for f in dict.fromkeys(files) if f is not None and not f.is_relative_to(package))
