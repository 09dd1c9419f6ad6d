"""The audit's committed baseline (``baseline.json`` beside this module) and the drift check of ``--check``.

``dpbandits audit --out DIR --write-baseline`` (default settings) rewrites it: every real row's loss lower
bound and the power table's per-factor bounds, with the settings that produced them. :func:`drift` compares a
new run with it; a run at other settings (trials, seed, alpha, ladder) is refused, not compared.

Tolerance: a row's ``loss_estimate - loss_lower`` is the half-width of its own one-sided confidence interval
(level alpha / (2 m) per probability, m events; about 2.5 standard errors at the default alpha). Two audits of
the same law differ by about sqrt(2) standard errors, so a row drifts when ``|new - old|`` exceeds the two
half-widths combined, ``hypot(gap_old, gap_new)`` (about 2.5 standard errors of the difference: about 1 row in
80 when only the draws change, and never at an unchanged seed and code, which give identical numbers).
A power threshold drifts when the largest factor flagged changes, unless every factor whose verdict changed
was borderline in both runs (its lower bound within its own half-width of epsilon).
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import pandas as pd

BASELINE = Path(__file__).with_name("baseline.json")
KEY = ("algorithm", "engine", "noise_factor")


def _gap(estimate: float, lower: float) -> float:
    return max(float(estimate) - float(lower), 0.0)


def write_baseline(audit: pd.DataFrame, power: pd.DataFrame, settings: dict, path: Path = BASELINE) -> None:
    """Write the real rows of ``audit`` (``audit_all``'s table) and ``power`` (``power_table``'s) to ``path``."""
    real = audit[audit["role"] == "real"]
    rows = [
        {k: r[k] for k in (*KEY, "loss_lower", "loss_estimate")} | {"noise_factor": float(r["noise_factor"])}
        for r in real.to_dict("records")
    ]
    data = {"settings": settings, "audit": rows, "power": json.loads(power.to_json(orient="records"))}
    path.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n")


def load_baseline(path: Path = BASELINE) -> dict:
    """The committed baseline; ``ValueError`` naming the path if it is missing or not JSON."""
    try:
        return json.loads(Path(path).read_text())
    except (OSError, ValueError) as err:
        raise ValueError(f"baseline {path}: cannot be read ({err}); regenerate it with --write-baseline") from None


def _row_drift(label, old_lower, old_est, new_lower, new_est) -> str | None:
    tol = math.hypot(_gap(old_est, old_lower), _gap(new_est, new_lower))
    if abs(new_lower - old_lower) > tol:
        return f"{label}: loss lower bound {new_lower:.3f}, baseline {old_lower:.3f} (tolerance {tol:.3f})"
    return None


def _factors(row: dict) -> list[str]:
    return sorted({k.split()[0] for k in row if k.endswith(" lower")})


def _borderline(row: dict, f: str) -> bool:
    lower, est = row.get(f"{f} lower"), row.get(f"{f} estimate")
    if lower is None or est is None or math.isnan(lower):
        return False
    return abs(lower - row["epsilon"]) <= _gap(est, lower)


def _power_drift(old: dict, new: dict) -> list[str]:
    name, bad = new["algorithm"], []
    for f in set(_factors(old)) & set(_factors(new)):
        if old.get(f"{f} trials") == new.get(f"{f} trials") and not math.isnan(new[f"{f} lower"]):
            args = (old[f"{f} lower"], old[f"{f} estimate"], new[f"{f} lower"], new[f"{f} estimate"])
            bad.append(_row_drift(f"{name} power {f}", *args))
    if old["flagged"] != new["flagged"]:
        changed = [
            f for f in set(_factors(old)) | set(_factors(new)) if not (_borderline(old, f) and _borderline(new, f))
        ]
        if changed:
            bad.append(f"{name}: power threshold {new['flagged']}, baseline {old['flagged']}")
    return [b for b in bad if b]


def drift(audit: pd.DataFrame, power: pd.DataFrame | None, settings: dict, baseline: dict) -> list[str]:
    """Lines naming each real row and power threshold of this run that drifted from ``baseline`` (see above).

    ``settings`` are this run's; rows the baseline lacks are named (regenerate it after adding an algorithm);
    baseline rows this run lacks (another ``--algorithms``) are skipped.
    """
    base = baseline["settings"]
    differ = {k: (settings[k], base.get(k)) for k in settings if settings[k] != base.get(k)}
    if power is None:
        differ.pop("ladder", None)
    if differ:
        return [f"settings differ from the baseline's (this run, baseline): {differ}; drift not compared"]
    old = {tuple(r[k] for k in KEY): r for r in baseline["audit"]}
    bad = []
    for r in audit[audit["role"] == "real"].to_dict("records"):
        key = (r["algorithm"], r["engine"], float(r["noise_factor"]))
        if key not in old:
            bad.append(f"{key[0]} ({key[1]}): no baseline row; regenerate it with --write-baseline")
            continue
        o = old[key]
        label = f"{key[0]} ({key[1]}) real"
        bad.append(_row_drift(label, o["loss_lower"], o["loss_estimate"], r["loss_lower"], r["loss_estimate"]))
    old_power = {r["algorithm"]: r for r in baseline.get("power", [])}
    for r in [] if power is None else power.to_dict("records"):
        if r["algorithm"] not in old_power:
            bad.append(f"{r['algorithm']} power: no baseline row; regenerate it with --write-baseline")
        else:
            bad += _power_drift(old_power[r["algorithm"]], r)
    return [b for b in bad if b]
