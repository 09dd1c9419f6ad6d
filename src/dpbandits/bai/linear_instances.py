"""Instances and figure protocol of Chen, Karthik, Chee & Tan (ICLR 2024), Section 5 and Appendix E.2.

The paper's numbers were lost in its text extraction; values marked [CHOICE]/[RECON] in
``PROTOCOL["provenance"]`` are this project's reconstructions, [PAPER] values are read in the paper
(docs/reconstructions.md). ``INSTANCE_AXES`` lists the reconstructed instance values that have other
plausible readings.
"""

from __future__ import annotations

import numpy as np

from ..core.registry import Param
from ..core.validation import brief, check_arms, check_integer, check_real, check_theta

INSTANCE_SEED = 2024


def section5_instance(
    k: int = 30, omega_low: float = 0.0, omega_high: float = 0.8, seed: int = INSTANCE_SEED
) -> tuple[np.ndarray, np.ndarray]:
    """Synthetic instance of Section 5 [CHOICE]: (arms float64[K, 2], theta float64[2]).

    Section 5 keeps the sentence (three hand-set arms, a_i built from omega_i uniform on an interval for
    i >= 4, arms 2 and 3 with the smallest gaps) but none of its values; these are reconstructed.

    theta = (0.045, 0.5); a_1 = (0, 1) (mu = 0.5, best), a_2 = (0, 0.9), a_3 = (10, 0) (mu = 0.45),
    a_i = (1, omega_i) with omega_i ~ U[omega_low, omega_high] drawn once from
    ``numpy.random.default_rng(seed)`` (mu_i = 0.045 + 0.5 omega_i), i = 4..K.
    """
    k = check_integer("k", k, low=4, limit="K")
    seed = check_integer("seed", seed)
    omega_high = check_real("omega_high", omega_high, low=0.0, high=0.8)
    omega_low = check_real("omega_low", omega_low, low=0.0, high=omega_high)  # 0 <= omega_low <= omega_high
    omega = np.random.default_rng(seed).uniform(omega_low, omega_high, k - 3)
    arms = np.vstack([[0.0, 1.0], [0.0, 0.9], [10.0, 0.0], np.column_stack([np.ones(k - 3), omega])])
    return arms, np.array([0.045, 0.5])


def two_arm_instance(ratio: float, mu1: float = 0.5, mu2: float = 0.45) -> tuple[np.ndarray, np.ndarray]:
    """Two-armed instance of Appendix E.2 [CHOICE] (its values are lost): a_1 = (r, 0), a_2 = (0, 1),
    theta = (mu1 / r, mu2), so the means are (mu1, mu2) for every ratio r = x / y > 0."""
    ratio = check_real("ratio", ratio)
    mu1, mu2 = check_real("mu1", mu1, low=0.0, high=1.0), check_real("mu2", mu2, low=0.0, high=1.0)
    if not 1e-12 <= ratio <= 1e12:  # theta = mu1 / ratio stays finite and the arms well scaled
        raise ValueError(f"ratio must lie in [1e-12, 1e12], got ratio={ratio!r}")
    return np.array([[float(ratio), 0.0], [0.0, 1.0]]), np.array([mu1 / ratio, mu2])


MAKERS = {"section5": section5_instance, "two_arm": two_arm_instance}  # named instances of instance_for


def instance_for(spec: dict) -> tuple[np.ndarray, np.ndarray, dict]:
    """(arms, theta, reward keyword arguments of ``simulate_bai``) of a config instance entry.

    ``{"name": "section5", "k": 30, "omega_low": 0, "omega_high": 0.8, "seed": 2024}``,
    ``{"name": "two_arm", "ratio": 10, "mu1": 0.5, "mu2": 0.45}`` or
    ``{"arms": [[...], ...], "theta": [...]}``; optional ``reward`` and ``reward_width`` keys.
    """
    if not isinstance(spec, dict):
        raise ValueError(f"instance must be a mapping such as {{'name': 'two_arm', 'ratio': 10}}, got {brief(spec)}")
    spec = dict(spec)
    reward = {key: spec.pop(key) for key in ("reward", "reward_width") if key in spec}
    if "arms" in spec:
        if "theta" not in spec:
            raise ValueError("instance with arms needs theta")
        arms = check_arms(spec.pop("arms"))
        return arms, check_theta(spec.pop("theta"), arms.shape[1]), reward
    name = spec.pop("name", None)
    if not isinstance(name, str | None):
        raise ValueError(f"instance name must be a string, got {name!r}")
    if name not in MAKERS:
        raise ValueError(f"instance name={name!r} is unknown; known: {sorted(MAKERS)} or arms/theta")
    try:
        arms, theta = MAKERS[name](**spec)
    except TypeError as err:
        raise ValueError(f"instance {name}: {err}") from None
    return arms, theta, reward


FIG1_ALGORITHMS = ("dp_bai", "baseline_bai", "od_linbai", "dp_od")
FIG2_ALGORITHMS = ("dp_bai", "dp_od")

