"""Bernoulli instances of the papers, generated from their formulas (means sorted best first).

``means_for(spec)`` turns a config instance entry into float64[K]:
``{"name": "C2", "k": 5}``, ``{"name": "tossou_10arm"}`` or ``{"means": [0.9, 0.6]}``.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from .validation import brief, check_integer, check_means


def sajed_instance(name: str, k: int) -> list[Fraction]:
    """Sajed & Sheffet (2019) instances C1-C4 for K arms, exact fractions in [1/4, 3/4].

    C1: 3/4 then K-1 arms at 7/10.  C2: linear 3/4 -> 1/4.  C3: convex a(i-K)^2 + 1/4.
    C4: concave -a(i-1)^2 + 3/4, with a = 1/(2 (K-1)^2), i = 1..K.
    """
    k = check_integer("k", k, low=2, limit="K")
    hi, lo = Fraction(3, 4), Fraction(1, 4)
    a = Fraction(1, 2 * (k - 1) ** 2)
    idx = range(1, k + 1)
    if name == "C1":
        return [hi] + [Fraction(7, 10)] * (k - 1)
    if name == "C2":
        return [hi - (hi - lo) * Fraction(i - 1, k - 1) for i in idx]
    if name == "C3":
        return [a * (i - k) ** 2 + lo for i in idx]
    if name == "C4":
        return [hi - a * (i - 1) ** 2 for i in idx]
    raise ValueError(f"instance name={name!r} is not one of C1, C2, C3, C4")


NAMED = {
    "tossou_2arm": [0.9, 0.6],
    "tossou_10arm": [0.1, 0.1, 0.1, 0.2, 0.55, 0.1, 0.1, 0.1, 0.1, 0.1],
    "hu_setting1": [0.75, 0.625, 0.5, 0.375, 0.25],
    "hu_setting2": [0.5, 0.4, 0.4, 0.4, 0.4],
}


def means_for(spec: dict) -> np.ndarray:
    """float64[K] means of a config instance entry (see module docstring)."""
    if not isinstance(spec, dict):
        raise ValueError(f"instance must be a mapping such as {{'name': 'C2', 'k': 5}}, got {brief(spec)}")
    if "means" in spec:
        return check_means(spec["means"])
    name = spec.get("name")
    if not isinstance(name, str):
        raise ValueError(f"instance name must be a string, got {name!r}")
    if name in NAMED:
        return np.asarray(NAMED[name], dtype=np.float64)
    if name in ("C1", "C2", "C3", "C4"):
        if "k" not in spec:
            raise ValueError(f"instance {name} needs k (number of arms)")
        return np.asarray([float(x) for x in sajed_instance(name, spec["k"])])
    raise ValueError(f"instance name={name!r} is unknown; known: C1-C4, {sorted(NAMED)}")


def instance_label(spec: dict) -> str:
    """Short human label, e.g. 'C2, K=5', 'tossou_2arm' or 'tossou_2arm, rewards=beta'."""
    law = f", rewards={spec['rewards']}" if spec.get("rewards", "bernoulli") != "bernoulli" else ""
    if "means" in spec:
        return "means=" + ",".join(f"{m:g}" for m in spec["means"]) + law
    if spec.get("name") in NAMED:
        return spec["name"] + law
    skip = ("name", "k", "arms", "theta", *([] if law else ["rewards"]))
    extra = ", ".join(f"{k}={v}" for k, v in spec.items() if k not in skip)
    head = f"{spec.get('name', 'custom')}" + (f", K={spec['k']}" if "k" in spec else "")
    return f"{head}, {extra}" if extra else head
