"""Validation and expansion of the config's figures into simulation configurations and figures.

A *figure* has panels; a panel has curves; a curve is one (algorithm, parameters, epsilon) on the panel's
instance (``curves: all``: every registered algorithm of the figure's kind, plugins included). A regret
configuration holds every epsilon that any figure asks of one (algorithm, instance, horizon, parameters): one job
per configuration amortises process start-up over the epsilons, and each epsilon's runs are seeded exactly as
``dpbandits.simulate`` seeds them alone. A BAI configuration is one curve: an algorithm's sweep over budgets,
epsilons or ratios. Pure Python (no Snakemake), so it is unit-tested and usable from notebooks.
"""

from __future__ import annotations

from dataclasses import replace

from ...bai import linear_instances
from ...core import registry
from ...core.instances import instance_label, means_for
from ...core.laws import DEFAULT, check_rewards
from ...core.validation import check_budget, check_epsilon, check_horizon, check_means, check_runs
from ...plugins import load_plugins
from .model import ConfigError, Curve, Figure, Panel, SimSpec, figure_key, keypath


def _scaled(value: int, cap: int | None) -> int:
    return value if cap is None else min(value, cap)


def _checked(check, key: str, value):
    """``check(value)``, its ``ValueError`` raised again as a ``ConfigError`` naming ``key``."""
    try:
        return check(value)
    except ValueError as err:
        raise ConfigError(f"{key}: {err}") from None


def _epsilon(value, key: str) -> float:
    return _checked(check_epsilon, key, value)


def _curves(spec, kind: str, law: str = DEFAULT):
    """A panel's curve entries: ``"all"`` is every registered algorithm of ``kind`` (plugins included) that draws
    rewards of the panel's ``law`` (regret: ``Algorithm.laws``)."""
    if spec == "all":
        return [
            name
            for name, alg in registry.ALGORITHMS.items()
            if alg.kind == kind and (kind != "regret" or law in alg.laws)
        ]
    return spec


def _curve_entries(entry, key: str) -> tuple[str, dict, str, str | None]:
    """Normalise a curve entry (a name or a mapping) to (algorithm, params, variant, label)."""
    if isinstance(entry, str):
        entry = {"algorithm": entry}
    name = entry.get("algorithm")
    if name not in registry.ALGORITHMS:
        raise ConfigError(f"{keypath(key, 'algorithm')}: {name!r} is unknown; allowed: {sorted(registry.ALGORITHMS)}")
    return name, dict(entry.get("params", {})), entry.get("variant", ""), entry.get("label")


def algorithm_params(config: dict, name: str, overrides: dict, key: str, reading=None) -> dict:
    """Resolved parameters: algorithm defaults < config ``algorithms.<name>`` < ``reading`` < curve overrides.

    ``reading`` (a :class:`dpbandits.pipeline.readings.Reading` or None) sets the reading axes it names.
    """
    read = reading.algorithm_params(name) if reading is not None else {}
    merged = {**config["algorithms"].get(name, {}), **read, **overrides}
    try:
        return registry.ALGORITHMS[name].resolve(merged)
    except ValueError as err:
        raise ConfigError(f"{key}: {err}") from None


