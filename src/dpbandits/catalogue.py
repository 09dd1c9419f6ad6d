"""Figure catalogue: expand the config's figure descriptions into simulation jobs.

A *figure* has panels; a panel has curves; a curve is one (algorithm, parameters, epsilon) on the
panel's instance (``curves: all``: every registered algorithm of the figure's kind, plugins included).
Curves are served by *simulation configurations* (``SimSpec``), identified by a content hash ``cid``
so identical configurations used by several figures are simulated once. A regret configuration holds
every epsilon that any figure asks of one (algorithm, instance, horizon, parameters): one job per
configuration amortises process start-up over the epsilons, and each epsilon's runs are seeded exactly
as ``dpbandits.simulate`` seeds them alone. A configuration's runs are split into chunks
(``chunk_runs``), and cheap chunks of one algorithm are packed into one Snakemake job
(:func:`plan_jobs`). A BAI configuration is one curve: an algorithm's sweep over budgets, epsilons or
ratios.

Everything here is pure Python (no Snakemake) so it is unit-tested and usable from notebooks.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from . import registry
from .bai import linear_instances
from .instances import instance_label, means_for
from .laws import DEFAULT, check_rewards, cost_ns
from .plugins import load_plugins
from .seeding import config_id
from .validation import check_budget, check_epsilon, check_horizon, check_means, check_runs


class ConfigError(ValueError):
    """A config value is invalid; the message starts with the offending key path."""


DIAGNOSTICS = "diagnostics"  # a paper's diagnostic figures (its replication report's experiments): diagnostics/<name>


def is_diagnostic(figure: str) -> bool:
    """True for a diagnostic figure's name (``diagnostics/<name>``): read by the report, not by claims or readings."""
    return figure.startswith(f"{DIAGNOSTICS}/")


def figure_key(paper: str, figure: str) -> str:
    """Where a figure is written in the config: ``papers.<paper>.figures.<name>``, or for a diagnostic figure
    ``papers.<paper>.diagnostics.<name>`` (errors name it)."""
    if is_diagnostic(figure):
        return f"papers.{paper}.{DIAGNOSTICS}.{figure.removeprefix(DIAGNOSTICS + '/')}"
    return f"papers.{paper}.figures.{figure}"


@dataclass(frozen=True)
class SimSpec:
    """One simulation configuration (all runs share it; runs differ only by run index)."""

    kind: str  # "regret" or "bai"
    algorithm: str
    instance: dict
    horizon: int  # regret: horizon T; bai: budget
    epsilons: tuple  # regret: every epsilon simulated (None for non-private); bai: the fixed epsilon
    params: dict
    seed: int
    checkpoints: int  # regret only: number of checkpoints (0 for bai)
    sweep: dict | None = None  # bai only: {"x": "budget"|"epsilon"|"ratio", "values": [...]}
    runs: int = 0  # most runs any figure reads (not part of the identity: runs are chunked separately)

    def as_dict(self) -> dict:
        d = {
            "kind": self.kind,
            "algorithm": self.algorithm,
            "instance": self.instance,
            "horizon": self.horizon,
            "epsilons": list(self.epsilons),
            "params": self.params,
            "seed": self.seed,
            "checkpoints": self.checkpoints,
        }
        if self.sweep is not None:
            d["sweep"] = self.sweep
        return d

    @property
    def cid(self) -> str:
        return config_id(self.as_dict())


@dataclass
class Curve:
    label: str
    algorithm: str
    epsilon: float | None
    cid: str
    variant: str = ""
    x: list | None = None  # bai figures: the swept values (budgets, epsilons or ratios) of the curve


@dataclass
class Panel:
    title: str
    instance: dict
    curves: list[Curve] = field(default_factory=list)
    x: str | None = None  # bai: what the x-axis sweeps ("budget", "epsilon", "ratio"); regret: "epsilon" or None (t)
    xscale: str = "linear"
    horizon: int | None = None  # regret horizon T, or the fixed BAI budget


@dataclass
class Figure:
    paper: str
    name: str
    spec: dict
    runs: int
    panels: list[Panel] = field(default_factory=list)
    theory: bool = False  # draw the papers' explicit regret bounds as dotted overlays
    scaled: bool = False  # simulated under the config's `scale` caps (a quick run, not the paper's settings)

    @property
    def frontier(self) -> bool:
        """A regret figure of final regret against epsilon (``x: epsilon``): the privacy-utility frontier."""
        return self.spec["kind"] == "regret" and any(p.x == "epsilon" for p in self.panels)


