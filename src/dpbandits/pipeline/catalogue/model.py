"""The catalogue's data model: simulation configurations, figures and jobs, and where their files and keys live.

A *figure* has panels; a panel has curves; a curve is one (algorithm, parameters, epsilon) on the panel's
instance. Curves are served by *simulation configurations* (:class:`SimSpec`), identified by a content hash
``cid`` so identical configurations used by several figures are simulated once; a :class:`Job` runs one chunk of
runs of one or more configurations of one algorithm.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ...core.seeding import config_id


class ConfigError(ValueError):
    """A config value is invalid; the message starts with the offending key path (:func:`keypath`)."""


def keypath(*parts) -> str:
    """A config key path as error messages name it: strings joined by dots, integers as list indices.

    ``keypath("papers", "p", "figures", "fig2", "panels", 2, "horizon") == "papers.p.figures.fig2.panels[2].horizon"``;
    a part may itself be a key path (``keypath(fkey, "runs")``).
    """
    out = ""
    for part in parts:
        out += f"[{part}]" if isinstance(part, int) else f".{part}" if out else str(part)
    return out


DIAGNOSTICS = "diagnostics"  # a paper's diagnostic figures (its replication report's experiments): diagnostics/<name>


def is_diagnostic(figure: str) -> bool:
    """True for a diagnostic figure's name (``diagnostics/<name>``): read by the report, not by claims or readings."""
    return figure.startswith(f"{DIAGNOSTICS}/")


def figure_key(paper: str, figure: str) -> str:
    """Where a figure is written in the config: ``papers.<paper>.figures.<name>``, or for a diagnostic figure
    ``papers.<paper>.diagnostics.<name>`` (errors name it)."""
    if is_diagnostic(figure):
        return keypath("papers", paper, DIAGNOSTICS, figure.removeprefix(f"{DIAGNOSTICS}/"))
    return keypath("papers", paper, "figures", figure)


# A simulation job's key; with its fields left as they are, the simulate rule's wildcards.
JOB_KEY = "{algorithm}/{bid}/runs{start}-{stop}"


def job_path(results: str, key: str) -> str:
    """The result file (``.npz``) of the simulation job ``key`` (:data:`JOB_KEY`) under ``results``."""
    return f"{results}/sims/{key}.npz"


def figures_dir(results: str, paper: str, reading: str | None = None) -> str:
    """The folder of a paper's figure files: ``<results>/figures/<paper>``, or under reading ``reading`` (its
    slug) ``<results>/readings/<reading>/figures/<paper>``."""
    return f"{results}/figures/{paper}" if reading is None else f"{results}/readings/{reading}/figures/{paper}"


def figure_paths(base: str, name: str) -> dict[str, str]:
    """The files figure ``name`` writes under ``base`` (:func:`figures_dir`): its drawing (``pdf``, ``png``), its
    curves table (``csv``) and its per-run finals (``runs``)."""
    return {
        "pdf": f"{base}/{name}.pdf",
        "png": f"{base}/{name}.png",
        "csv": f"{base}/{name}.csv",
        "runs": f"{base}/{name}_runs.csv",
    }


@dataclass(frozen=True)
class SimSpec:
    """One simulation configuration (all runs share it; runs differ only by run index)."""

    kind: str  # "regret" or "bai"
    algorithm: str
    instance: dict
    horizon: int  # regret only: the horizon T (0 for bai)
    epsilons: tuple  # regret: every epsilon simulated (None for non-private); bai: the fixed epsilon
    params: dict
    seed: int
    checkpoints: int  # regret only: number of checkpoints (0 for bai)
    sweep: dict | None = None  # bai only: {"x": "budget"|"epsilon"|"ratio", "values": [...]}
    budget: int = 0  # bai only: the fixed budget of an epsilon or ratio sweep (0 for a budget sweep)
    runs: int = 0  # most runs any figure reads (not part of the identity: runs are chunked separately)

    def as_dict(self) -> dict:
        """The configuration as hashed into its :attr:`cid` and passed to its jobs (``--specs``)."""
        d = {
            "kind": self.kind,
            "algorithm": self.algorithm,
            "instance": self.instance,
            # a BAI budget stays under "horizon" here: the cid seeds the runs and names the result files, so the
            # hashed dict keeps the form it always had (dpbandits.pipeline.entry_bai reads the budget from it)
            "horizon": self.horizon if self.kind == "regret" else self.budget,
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
        return JOB_KEY.format(algorithm=self.algorithm, bid=self.bid, start=self.start, stop=self.stop)

    def path(self, results: str) -> str:
        return job_path(results, self.key)