def expand(config: dict, reading=None) -> tuple[dict[str, SimSpec], dict[str, dict[str, Figure]]]:
    """Expand ``config`` into ({cid: SimSpec}, {paper: {figure: Figure}}).

    ``config`` is a prepared config (:func:`dpbandits.pipeline.configfile.prepare`: validated, figures in explicit
    form, the schema's defaults filled in).

    ``reading`` (a :class:`dpbandits.pipeline.readings.Reading`) expands the figures of ``reading.papers`` under
    that reading; the other papers keep their default figures, so every configuration the reading does
    not change has the same cid as in the default expansion. Raises ``ConfigError`` naming the key of
    the first invalid entry. The config's ``plugins`` are loaded first (:mod:`dpbandits.plugins`).
    """
    load_plugins(config["plugins"])
    sims: dict[str, SimSpec] = {}
    groups: dict[str, tuple[SimSpec, set]] = {}  # regret: key without epsilon -> (spec, epsilons)
    figures: dict[str, dict[str, Figure]] = {}
    scale = config["scale"]
    seed = int(config["seed"])
    n_ckpt = int(config["checkpoints"])
    for pname in config["algorithms"]:
        if pname not in registry.ALGORITHMS:
            raise ConfigError(
                f"{keypath('algorithms', pname)}: unknown algorithm; allowed: {sorted(registry.ALGORITHMS)}"
            )
        for key, value in config["algorithms"][pname].items():  # each override named where it is typed
            try:
                registry.ALGORITHMS[pname].resolve({key: value})
            except ValueError as err:
                raise ConfigError(f"{keypath('algorithms', pname, key)}: {err}") from None
    papers = config["papers"]
    if not papers:
        raise ConfigError("papers: the figure catalogue is empty")
    for i, target in enumerate(config["targets"]):
        if target not in papers:
            raise ConfigError(f"{keypath('targets', i)}: {target!r} is not a paper; allowed: {sorted(papers)}")
    for paper, pspec in papers.items():
        figures[paper] = {}
        if not pspec.get("figures"):
            raise ConfigError(f"{keypath('papers', paper, 'figures')}: no figures listed")
        for fname, fspec in pspec["figures"].items():
            fkey = figure_key(paper, fname)
            kind = fspec["kind"]
            runs = _scaled(_checked(check_runs, keypath(fkey, "runs"), fspec["runs"]), scale.get("max_runs"))
            fig = Figure(
                paper,
                fname,
                fspec,
                runs,
                theory=bool(fspec.get("theory", config["theory_overlays"])),
                scaled=bool(scale),
            )
            if not fspec.get("panels"):
                raise ConfigError(f"{keypath(fkey, 'panels')}: no panels listed")
            for i, panel_spec in enumerate(fspec["panels"]):
                read = reading if reading is not None and paper in reading.papers else None
                panel = _panel(config, panel_spec, fspec, kind, (fkey, i), seed, n_ckpt, scale, sims, groups, read)
                fig.panels.append(panel)
            figures[paper][fname] = fig
    cids = {}
    for key, (spec, eps) in groups.items():
        spec = replace(spec, epsilons=tuple(sorted(eps, key=lambda e: -1.0 if e is None else e)))
        sims[spec.cid] = spec
        cids[key] = spec.cid
    for figs in figures.values():
        for fig in figs.values():
            for panel in fig.panels:
                for curve in panel.curves:
                    curve.cid = cids.get(curve.cid, curve.cid)
                    spec = sims[curve.cid]
                    if fig.runs > spec.runs:
                        sims[curve.cid] = replace(spec, runs=fig.runs)
    return sims, figures


def _get(key, panel_spec, fspec, default=None):
    return panel_spec.get(key, fspec.get(key, default))


def _read_instance(instance, reading):
    """``instance`` with the values ``reading`` sets for instances of its name."""
    if reading is None or not isinstance(instance, dict) or instance.get("name") not in reading.instance:
        return instance
    return {**instance, **reading.instance[instance["name"]]}


def _panel(config, panel_spec, fspec, kind, where, seed, n_ckpt, scale, sims, groups, reading=None) -> Panel:
    """Panel ``where`` = (figure key, index) of a figure; its regret configurations join ``groups``."""
    fkey, i = where
    pkey = keypath(fkey, "panels", i)
    instance = _read_instance(_get("instance", panel_spec, fspec), reading)
    if instance is None:
        raise ConfigError(f"{keypath(pkey, 'instance')}: missing")
    if kind == "bai":
        if isinstance(instance, dict) and "rewards" in instance:
            raise ConfigError(
                f"{keypath(pkey, 'instance', 'rewards')}: a best-arm identification instance sets its law with reward"
            )
        return _bai_panel(config, panel_spec, fspec, where, seed, scale, sims, reading)
    if isinstance(instance, dict) and "rewards" in instance:
        try:
            check_rewards(instance["rewards"])
        except ValueError as err:
            raise ConfigError(keypath(pkey, "instance", str(err))) from None  # err: "rewards: ..."
    try:
        means = check_means(means_for(instance))
    except ValueError as err:
        if isinstance(instance, dict) and (instance.get("name") in linear_instances.MAKERS or "arms" in instance):
            raise ConfigError(
                f"{keypath(fkey, 'kind')}: a regret figure (the default kind) with the best-arm identification "
                f"instance {instance_label(instance)!r}; set kind: bai"
            ) from None
        raise ConfigError(f"{keypath(pkey, 'instance')}: {err}") from None
    horizon = _scaled(int(_get("horizon", panel_spec, fspec, 0)), scale.get("max_horizon"))
    try:
        horizon = check_horizon(horizon, means.size)
    except ValueError as err:
        raise ConfigError(f"{keypath(pkey, 'horizon')}: {err}") from None
    epsilons = panel_spec.get("epsilons", fspec.get("epsilons"))
    if not epsilons:
        raise ConfigError(f"{keypath(pkey, 'epsilons')}: empty")
    law = instance.get("rewards", DEFAULT) if isinstance(instance, dict) else DEFAULT
    curves_spec = _curves(panel_spec.get("curves", fspec.get("curves")), "regret", law)
    if not curves_spec:
        raise ConfigError(f"{keypath(pkey, 'curves')}: empty")
    x = _get("x", panel_spec, fspec)
    if x not in (None, "epsilon"):
        raise ConfigError(
            f"{keypath(pkey, 'x')}: {x!r} is not a regret figure's x-axis; regret figures draw t, or final regret "
            "against epsilon with x: epsilon (the privacy-utility frontier)"
        )
    panel = Panel(panel_spec.get("title", ""), instance, x=x, xscale=_get("xscale", panel_spec, fspec), horizon=horizon)
    for j, entry in enumerate(curves_spec):
        ckey = keypath(pkey, "curves", j)
        name, overrides, variant, label = _curve_entries(entry, ckey)
        alg = registry.ALGORITHMS[name]
        if alg.kind != kind:
            raise ConfigError(f"{keypath(ckey, 'algorithm')}: {name} is a {alg.kind} algorithm in a {kind} figure")
        if law not in alg.laws:
            raise ConfigError(
                f"{keypath(ckey, 'algorithm')}: {name} does not draw {law} rewards (the panel's instance.rewards); "
                f"its laws: {list(alg.laws)}"
            )
        params = algorithm_params(config, name, overrides, ckey, reading)
        eps_list = [None] if not alg.private else [_epsilon(e, keypath(pkey, "epsilons")) for e in epsilons]
        base = SimSpec(kind, name, dict(instance), horizon, (), params, seed, n_ckpt)
        key = base.cid  # group key: the configuration without its epsilons
        groups.setdefault(key, (base, set()))[1].update(eps_list)
        for eps in eps_list:
            text = label or alg.label + (f" {variant}" if variant else "")
            if eps is not None and (len(eps_list) > 1 or fspec["label_epsilon"]):
                text += f" (ε={eps:g})"
            panel.curves.append(Curve(text, name, eps, key, variant))  # cid set by expand()
    return panel


