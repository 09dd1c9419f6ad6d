"""The pipeline's configuration file: validation, defaults, compact figure forms, and its documentation.

:func:`prepare` is what :func:`dpbandits.pipeline.planning.plan` does first. It validates a config against
``workflow/schemas/config.schema.yaml`` (one
:class:`~dpbandits.pipeline.catalogue.model.ConfigError` line naming the key),
then rewrites each paper's figures from the compact forms into the explicit form that
:func:`dpbandits.pipeline.catalogue.expand.expand` reads, and fills in the schema's ``default`` values, so that the
defaults are stated in the schema only:

* ``papers.<paper>.defaults``: figure keys merged under every figure of the paper (a key the figure sets
  replaces the default's value whole);
* ``panels: {<axis>: [values], title: ...}``: one panel per value of ``k`` or ``epsilons``, titled by the
  ``title`` template ({letter}, {instance}, {k}, {epsilons});
* ``papers.<paper>.frontier``: the privacy-utility frontier, one figure ``frontier/<instance name>`` per
  instance (final regret against epsilon, one panel per reward law);
* ``papers.<paper>.diagnostics``: the experiments of the paper's replication report, figures named
  ``diagnostics/<name>`` (:mod:`dpbandits.diagnoses`);
* a caption's fields {figure}, {number}, {instance}, {k} and {epsilons} are filled in.

``python -m dpbandits.pipeline.configfile`` (``dpbandits config``) rewrites the generated docs
(:mod:`~dpbandits.pipeline.gendocs`); ``--check`` fails if they are stale.
"""

from __future__ import annotations

import argparse
import copy
import re
import string
import sys
from pathlib import Path

from ..core.instances import instance_label, means_for
from . import gendocs
from .catalogue.model import DIAGNOSTICS, ConfigError, figure_key, keypath

ROOT = Path(__file__).resolve().parents[3]
SCHEMA = ROOT / "workflow" / "schemas" / "config.schema.yaml"
AXES = ("k", "epsilons")


def load_schema(schema_path=SCHEMA) -> dict:
    import yaml

    return yaml.safe_load(Path(schema_path).read_text())


def _validator(schema: dict, fill_defaults: bool):
    """A JSON-schema validator; ``fill_defaults`` also sets each absent property that has a ``default``
    (as Snakemake's ``validate(config, schema, set_default=True)``)."""
    import jsonschema

    cls = jsonschema.Draft202012Validator
    if fill_defaults:
        check_properties = cls.VALIDATORS["properties"]

        def properties(validator, props, instance, schema):
            if isinstance(instance, dict):
                for key, sub in props.items():
                    if isinstance(sub, dict) and "default" in sub and key not in instance:
                        instance[key] = copy.deepcopy(sub["default"])
            yield from check_properties(validator, props, instance, schema)

        cls = jsonschema.validators.extend(cls, {"properties": properties})
    return cls(schema)


def check(config: dict, schema: dict, fill_defaults: bool = False) -> None:
    """Validate ``config`` against ``schema``; raise ``ConfigError`` with one line naming the key."""
    import jsonschema

    error = jsonschema.exceptions.best_match(_validator(schema, fill_defaults).iter_errors(config))
    if error is None:
        return
    path = keypath(*error.absolute_path)
    allowed = error.schema.get("enum") if isinstance(error.schema, dict) else None
    hint = f" (allowed: {allowed})" if allowed and "is not one of" not in error.message else ""
    raise ConfigError(f"{path or '<top level>'}: {error.message}{hint}")


def prepare(config: dict, schema_path=SCHEMA) -> dict:
    """Validate ``config``, expand its compact figure forms and fill in the schema's defaults, in place.

    Returns ``config``. Running it again on the result changes nothing.
    """
    schema = load_schema(schema_path)
    check(config, schema)
    papers = {}
    for paper, pspec in config["papers"].items():
        papers[paper] = {
            key: value for key, value in pspec.items() if key not in ("defaults", "frontier", "diagnostics")
        }
        specs = {**pspec["figures"], **{f"{DIAGNOSTICS}/{n}": f for n, f in pspec.get("diagnostics", {}).items()}}
        papers[paper]["figures"] = {
            name: figure(paper, name, fspec, pspec.get("defaults", {})) for name, fspec in specs.items()
        }
        if "frontier" in pspec:
            papers[paper]["figures"].update(frontier(paper, pspec["frontier"], papers[paper]["figures"]))
    config["papers"] = papers  # only once every figure is valid: a failed prepare leaves config as it was
    check(config, schema, fill_defaults=True)  # the explicit form; fills kind, xscale, band, ... in each figure
    return config


def merge(base: dict, extra: dict) -> dict:
    """``extra`` merged into ``base`` recursively, as ``snakemake --configfile a.yaml b.yaml`` merges them."""
    for key, value in extra.items():
        if isinstance(value, dict) and isinstance(base.get(key), dict):
            merge(base[key], value)
        else:
            base[key] = copy.deepcopy(value)
    return base