def chunks(runs: int, size: int) -> list[tuple[int, int]]:
    """[(start, stop), ...] covering range(runs) in pieces of at most ``size``."""
    return [(s, min(s + size, runs)) for s in range(0, runs, size)]


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
        raise ConfigError(f"{key}.algorithm: {name!r} is unknown; allowed: {sorted(registry.ALGORITHMS)}")
    return name, dict(entry.get("params", {})), entry.get("variant", ""), entry.get("label")


def algorithm_params(config: dict, name: str, overrides: dict, key: str, reading=None) -> dict:
    """Resolved parameters: algorithm defaults < config ``algorithms.<name>`` < ``reading`` < curve overrides.

    ``reading`` (a :class:`dpbandits.readings.Reading` or None) sets the reading axes it names.
    """
    read = reading.algorithm_params(name) if reading is not None else {}
    merged = {**config["algorithms"].get(name, {}), **read, **overrides}
    try:
        return registry.ALGORITHMS[name].resolve(merged)
    except ValueError as err:
        raise ConfigError(f"{key}: {err}") from None


def expand(config: dict, reading=None) -> tuple[dict[str, SimSpec], dict[str, dict[str, Figure]]]:
    """Expand ``config`` into ({cid: SimSpec}, {paper: {figure: Figure}}).

    ``config`` is a prepared config (:func:`dpbandits.configfile.prepare`: validated, figures in explicit
    form, the schema's defaults filled in).

    ``reading`` (a :class:`dpbandits.readings.Reading`) expands the figures of ``reading.papers`` under
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
            raise ConfigError(f"algorithms.{pname}: unknown algorithm; allowed: {sorted(registry.ALGORITHMS)}")
        for key, value in config["algorithms"][pname].items():  # each override named where it is typed
            try:
                registry.ALGORITHMS[pname].resolve({key: value})
            except ValueError as err:
                raise ConfigError(f"algorithms.{pname}.{key}: {err}") from None
    papers = config["papers"]
    if not papers:
        raise ConfigError("papers: the figure catalogue is empty")
    for i, target in enumerate(config["targets"]):
        if target not in papers:
            raise ConfigError(f"targets[{i}]: {target!r} is not a paper; allowed: {sorted(papers)}")
    for paper, pspec in papers.items():
        figures[paper] = {}
        if not pspec.get("figures"):
            raise ConfigError(f"papers.{paper}.figures: no figures listed")
        for fname, fspec in pspec["figures"].items():
            fkey = figure_key(paper, fname)
            kind = fspec["kind"]
            runs = _scaled(_checked(check_runs, f"{fkey}.runs", fspec["runs"]), scale.get("max_runs"))
            fig = Figure(
                paper,
                fname,
                fspec,
                runs,
                theory=bool(fspec.get("theory", config["theory_overlays"])),
                scaled=bool(scale),
            )
            if not fspec.get("panels"):
                raise ConfigError(f"{fkey}.panels: no panels listed")
            for i, panel_spec in enumerate(fspec["panels"]):
                pkey = f"{fkey}.panels[{i}]"
                read = reading if reading is not None and paper in reading.papers else None
                panel = _panel(config, panel_spec, fspec, kind, pkey, seed, n_ckpt, scale, sims, groups, read)
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


def _panel(config, panel_spec, fspec, kind, pkey, seed, n_ckpt, scale, sims, groups, reading=None) -> Panel:
    instance = _read_instance(_get("instance", panel_spec, fspec), reading)
    if instance is None:
        raise ConfigError(f"{pkey}.instance: missing")
    if kind == "bai":
        if isinstance(instance, dict) and "rewards" in instance:
            raise ConfigError(f"{pkey}.instance.rewards: a best-arm identification instance sets its law with reward")
        return _bai_panel(config, panel_spec, fspec, pkey, seed, scale, sims, reading)
    if isinstance(instance, dict) and "rewards" in instance:
        try:
            check_rewards(instance["rewards"])
        except ValueError as err:
            raise ConfigError(f"{pkey}.instance.{err}") from None
    try:
        means = check_means(means_for(instance))
    except ValueError as err:
        if isinstance(instance, dict) and (instance.get("name") in linear_instances.MAKERS or "arms" in instance):
            fkey = pkey.rsplit(".panels", 1)[0]
            raise ConfigError(
                f"{fkey}.kind: a regret figure (the default kind) with the best-arm identification "
                f"instance {instance_label(instance)!r}; set kind: bai"
            ) from None
        raise ConfigError(f"{pkey}.instance: {err}") from None
    horizon = _scaled(int(_get("horizon", panel_spec, fspec, 0)), scale.get("max_horizon"))
    try:
        horizon = check_horizon(horizon, means.size)
    except ValueError as err:
        raise ConfigError(f"{pkey}.horizon: {err}") from None
    epsilons = panel_spec.get("epsilons", fspec.get("epsilons"))
    if not epsilons:
        raise ConfigError(f"{pkey}.epsilons: empty")
    law = instance.get("rewards", DEFAULT) if isinstance(instance, dict) else DEFAULT
    curves_spec = _curves(panel_spec.get("curves", fspec.get("curves")), "regret", law)
    if not curves_spec:
        raise ConfigError(f"{pkey}.curves: empty")
    x = _get("x", panel_spec, fspec)
    if x not in (None, "epsilon"):
        raise ConfigError(
            f"{pkey}.x: {x!r} is not a regret figure's x-axis; regret figures draw t, or final regret against "
            "epsilon with x: epsilon (the privacy-utility frontier)"
        )
    panel = Panel(panel_spec.get("title", ""), instance, x=x, xscale=_get("xscale", panel_spec, fspec), horizon=horizon)
    for j, entry in enumerate(curves_spec):
        ckey = f"{pkey}.curves[{j}]"
        name, overrides, variant, label = _curve_entries(entry, ckey)
        alg = registry.ALGORITHMS[name]
        if alg.kind != kind:
            raise ConfigError(f"{ckey}.algorithm: {name} is a {alg.kind} algorithm in a {kind} figure")
        if law not in alg.laws:
            raise ConfigError(
                f"{ckey}.algorithm: {name} does not draw {law} rewards (the panel's instance.rewards); its laws: "
                f"{list(alg.laws)}"
            )
        params = algorithm_params(config, name, overrides, ckey, reading)
        eps_list = [None] if not alg.private else [_epsilon(e, f"{pkey}.epsilons") for e in epsilons]
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


def _bai_panel(config, panel_spec, fspec, pkey, seed, scale, sims, reading=None) -> Panel:
    """A best-arm-identification panel: each curve is one simulation configuration sweeping ``x``.

    Every point of the sweep is seeded as if simulated alone (its own configuration hash), so points
    shared between figures agree.
    """
    x, values = _get("x", panel_spec, fspec), _get("values", panel_spec, fspec)
    if x not in SWEEPS:
        raise ConfigError(f"{pkey}.x: {x!r} is not one of {list(SWEEPS)} (kind: bai figures sweep x)")
    if not values:
        raise ConfigError(f"{pkey}.values: empty")
    eps_list = _get("epsilons", panel_spec, fspec) or [None]
    if x != "epsilon" and len(eps_list) != 1:
        raise ConfigError(f"{pkey}.epsilons: a {x} sweep takes exactly one epsilon")
    panel = Panel(
        panel_spec.get("title", ""),
        _read_instance(_get("instance", panel_spec, fspec), reading),
        x=x,
        xscale=_get("xscale", panel_spec, fspec),
    )
    budget = _get("budget", panel_spec, fspec)
    panel.horizon = None if x == "budget" else budget
    vkey = f"{pkey if 'values' in panel_spec else pkey.rsplit('.panels', 1)[0]}.values"  # where values are set
    if x == "budget":
        values = [
            _scaled(_checked(check_budget, f"{vkey}[{i}]", v), scale.get("max_budget")) for i, v in enumerate(values)
        ]
    elif budget is None:
        raise ConfigError(f"{pkey}.budget: missing")
    else:
        budget = panel.horizon = _scaled(_checked(check_budget, f"{pkey}.budget", budget), scale.get("max_budget"))
    for i, v in enumerate(values if x == "ratio" else [None]):
        instance = dict(panel.instance, ratio=v) if x == "ratio" else panel.instance
        try:
            linear_instances.instance_for(instance)
        except ValueError as err:
            raise ConfigError(f"{f'{vkey}[{i}]' if x == 'ratio' else f'{pkey}.instance'}: {err}") from None
    for j, entry in enumerate(_curves(_get("curves", panel_spec, fspec), "bai") or []):
        ckey = f"{pkey}.curves[{j}]"
        name, overrides, variant, label = _curve_entries(entry, ckey)
        alg = registry.ALGORITHMS[name]
        if alg.kind != "bai":
            raise ConfigError(f"{ckey}.algorithm: {name} is a {alg.kind} algorithm in a bai figure")
        params = algorithm_params(config, name, overrides, ckey, reading)
        if x == "epsilon":
            vals = [_epsilon(v, f"{vkey}[{i}]") for i, v in enumerate(values)]
            eps = None
        else:
            vals = list(values)
            eps = _epsilon(eps_list[0], f"{pkey}.epsilons") if alg.private else None
        spec = SimSpec(
            "bai", name, dict(panel.instance), budget or 0, (eps,), params, seed, 0, sweep={"x": x, "values": vals}
        )
        sims[spec.cid] = spec
        text = label or alg.label + (f" {variant}" if variant else "")
        panel.curves.append(Curve(text, name, eps, spec.cid, variant, x=vals))
    if not panel.curves:
        raise ConfigError(f"{pkey}.curves: empty")
    return panel


def chunk_size(config: dict, algorithm: str) -> int:
    """Runs per simulation chunk for ``algorithm`` (``chunk_runs.<algorithm>`` or ``chunk_runs.default``)."""
    sizes = config["chunk_runs"]
    return int(sizes.get(algorithm, sizes["default"]))


def pulls_per_run(spec: SimSpec) -> int:
    """Work of one run of ``spec``: pulls over all its epsilons (regret) or budget over all sweep points (BAI)."""
    if spec.kind == "regret":
        return spec.horizon * len(spec.epsilons)
    sweep = spec.sweep or {}
    if sweep.get("x") == "budget":
        return int(sum(sweep["values"]))
    return spec.horizon * len(sweep.get("values", [0]))


def estimated_seconds(spec: SimSpec, runs: int) -> float:
    """Rough core-seconds of ``runs`` runs of ``spec`` from the registry's cost hint under the instance's reward
    law (job sizing only)."""
    regret = spec.kind == "regret" and isinstance(spec.instance, dict)
    law = spec.instance.get("rewards", DEFAULT) if regret else DEFAULT
    return cost_ns(registry.ALGORITHMS[spec.algorithm], law) * 1e-9 * pulls_per_run(spec) * runs


@dataclass(frozen=True)
class Job:
    """One simulation job: runs ``start .. stop-1`` of every member configuration (one algorithm)."""

    algorithm: str
    members: tuple  # SimSpecs, sorted by cid
    start: int
    stop: int

    @property
    def bid(self) -> str:
        """The member's cid for a single configuration, else a hash of the members' cids."""
        cids = [s.cid for s in self.members]
        return cids[0] if len(cids) == 1 else config_id({"members": cids})

    @property
    def key(self) -> str:
        return f"{self.algorithm}/{self.bid}/runs{self.start}-{self.stop}"

    def path(self, results: str) -> str:
        return f"{results}/sims/{self.key}.npz"


def plan_jobs(config: dict, sims: dict[str, SimSpec]) -> tuple[dict[str, Job], dict[str, list[str]]]:
    """Simulation jobs: ({job key: Job}, {cid: [job keys holding its chunks, in run order]}).

    Each configuration's runs are cut into chunks of ``chunk_runs``. Chunks of one algorithm with the
    same run range are then packed, in cid order, into jobs of at most ``job_seconds`` estimated
    core-seconds (:func:`estimated_seconds`); a chunk costing more is a job of its own. Packing only
    amortises process start-up (about 2 s a job): every run is seeded by its own index, so results do
    not depend on it. Adding or removing a configuration may repack that algorithm's cheap chunks.
    """
    budget = float(config["job_seconds"])
    pending: dict[tuple, list[tuple[str, SimSpec]]] = {}
    for cid in sorted(sims):
        spec = sims[cid]
        for start, stop in chunks(spec.runs, chunk_size(config, spec.algorithm)):
            pending.setdefault((spec.algorithm, start, stop), []).append((cid, spec))
    jobs: dict[str, Job] = {}
    where: dict[str, list[tuple[int, str]]] = {}

    def emit(algorithm, start, stop, members):
        job = Job(algorithm, tuple(members), start, stop)
        jobs[job.key] = job
        for spec in members:
            where.setdefault(spec.cid, []).append((start, job.key))

    for (algorithm, start, stop), units in pending.items():
        batch, cost = [], 0.0
        for _, spec in units:
            c = estimated_seconds(spec, stop - start)
            if batch and cost + c > budget:
                emit(algorithm, start, stop, batch)
                batch, cost = [], 0.0
            batch.append(spec)
            cost += c
        emit(algorithm, start, stop, batch)
    return jobs, {cid: [key for _, key in sorted(keys)] for cid, keys in where.items()}


def cost_summary(jobs: dict[str, Job], todo: list[str], warn_hours: float, papers_scale: bool = False) -> list[str]:
    """Lines announcing the estimated core-hours of the simulation jobs ``todo`` (keys of ``jobs``).

    Estimated from the registry's per-pull cost hints (measured by ``python -m dpbandits.bench``); above
    ``warn_hours`` a warning names the three costliest configurations, so that a horizon or run count
    mistyped by a factor of 1000 is seen before the wait, not after. ``papers_scale`` (no ``scale`` caps)
    adds a notice saying so and how to run a quick version instead.
    """
    todo = [jobs[key] for key in todo]
    costs: dict[str, tuple[float, SimSpec]] = {}
    for job in todo:
        for spec in job.members:
            c = estimated_seconds(spec, job.stop - job.start)
            costs[spec.cid] = (costs.get(spec.cid, (0.0, spec))[0] + c, spec)
    hours = sum(c for c, _ in costs.values()) / 3600
    lines = [f"dpbandits: {len(todo)} of {len(jobs)} simulation jobs to run, estimated {hours:.2g} core-hours"]
    if papers_scale and todo:
        lines.append("dpbandits: this is the papers' scale; for a quick run add --configfile config/smoke.yaml")
    if hours > warn_hours:
        top = sorted(costs.values(), key=lambda item: -item[0])[:3]
        worst = "; ".join(
            f"{spec.algorithm} on {instance_label(spec.instance)}, T={spec.horizon:,}, {spec.runs} runs: "
            f"{c / 3600:.2g} h"
            for c, spec in top
        )
        lines.append(
            f"dpbandits: WARNING: above cost_warning_hours={warn_hours:g}; check the horizons and runs of the "
            f"costliest configurations ({worst}) and interrupt (Ctrl-C) if unintended"
        )
    return lines


def job_seconds(job: Job) -> float:
    """Estimated core-seconds of one simulation job."""
    return sum(estimated_seconds(spec, job.stop - job.start) for spec in job.members)


def figure_sims(config: dict, where: dict[str, list[str]], fig: Figure) -> dict[str, list[str]]:
    """{cid: [job result paths, in run order]} of every configuration a figure reads."""
    results = config["results"]
    cids = dict.fromkeys(curve.cid for panel in fig.panels for curve in panel.curves)
    return {cid: [f"{results}/sims/{key}.npz" for key in where[cid]] for cid in cids}


def describe(fig: Figure) -> str:
    """One-line description of a figure's settings for captions."""
    eps = sorted({c.epsilon for p in fig.panels for c in p.curves if c.epsilon is not None})
    eps += [f"swept ({min(c.x):g}-{max(c.x):g})" for p in fig.panels if p.x == "epsilon" for c in p.curves[:1] if c.x]
    insts = sorted({instance_label(p.instance) for p in fig.panels})
    horizons = sorted({p.horizon for p in fig.panels if p.horizon})
    word = "budget" if fig.spec["kind"] == "bai" else "T"
    t_text = f"; {word}={', '.join(f'{h:g}' for h in horizons)}" if horizons else ""
    return f"instances: {'; '.join(insts)}; epsilon in {eps}{t_text}; runs={fig.runs}"