SWEEPS = ("budget", "epsilon", "ratio")


def _bai_panel(config, panel_spec, fspec, where, seed, scale, sims, reading=None) -> Panel:
    """A best-arm-identification panel (``where`` = (figure key, index)): each curve is one simulation configuration
    sweeping ``x``.

    Every point of the sweep is seeded as if simulated alone (its own configuration hash), so points
    shared between figures agree.
    """
    fkey, i = where
    pkey = keypath(fkey, "panels", i)
    x, values = _get("x", panel_spec, fspec), _get("values", panel_spec, fspec)
    if x not in SWEEPS:
        raise ConfigError(f"{keypath(pkey, 'x')}: {x!r} is not one of {list(SWEEPS)} (kind: bai figures sweep x)")
    if not values:
        raise ConfigError(f"{keypath(pkey, 'values')}: empty")
    eps_list = _get("epsilons", panel_spec, fspec) or [None]
    if x != "epsilon" and len(eps_list) != 1:
        raise ConfigError(f"{keypath(pkey, 'epsilons')}: a {x} sweep takes exactly one epsilon")
    panel = Panel(
        panel_spec.get("title", ""),
        _read_instance(_get("instance", panel_spec, fspec), reading),
        x=x,
        xscale=_get("xscale", panel_spec, fspec),
    )
    budget = _get("budget", panel_spec, fspec)
    panel.horizon = None if x == "budget" else budget
    vkey = keypath(pkey if "values" in panel_spec else fkey, "values")  # where the values are set
    if x == "budget":
        values = [
            _scaled(_checked(check_budget, keypath(vkey, i), v), scale.get("max_budget")) for i, v in enumerate(values)
        ]
    elif budget is None:
        raise ConfigError(f"{keypath(pkey, 'budget')}: missing")
    else:
        budget = panel.horizon = _scaled(
            _checked(check_budget, keypath(pkey, "budget"), budget), scale.get("max_budget")
        )
    for i, v in enumerate(values if x == "ratio" else [None]):
        instance = dict(panel.instance, ratio=v) if x == "ratio" else panel.instance
        try:
            linear_instances.instance_for(instance)
        except ValueError as err:
            raise ConfigError(f"{keypath(vkey, i) if x == 'ratio' else keypath(pkey, 'instance')}: {err}") from None
    for j, entry in enumerate(_curves(_get("curves", panel_spec, fspec), "bai") or []):
        ckey = keypath(pkey, "curves", j)
        name, overrides, variant, label = _curve_entries(entry, ckey)
        alg = registry.ALGORITHMS[name]
        if alg.kind != "bai":
            raise ConfigError(f"{keypath(ckey, 'algorithm')}: {name} is a {alg.kind} algorithm in a bai figure")
        params = algorithm_params(config, name, overrides, ckey, reading)
        if x == "epsilon":
            vals = [_epsilon(v, keypath(vkey, i)) for i, v in enumerate(values)]
            eps = None
        else:
            vals = list(values)
            eps = _epsilon(eps_list[0], keypath(pkey, "epsilons")) if alg.private else None
        spec = SimSpec(
            "bai",
            name,
            dict(panel.instance),
            0,
            (eps,),
            params,
            seed,
            0,
            sweep={"x": x, "values": vals},
            budget=budget or 0,
        )
        sims[spec.cid] = spec
        text = label or alg.label + (f" {variant}" if variant else "")
        panel.curves.append(Curve(text, name, eps, spec.cid, variant, x=vals))
    if not panel.curves:
        raise ConfigError(f"{keypath(pkey, 'curves')}: empty")
    return panel