PROTOCOL = {
    "fig1": {
        "instance": {
            "name": "section5",
            "k": 30,
            "omega_low": 0.0,
            "omega_high": 0.8,
            "seed": INSTANCE_SEED,
            "reward": "uniform",
        },
        "algorithms": FIG1_ALGORITHMS,
        "trials": 1000,
        "metric": "success rate: fraction of trials whose recommended arm is arm 1 (index 0)",
        "panels": {
            "a": {"x": "budget", "budget": [500, *range(1000, 10001, 1000)], "epsilon": 0.1},
            "b": {
                "x": "epsilon",
                "epsilon": [0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 100],
                "budget": 2000,
                "xscale": "log",
            },
        },
        "optional_panels": {
            "c": {"x": "budget", "budget": [500, *range(1000, 10001, 1000)], "epsilon": 1.0},
        },
    },
    "fig2": {
        "instance": {"name": "two_arm", "mu1": 0.5, "mu2": 0.45, "reward": "uniform"},  # + "ratio"
        "algorithms": FIG2_ALGORITHMS,
        "trials": 1000,
        "metric": "success rate: fraction of trials whose recommended arm is arm 1 (index 0)",
        "x": "ratio",
        "ratio": [1, 2, 5, 10, 20, 50, 100],
        "xscale": "log",
        "panels": {
            "a": {"epsilon": 0.1, "budget": 1000},
            "b": {"epsilon": 0.5, "budget": 1000},
            "c": {"epsilon": 1.0, "budget": 1000},
            "d": {"epsilon": 5.0, "budget": 1000},
        },
    },
    "provenance": {
        "fig1.instance": "[CHOICE] d=2, K=30, theta, a_1..a_3, omega interval and instance seed reconstructed; "
        "three hand-set arms plus K-3 random ones [PAPER] (Section 5)",
        "fig1.instance.reward": "[CHOICE] U[0, 2 mu_i]; 'the uniform distribution supported on [.]' [PAPER] "
        "(Section 5)",
        "fig1.algorithms": "[PAPER] (Section 5)",
        "fig1.trials": "[RECON] number lost; 1000 as Appendix E.2 states for Fig. 2",
        "fig1.panels": "[CHOICE] vs budget at epsilon=0.1 and vs epsilon at budget=2000 "
        "(grids lost; 'Figure 1 for varying T and epsilon values respectively' [PAPER], Section 5)",
        "fig1.optional_panels": "[CHOICE] extra panel vs budget at epsilon=1",
        "fig2.instance": "[CHOICE] a_1=(r,0) best, a_2=(0,1), means (0.5, 0.45) (Appendix E.2's values lost)",
        "fig2.instance.reward": "[CHOICE] U[0, 2 mu_i]",
        "fig2.algorithms": "[PAPER] DP-BAI and DP-OD (Appendix E.2)",
        "fig2.trials": "[PAPER] 1000 independent trials (Appendix E.2)",
        "fig2.panels": "[CHOICE] four panels (a)-(d) [PAPER] at epsilon 0.1, 0.5, 1, 5, budget 1000",
        "fig2.ratio": "[CHOICE] ratio grid (x-axis 'ratio' [PAPER], Appendix E.2)",
    },
}


#: Reading axes of the reconstructed instances: {instance name: {instance key: Param}}, the default
#: reading first (docs/reconstructions.md, "Chen et al.: the instances"). A reading sets the key in every
#: panel instance of that name (``dpbandits.pipeline.readings``).
INSTANCE_AXES: dict[str, dict[str, Param]] = {
    "section5": {
        "seed": Param(
            INSTANCE_SEED,
            low=-1,
            readings={
                INSTANCE_SEED: "this project's single draw of the omega_i, fixed for every algorithm and trial; "
                "Section 5 says only that omega_i 'is randomly generated from a uniform distribution'",
                1: "another draw from the same law: with the paper's omega_i lost, any draw is as plausible as the "
                "default one",
            },
            doc="[CHOICE] seed of the one-off draw of omega_4 .. omega_K",
        ),
        "k": Param(
            30,
            low=3,
            readings={
                30: "the reconstruction's K = 30 (low confidence); Section 5 keeps only 'a_i for all i in {4, ..., K}'",
                10: "a smaller K, as consistent with Section 5's surviving text: Baseline spreads its budget over "
                "fewer arms",
                100: "a larger K, as consistent with Section 5's surviving text (d much smaller than K, as in Appendix "
                "B's example with K = 1000)",
            },
            doc="[CHOICE] number of arms K of the Section 5 instance (lost)",
        ),
        "omega_high": Param(
            0.8,
            low=0.0,
            readings={
                0.8: "U[0, 0.8] is close to the widest interval from 0 (omega < 0.81) that keeps every random arm "
                "below arms 2 and 3 (mu_i <= 0.445 < 0.45), as 'arms 2 and 3 exhibit the smallest gaps' "
                "(Section 5) requires",
                0.5: "a narrower interval, as consistent with Section 5's text: the random arms' gaps are then >= 0.2",
            },
            doc="[CHOICE] upper end of the interval of the omega_i (lost)",
        ),
    },
    "two_arm": {
        "mu2": Param(
            0.45,
            low=0.0,
            readings={
                0.45: "gap 0.05, the smallest gap of the Section 5 instance; Appendix E.2's theta and gap are lost",
                0.4: "gap 0.1, as consistent with Appendix E.2's surviving text (theta fixed, only the ratio varies)",
            },
            doc="[CHOICE] mean of the second arm of the Appendix E.2 instance (lost); mu1 = 0.5",
        ),
    },
}
