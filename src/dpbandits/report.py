"""Helpers used by the rendered notebooks: settings tables, figure display, claim tables."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import yaml

from . import catalogue, registry

CONFIG = Path(__file__).resolve().parents[2] / "config" / "config.yaml"


def load_config(config: dict | None = None) -> dict:
    """The pipeline config passed by papermill, or the default ``config/config.yaml``."""
    if config:
        return config
    return yaml.safe_load(CONFIG.read_text())


def paper_algorithms(config: dict, paper: str) -> list[str]:
    """The algorithms drawn in ``paper``'s figures (plugins included), in order of first appearance."""
    _, figures = catalogue.expand(config)
    return list(dict.fromkeys(c.algorithm for fig in figures[paper].values() for p in fig.panels for c in p.curves))


def settings_table(config: dict, algorithms) -> pd.DataFrame:
    """Every parameter of ``algorithms`` as used: value, library default, and its documentation.

    The ``tag`` column shows [RECON] / [CHOICE] where the value is a reconstruction or a choice.
    """
    rows = []
    for name in algorithms:
        alg = registry.ALGORITHMS[name]
        used = alg.resolve(config.get("algorithms", {}).get(name, {}))
        for key, spec in alg.params.items():
            tag = ", ".join(t for t in ("[RECON]", "[CHOICE]") if t in spec.doc)
            rows.append({
                "algorithm": name, "parameter": key, "value": used[key], "default": spec.default,
                "tag": tag, "meaning": spec.doc,
            })
    return pd.DataFrame(rows)


def figure_settings(config: dict, paper: str) -> pd.DataFrame:
    """One row per figure of ``paper``: horizon/budget, runs, scale caps in force."""
    scale = config.get("scale", {})
    rows = []
    for name, spec in config["papers"][paper]["figures"].items():
        rows.append({
            "figure": name, "horizon": spec.get("horizon"), "budget": spec.get("budget"),
            "runs": spec["runs"], "scale caps": scale or "none (papers' scale)", "caption": spec.get("caption", ""),
        })
    return pd.DataFrame(rows)


def final_table(results: str | Path, paper: str, figure: str) -> pd.DataFrame:
    """Mean ± s.e. of the final regret of each curve of a figure."""
    df = pd.read_csv(Path(results) / "figures" / paper / f"{figure}.csv")
    last = df[df["t"] == df.groupby(["panel", "curve"])["t"].transform("max")]
    return last[["panel_title", "curve", "t", "mean", "sem", "min", "max", "runs"]].reset_index(drop=True)


def figure_path(results: str | Path, paper: str, figure: str, ext: str = "png") -> Path:
    return Path(results) / "figures" / paper / f"{figure}.{ext}"


def claims_table(claims) -> pd.DataFrame:
    """Claims as a table (verdict first)."""
    df = pd.DataFrame([c.row() for c in claims])
    return df[["claim_id", "verdict", "statement", "criterion", "evidence", "numbers"]]