def paper_settings(config: dict, paper: str, figures: dict[str, Figure]) -> dict:
    """What one paper's notebook needs and nothing else: its title, the scale caps, each figure's settings as
    simulated (after the caps) and the resolved parameters of the paper's algorithms (JSON-serialisable)."""
    rows, used = [], {}
    for name, fig in figures.items():
        curves = [c for p in fig.panels for c in p.curves]
        if not is_diagnostic(name):  # the paper's algorithms: a diagnostic may draw others
            used.update(dict.fromkeys(c.algorithm for c in curves))
        swept = sorted({p.x for p in fig.panels if p.x})
        rows.append(
            {
                "figure": name,
                "caption": fig.spec.get("caption", ""),
                "instances": "; ".join(dict.fromkeys(instance_label(p.instance) for p in fig.panels)),
                "epsilons": sorted({c.epsilon for c in curves if c.epsilon is not None}),
                ("budget" if fig.spec["kind"] == "bai" else "horizon"): sorted(
                    {p.horizon for p in fig.panels if p.horizon}
                ),
                "swept": ", ".join(swept),
                "runs": fig.runs,
                "frontier": fig.frontier,
            }
        )
    algorithms = {name: registry.ALGORITHMS[name].resolve(config["algorithms"].get(name, {})) for name in used}
    return {
        "paper": paper,
        "title": config["papers"][paper].get("title", paper),
        "scale": config["scale"],
        "figures": rows,
        "algorithms": algorithms,
    }
