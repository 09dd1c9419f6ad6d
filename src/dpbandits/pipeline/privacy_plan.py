"""Where the pipeline accounts each paper's privacy: one setting per (reading, private algorithm).

For every private regret algorithm a paper's figures draw, under the default and under each reading that changes
its parameters, the setting is the configuration with the largest horizon (ties: the first drawn, the paper's own
figures before its privacy-utility frontier). An (epsilon, delta) algorithm, whose spending changes with epsilon,
is accounted at every epsilon its curves use; a pure or local one, whose noise scales are proportional to
1/epsilon, at the smallest. ``dpbandits.privacy.spent`` then replays one run of each and composes its releases
(``results/privacy/<paper>.csv``, read by the claims ledger beside each reading's verdicts). BAI algorithms spend
the same per sample at every budget (phases on fresh samples); they are accounted at the contract's setting by
``tests/test_contract.py`` and ``dpbandits privacy``.
"""

from __future__ import annotations

from ..core import registry
from ..core.instances import means_for
from .catalogue.model import Figure, SimSpec, is_diagnostic

DEFAULT = "default"


def settings(figures: dict[str, Figure], sims: dict[str, SimSpec], reading: str = DEFAULT, params=None) -> list[dict]:
    """[{reading, algorithm, params, means, horizon, epsilon}] of the private regret algorithms of ``figures``
    (one paper's, under ``reading``); ``params(algorithm) -> dict`` says which parameters the reading sets (None:
    the default reading), and an algorithm whose parameters it does not set is left out."""
    chosen: dict[str, SimSpec] = {}
    drawn: dict[str, set] = {}  # cid -> the epsilons the curves of these figures draw from it
    for name, fig in sorted(figures.items(), key=lambda item: item[1].frontier):  # the paper's own figures first
        if is_diagnostic(name):
            continue
        for panel in fig.panels:
            for curve in panel.curves:
                spec = sims[curve.cid]
                alg = registry.ALGORITHMS[spec.algorithm]
                if spec.kind != "regret" or not alg.private or (params is not None and not params(spec.algorithm)):
                    continue
                drawn.setdefault(curve.cid, set()).update(curve.x or [curve.epsilon])
                best = chosen.get(spec.algorithm)
                if best is None or spec.horizon > best.horizon:
                    chosen[spec.algorithm] = spec
    out = []
    for spec in chosen.values():
        eps = sorted(drawn[spec.cid])
        for epsilon in eps if registry.ALGORITHMS[spec.algorithm].privacy == "approx" else eps[:1]:
            means = means_for(spec.instance).tolist()
            out.append(
                {
                    "reading": reading,
                    "algorithm": spec.algorithm,
                    "params": dict(spec.params),
                    "means": means,
                    "horizon": int(spec.horizon),
                    "epsilon": float(epsilon),
                }
            )
    return out
