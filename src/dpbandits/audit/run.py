"""Every private algorithm's audit with its under-noised controls and power rows (:func:`audit_all`), and
what such a table gets wrong (:func:`failed_checks`).

Control: :class:`dpbandits.mechanisms.noise.ScaledNoise` hands the policy a generator whose ``laplace`` scale
(``Audit.noise``: ``normal`` for Gaussian-mechanism algorithms) is multiplied by ``noise_factor``.
Halving the noise (factor 0.5) is *not* a violation for several algorithms on these tiny instances:
their accounting is loose there (e.g. the hybrid counter's first release is only epsilon/2-DP,
DP-UCB-INT's first interval release ~0.22-DP at epsilon = 1), so a sound audit must pass it. The power
rows of :func:`audit_all` measure which factors the audit does flag.
``CONTROL_NOISE_FACTOR = 0.02`` makes the first data-dependent release almost deterministic in the
flipped reward, so the true loss is several times epsilon = 1. Power at the default ``trials`` and
epsilon = 1 (seeds 100-119): the control's lower bound was >= 4.0 in 80/80 audits of dp_ucb_bound,
dp_ucb_tossou, dp_ucb_int and private_ucb (real algorithms, seeds 100-109: <= 0.21).
"""

from __future__ import annotations

import time
from dataclasses import asdict

import pandas as pd

from .loss import DEFAULT_ALPHA, DEFAULT_TRIALS, audit_algorithm
from .runners import default_algorithms, lookup

CONTROL_NOISE_FACTOR = 0.02
POWER_FACTORS = (0.1, 0.25, 0.5)  # tried after the control while flagged: the audit's power


def audit_all(
    algorithms=None,
    epsilon: float = 1.0,
    trials: int = DEFAULT_TRIALS,
    seed: int = 0,
    controls: bool = True,
    control_factor: float = CONTROL_NOISE_FACTOR,
    alpha: float = DEFAULT_ALPHA,
    power_factors=POWER_FACTORS,
    kernels: bool = True,
) -> pd.DataFrame:
    """Audit ``algorithms`` (default :func:`default_algorithms`) with their under-noised controls and power.

    Per algorithm, at its ``Audit.epsilon`` where set (else ``epsilon``), on the same ``seed``:

    - ``real`` and ``control`` (noise times ``control_factor``) rows of the twin (engine ``twin``) and, with
      ``kernels``, of the fast kernel where it declares ``replay`` (engine ``kernel``), and a ``real`` row of
      every private regret kernel's own ``run`` (engine ``fast``; its noise cannot be scaled, so no control);
    - ``power`` rows of the twin (private algorithms): ``power_factors`` (ascending, between
      ``control_factor`` and 1) in turn while the previous factor was flagged; the first factor not flagged
      ends the sequence (detection is taken to fall as the noise grows).

    Returns a DataFrame with one row per audit: the :class:`AuditResult` fields plus ``variant``, ``role``
    (real, control, power) and ``seconds`` (wall time of that audit).
    """
    factors = [float(f) for f in power_factors]
    if factors != sorted(factors) or any(not control_factor < f < 1 for f in factors):
        raise ValueError(
            f"power_factors must ascend strictly between control_factor={control_factor:g} and 1, "
            f"got {list(power_factors)}"
        )
    names = default_algorithms() if algorithms is None else list(algorithms)
    rows = []

    def run(name, eps, factor, role, engine):
        start = time.perf_counter()
        r = audit_algorithm(name, eps, trials, seed, factor, alpha=alpha, engine=engine)
        rows.append(
            {
                **asdict(r),
                "variant": r.variant,
                "role": role,
                "params": repr(r.params),
                "seconds": time.perf_counter() - start,
            }
        )
        return r.verdict == "violation"

    for name in names:
        alg = lookup(name)
        eps = epsilon if alg.audit.epsilon is None else alg.audit.epsilon
        engines = ["twin", "kernel"] if kernels and alg.replay is not None else ["twin"]
        engines += ["fast"] if kernels and alg.private and alg.kind == "regret" else []
        for engine in engines:
            run(name, eps, 1.0, "real", engine)
            flagged = (
                controls and alg.private and engine != "fast" and run(name, eps, control_factor, "control", engine)
            )
            for factor in factors if engine == "twin" else []:
                if not flagged:
                    break
                flagged = run(name, eps, factor, "power", engine)
    return pd.DataFrame(rows)


def failed_checks(df: pd.DataFrame) -> list[str]:
    """What an audit table gets wrong: a real row flagged, or a control not flagged whose plan expects it."""
    bad = [
        f"{r.algorithm} ({r.engine}): real audit flagged, loss >= {r.loss_lower:.3g} > epsilon {r.epsilon:g}"
        for r in df[(df["role"] == "real") & (df["verdict"] == "violation")].itertuples()
    ]
    for r in df[(df["role"] == "control") & (df["verdict"] != "violation")].itertuples():
        if not lookup(r.algorithm).audit.control:  # a plan that states why its control cannot be flagged
            bad.append(f"{r.algorithm} ({r.engine}): control with noise x{r.noise_factor:g} not flagged")
    return bad