def load(paths, schema_path=SCHEMA) -> dict:
    """The config files ``paths`` (e.g. config/config.yaml, config/smoke.yaml) merged and :func:`prepare` d."""
    import yaml

    config: dict = {}
    for path in paths:
        merge(config, yaml.safe_load(Path(path).read_text()) or {})
    return prepare(config, schema_path)


# --- compact figure forms ------------------------------------------------------------------------------


def _eps_text(value) -> str:
    if isinstance(value, list):
        return "{" + ", ".join(f"{e:g}" for e in value) + "}"
    return f"{value:g}"


def _fill(template: str, fields: dict, fkey: str, key: str, note: str = "") -> str:
    """``template`` (at ``key`` of figure ``fkey``) with each ``{name}`` of ``fields`` replaced; other braces
    (``{3, 5}``) are kept."""

    needs = {
        "instance": keypath(fkey, "instance", "name"),
        "k": keypath(fkey, "instance", "k"),
        "epsilons": keypath(fkey, "epsilons"),
    }

    def sub(match):
        name = match.group(1)
        if name not in fields:
            raise ConfigError(f"{key}: no field {{{name}}}; fields: {sorted(fields)}{note}")
        if fields[name] is None:
            raise ConfigError(f"{needs.get(name, key)}: missing, and {key} uses {{{name}}}{note}")
        return str(fields[name])

    return re.sub(r"\{([A-Za-z_][A-Za-z0-9_]*)\}", sub, template)


def _number(name: str) -> str:
    """A figure's number from its name: fig05 -> 5, fig6_1 -> 6.1, figA_1 -> A.1."""
    return re.sub(r"^fig", "", name).lstrip("0").replace("_", ".") or name


def figure(paper: str, name: str, fspec: dict, defaults: dict) -> dict:
    """One figure in explicit form: ``defaults`` merged under it, panels generated, caption filled in."""
    fkey = figure_key(paper, name)
    spec = {**copy.deepcopy(defaults), **fspec}

    def note(key):  # where the figure's value of ``key`` is written, if not in the figure
        return "" if key in fspec else f" ({key} set in {keypath('papers', paper, 'defaults')})"

    instance = spec.get("instance") or {}
    fields = {
        "figure": name,
        "number": _number(name),
        "instance": instance.get("name"),
        "k": instance.get("k"),
        "epsilons": _eps_text(spec["epsilons"]) if "epsilons" in spec else None,
    }
    if "caption" in spec:
        spec["caption"] = _fill(spec["caption"], fields, fkey, keypath(fkey, "caption"), note("caption"))
    if "runs" not in spec:
        raise ConfigError(
            f"{keypath(fkey, 'runs')}: missing (set it in the figure or in {keypath('papers', paper, 'defaults')})"
        )
    if isinstance(spec.get("panels"), dict):
        spec["panels"] = panels_by(spec["panels"], spec, fkey, note("panels"))
    return spec


def frontier(paper: str, spec: dict, figures: dict) -> dict[str, dict]:
    """The figures of a paper's ``frontier`` block: ``frontier/<instance name>`` per instance, each drawing final
    regret against the block's epsilons (``x: epsilon``): a Bernoulli panel, and a panel for each other reward law
    whose ``rewards`` entry names the instance (docs/frontier.md)."""
    key = keypath("papers", paper, "frontier")
    names = [instance.get("name") for instance in spec["instances"]]
    for law, chosen in spec.get("rewards", {}).items():
        for j, name in enumerate(chosen):
            if name not in names:
                raise ConfigError(
                    f"{keypath(key, 'rewards', law, j)}: {name!r} is not one of the frontier's instances "
                    f"({keypath(key, 'instances')}: {names})"
                )
    out = {}
    seen = {}
    for i, instance in enumerate(spec["instances"]):
        if "name" not in instance:
            raise ConfigError(
                f"{keypath(key, 'instances', i, 'name')}: missing; a frontier figure is named by its instance"
            )
        try:
            content = tuple(means_for(instance).tolist())
        except ValueError as err:
            raise ConfigError(f"{keypath(key, 'instances', i)}: {err}") from None
        if content in seen:
            j = seen[content]
            raise ConfigError(
                f"{keypath(key, 'instances', i)}: {instance_label(instance)} has the means of "
                f"{instance_label(spec['instances'][j])} ({keypath(key, 'instances', j)}); one instance under two "
                "names would be simulated and counted twice: list it once"
            )
        seen[content] = i
        name = f"frontier/{instance['name']}"
        if name in figures or name in out:
            raise ConfigError(f"{keypath(key, 'instances', i, 'name')}: figure {name!r} is already defined")
        laws = ["bernoulli"] + [law for law, chosen in spec.get("rewards", {}).items() if instance["name"] in chosen]
        fspec = {
            "x": "epsilon",
            "xscale": "log",
            "yscale": "log",
            "label_epsilon": False,
            "theory": False,
            "curves": spec.get("curves", "all"),
            "instance": instance,
            **{k: spec[k] for k in ("horizon", "runs", "epsilons", "caption") if k in spec},
            # the Bernoulli panel keeps the instance as written, so it shares configurations with other figures
            "panels": [
                {"title": f"{law.capitalize()} rewards"}
                | ({} if law == "bernoulli" else {"instance": {**instance, "rewards": law}})
                for law in laws
            ],
        }
        out[name] = figure(paper, name, fspec, {})
    if "gaps" in spec:
        out["frontier/gaps"] = figure(paper, "frontier/gaps", gap_sweep(spec), {})
    return out


