"""Readings: a paper's figures re-simulated under alternative readings of its reconstructed values.

A *reading axis* is a parameter the papers' text does not fix (``Param.readings`` of an algorithm, or
``bai.linear_instances.INSTANCE_AXES`` of an instance; ``docs/reconstructions.md`` explains each one). A
*reading* sets one axis (or, where the config asks for it, a combination of axes) to a non-default
value for every algorithm or instance of a paper that has it. The pipeline expands each reading into
figures whose simulation configurations are content-hashed like the default ones, so a curve that the
reading does not change is the default configuration and is not simulated again. The claims ledger
evaluates every claim under every reading of its paper (:func:`dpbandits.claims.page.write_ledger`).

Everything here is pure Python (no Snakemake), like :mod:`dpbandits.pipeline.catalogue`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace

from ..core import registry
from .catalogue.expand import expand
from .catalogue.model import ConfigError, is_diagnostic, keypath
from .support import support

DEFAULT = "default"


@dataclass(frozen=True)
class Reading:
    """One alternative reading: parameter values and instance values that differ from the defaults.

    ``params``: {parameter name: value}, applied to every algorithm of ``papers`` declaring that axis.
    ``instance``: {instance name: {key: value}}, applied to every panel instance of that name.
    """

    name: str  # e.g. "gamma_log=2" or "gamma_log=2 + gamma_denominator=2"
    params: dict = field(default_factory=dict)
    instance: dict = field(default_factory=dict)
    papers: tuple = ()

    @property
    def slug(self) -> str:
        """File-system name of the reading (its results live in ``results/readings/<slug>/``)."""
        return re.sub(r"[^A-Za-z0-9_.=+-]", "_", self.name.replace(" + ", "+"))

    def algorithm_params(self, algorithm: str) -> dict:
        """{param: value} this reading sets for ``algorithm`` (its axes among ``params``)."""
        alg = registry.ALGORITHMS[algorithm]
        return {k: v for k, v in self.params.items() if k in alg.params and alg.params[k].is_axis}


def _set_axes(reading: Reading) -> dict:
    """{axis label: (the axis's default, the value the reading sets)}."""
    params, instances, out = registry.reading_axes(), instance_axes(), {}
    for name, value in reading.params.items():
        if name not in params:
            raise ValueError(f"reading {reading.name!r}: parameter {name!r} is not a reading axis")
        out[name] = (next(iter(params[name].values())).default, value)
    for inst, keys in reading.instance.items():
        for key, value in keys.items():
            if key not in instances.get(inst, {}):
                raise ValueError(f"reading {reading.name!r}: instance key {inst}.{key} is not a reading axis")
            out[f"{inst}.{key}"] = (instances[inst][key].default, value)
    return out


def value_support(reading: Reading, paper: str | None = None) -> dict:
    """{axis label: :class:`~dpbandits.pipeline.support.Support`} of the values ``reading`` sets, in ``paper``'s
    text (labels as in :func:`paper_axes`); ``ValueError`` naming a parameter or instance key that is not an axis."""
    return {label: support(label, value, paper) for label, (_, value) in _set_axes(reading).items()}


def relative_support(reading: Reading, paper: str | None = None) -> int:
    """Sum over the axes ``reading`` sets of (rank of its value's support - rank of the axis default's) in
    ``paper``'s text: > 0 when the text supports the reading better than the defaults it replaces (ranks:
    ``SUPPORT_LEVELS`` order)."""
    return sum(
        support(label, value, paper).rank - support(label, default, paper).rank
        for label, (default, value) in _set_axes(reading).items()
    )


def support_text(reading: Reading, paper: str | None = None) -> str:
    """One line per reading, e.g. ``"gamma_log=2: contradicted (default e: stated)"``; axes joined by "; "."""
    return "; ".join(
        f"{label}={_text(value)}: {support(label, value, paper).level} "
        f"(default {_text(default)}: {support(label, default, paper).level})"
        for label, (default, value) in _set_axes(reading).items()
    )


def support_level(reading: Reading, paper: str | None = None) -> str:
    """The weakest support among the values ``reading`` sets in ``paper``'s text (its level as a whole)."""
    return min(value_support(reading, paper).values(), key=lambda s: s.rank).level


@dataclass(frozen=True)
class ReadingFigures:
    """A reading and the figures it expands: ``figures`` {paper: {figure: Figure}} over ``reading.papers`` (no
    diagnostic figures)."""

    reading: Reading
    figures: dict


def _text(value) -> str:
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, float):
        return f"{value:g}"
    return str(value)


def instance_axes() -> dict[str, dict]:
    """{instance name: {key: Param}} of the reconstructed instances (Chen et al.'s BAI instances)."""
    from ..bai.linear_instances import INSTANCE_AXES

    return INSTANCE_AXES


def _figure_scopes(pspec: dict):
    """Each figure spec of a paper's config (diagnostics aside), then each of its panels' specs."""
    for fname, fspec in pspec["figures"].items():
        if not is_diagnostic(fname):
            yield from [fspec, *fspec.get("panels", [])]


def _paper_algorithms(pspec: dict) -> set[str]:
    names = set()
    for scope in _figure_scopes(pspec):
        for entry in scope.get("curves", []) or []:
            names.add(entry if isinstance(entry, str) else entry.get("algorithm"))
    return names


def _paper_instances(pspec: dict) -> set[str]:
    names = set()
    for scope in _figure_scopes(pspec):
        inst = scope.get("instance")
        if isinstance(inst, dict) and "name" in inst:
            names.add(inst["name"])
    return names


def paper_axes(config: dict, paper: str) -> dict[str, tuple]:
    """{axis label: (kind, name, {value: reason})} of the axes that touch ``paper``'s figures.

    ``kind`` is "param" (label = parameter name) or "instance" (label = "<instance>.<key>").
    """
    pspec = config["papers"][paper]
    algs = _paper_algorithms(pspec) & set(registry.ALGORITHMS)
    out = {}
    for pname, by_alg in sorted(registry.reading_axes().items()):
        if algs & set(by_alg):
            out[pname] = ("param", pname, next(p.readings for a, p in by_alg.items() if a in algs))
    axes = instance_axes()
    for inst in sorted(_paper_instances(pspec) & set(axes)):
        for key, spec in axes[inst].items():
            out[f"{inst}.{key}"] = ("instance", (inst, key), spec.readings)
    return out


def _default_value(config: dict, paper: str, kind: str, name, readings: dict):
    """The value the default reading uses: config ``algorithms.<alg>.<param>`` or the Param default."""
    if kind == "param":
        for alg in sorted(_paper_algorithms(config["papers"][paper]) & set(registry.ALGORITHMS)):
            if name in config["algorithms"].get(alg, {}):
                return config["algorithms"][alg][name]
    return next(iter(readings))


def _parse(item: str, axes: dict, key: str) -> tuple[str, object]:
    """``"gamma_log=2"`` -> ("gamma_log", "2") checked against ``axes``."""
    label, sep, raw = item.partition("=")
    if not sep or label not in axes:
        raise ConfigError(f"{key}: {item!r} is not '<axis>=<value>' with an axis of this paper; axes: {sorted(axes)}")
    values = {_text(v): v for v in axes[label][2]}
    if raw not in values:
        raise ConfigError(f"{key}: {item!r}: value {raw!r} is not a reading of {label}; readings: {sorted(values)}")
    return label, values[raw]


def _reading(parts: dict, axes: dict) -> Reading:
    params, instance = {}, {}
    for label, value in parts.items():
        kind, name, _ = axes[label]
        if kind == "param":
            params[name] = value
        else:
            instance.setdefault(name[0], {})[name[1]] = value
    text = " + ".join(f"{label}={_text(v)}" for label, v in parts.items())
    return Reading(text, params, instance)


def paper_readings(config: dict, paper: str) -> list[Reading]:
    """Non-default readings of ``paper``: each axis value other than the default, one axis at a time,
    minus ``readings.papers.<paper>.exclude``, plus the combinations listed in ``.combine``."""
    rcfg = config["readings"]
    if not rcfg["enabled"]:
        return []
    pcfg = rcfg["papers"].get(paper)
    if pcfg is None:
        return []
    axes = paper_axes(config, paper)
    key = keypath("readings", "papers", paper)
    for i, label in enumerate(pcfg["exclude"]):
        if label not in axes:
            raise ConfigError(
                f"{keypath(key, 'exclude', i)}: {label!r} is not an axis of this paper; axes: {sorted(axes)}"
            )
    out = []
    for label, (kind, name, readings) in axes.items():
        if label in pcfg["exclude"]:
            continue
        default = _default_value(config, paper, kind, name, readings)
        for value in readings:
            if _text(value) != _text(default):
                out.append(_reading({label: value}, axes))
    for i, combo in enumerate(pcfg["combine"]):
        parts = dict(_parse(item, axes, keypath(key, "combine", i)) for item in combo)
        out.append(_reading(parts, axes))
    return [replace(r, papers=(paper,)) for r in out]


def all_readings(config: dict) -> dict[str, Reading]:
    """{slug: Reading} over every paper in ``readings.papers``; a reading shared by several papers
    (e.g. DP-UCB's Γ in the paper and the thesis) is one reading, so their simulations are shared."""
    out: dict[str, Reading] = {}
    for paper in config["readings"]["papers"]:
        if paper not in config["papers"]:
            raise ConfigError(
                f"{keypath('readings', 'papers', paper)}: not a paper of the catalogue; "
                f"papers: {sorted(config['papers'])}"
            )
        for r in paper_readings(config, paper):
            prev = out.get(r.slug)
            out[r.slug] = replace(r, papers=(prev.papers if prev else ()) + (paper,))
    return out


def cap_runs(config: dict, spec, default_cids: set) -> object:
    """``spec`` with its runs capped by ``readings.runs.<algorithm>`` unless the default figures use it."""
    cap = config["readings"]["runs"].get(spec.algorithm)
    if cap is None or spec.cid in default_cids or spec.runs <= cap:
        return spec
    return replace(spec, runs=int(cap))


def manifest(reading: Reading, figures: dict, sims: dict) -> dict:
    """What a reading changed and with how many runs: written beside its tables, read by the ledger."""
    runs = {}
    for figs in figures.values():
        for fig in figs.values():
            for panel in fig.panels:
                for curve in panel.curves:
                    if reading.algorithm_params(curve.algorithm) or reading.instance:
                        n = min(sims[curve.cid].runs, fig.runs)
                        runs[curve.algorithm] = min(runs.get(curve.algorithm, n), n)
    return {
        "reading": reading.name,
        "params": reading.params,
        "instance": reading.instance,
        "papers": list(reading.papers),
        "runs": runs,
        "support": {
            paper: {
                "level": support_level(reading, paper),
                "relative": relative_support(reading, paper),
                "text": support_text(reading, paper),
            }
            for paper in reading.papers
        },
    }


def expand_readings(config: dict, sims: dict) -> dict[str, ReadingFigures]:
    """{slug: ReadingFigures} of every reading; adds the new configurations its figures use to ``sims``.

    ``sims`` is the default expansion's {cid: SimSpec}; configurations a reading does not change keep
    their cid and are not added again. New ones get ``readings.runs`` caps (:func:`cap_runs`). A reading covers
    its papers' figures, not their diagnostic figures (``diagnostics/<name>``, the replication report's).
    """
    default_cids = set(sims)
    out = {}
    for slug, reading in all_readings(config).items():
        rsims, rfigs = expand(config, reading)
        figs = {paper: {n: f for n, f in rfigs[paper].items() if not is_diagnostic(n)} for paper in reading.papers}
        used = {c.cid for pfigs in figs.values() for f in pfigs.values() for p in f.panels for c in p.curves}
        for cid, spec in rsims.items():
            if cid not in sims and cid in used:
                sims[cid] = cap_runs(config, spec, default_cids)
        out[slug] = ReadingFigures(reading, figs)
    return out
