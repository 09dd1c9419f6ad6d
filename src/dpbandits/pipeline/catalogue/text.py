"""Text about figures for captions and notebooks: a figure's settings in one line, a paper's settings."""

from __future__ import annotations

from ...core import registry
from ...core.instances import instance_label
from .model import Figure, is_diagnostic


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