def gap_sweep(spec: dict) -> dict:
    """The figure spec of a frontier block's ``gaps`` sweep: final regret against its epsilons, one panel per gap
    Delta on two Bernoulli arms of means 1/2 +- Delta/2 (the frontier's horizon, runs and curves)."""
    gaps = spec["gaps"]
    return {
        "x": "epsilon",
        "xscale": "log",
        "yscale": "log",
        "label_epsilon": False,
        "theory": False,
        "curves": spec.get("curves", "all"),
        "horizon": spec["horizon"],
        "runs": spec["runs"],
        "epsilons": gaps["epsilons"],
        "caption": "Two-arm gap sweep of the privacy-utility frontier: how final regret depends on the gap Δ.",
        "panels": [{"title": f"Δ = {d:g}", "instance": {"means": [0.5 + d / 2, 0.5 - d / 2]}} for d in gaps["deltas"]],
    }


def panels_by(by: dict, spec: dict, fkey: str, note: str = "") -> list[dict]:
    """Panels ``[{title, instance | epsilons}, ...]`` of figure ``fkey``, one per value of the one axis ``by``
    (its ``panels``) names."""
    key = keypath(fkey, "panels")
    axes = [a for a in by if a != "title"]
    if len(axes) != 1:
        raise ConfigError(f"{key}: name exactly one axis to make panels from ({' or '.join(AXES)}), got {axes}{note}")
    axis = axes[0]
    instance = spec.get("instance")
    if axis == "k" and not instance:
        raise ConfigError(f"{keypath(key, 'k')}: panels by k need the figure's instance{note}")
    out = []
    for i, value in enumerate(by[axis]):
        panel: dict = {}
        inst = dict(instance, k=value) if axis == "k" else instance or {}
        eps = value if axis == "epsilons" else spec.get("epsilons")
        fields = {
            "letter": string.ascii_lowercase[i % 26],
            "instance": inst.get("name"),
            "k": inst.get("k"),
            "epsilons": None if eps is None else _eps_text(eps),
        }
        panel["title"] = _fill(by["title"], fields, fkey, keypath(key, "title"), note)
        if axis == "k":
            panel["instance"] = inst
        else:
            panel["epsilons"] = list(value) if isinstance(value, list) else [value]
        out.append(panel)
    return out


def validate(paths, base=ROOT / "config" / "config.yaml") -> str:
    """Plan the config files ``paths`` merged over ``base`` (as ``snakemake --configfile PATHS`` does);
    a one-line summary, or ``ConfigError`` naming the key."""
    import yaml

    from . import planning

    config: dict = {}
    for path in [base, *paths]:
        try:
            merge(config, yaml.safe_load(Path(path).read_text()) or {})
        except (OSError, yaml.YAMLError) as err:
            raise ConfigError(f"{path}: {str(err).splitlines()[0]}") from None
    plan = planning.plan(config)
    return (
        f"valid: {len(plan.sims)} simulation configurations in {len(plan.jobs)} simulation jobs, "
        f"{len(plan.figures)} papers"
    )


def main(argv=None, prog: str = "dpbandits config") -> int:
    """CLI: regenerate the generated docs (:mod:`~dpbandits.pipeline.gendocs`; ``--check``: exit 1 if stale), or
    ``--validate`` configs."""
    parser = argparse.ArgumentParser(
        prog=prog,
        description="Regenerate config/README.md's key tables and the algorithm folders' READMEs, or validate configs.",
    )
    parser.add_argument("--check", action="store_true", help="fail if a generated doc is stale; write nothing")
    parser.add_argument(
        "--validate",
        nargs="+",
        metavar="CONFIG",
        help="check these config files, merged over config/config.yaml as snakemake --configfile "
        "merges them (invalid: exit 2, naming the key); writes nothing",
    )
    args = parser.parse_args(argv)
    if args.validate:
        print(validate(args.validate))
        return 0
    stale = gendocs.write(load_schema(), check=args.check)
    if args.check and stale:
        print(f"stale: {', '.join(stale)}: run dpbandits config", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":  # the same as `dpbandits config`
    from ..cli import main as cli

    sys.exit(cli(["config", *sys.argv[1:]]))
