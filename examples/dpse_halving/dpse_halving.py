"""DP-SE with epochs half as long: an example plugin algorithm for dpbandits (README, "Bring your own algorithm").

DP-SE (Sajed & Sheffet 2019, Algorithm 3) runs epoch e for R_e rounds; this variant runs R_e / 2 and
widens its elimination threshold to match (h_e and c_e are computed from the shorter epoch). Each epoch
still releases Laplace means of fresh rewards, so it stays epsilon-DP.
"""

import math

from dpbandits import ALGORITHMS
from dpbandits.bandits._params import resolve_beta
from dpbandits.bandits.dp_se import epoch_schedule
from dpbandits.core.audit_tables import threshold_candidates
from dpbandits.core.registry import Algorithm, Audit, Contract, Setting
from dpbandits.mechanisms.ledger import LAPLACE, next_draw, note
from dpbandits.plugins import per_step, per_step_releases
from dpbandits.reference.sajed import DPSE


class _Tap:
    """The run's generator, keeping (scale, noise) of each Laplace draw in ``drawn``."""

    def __init__(self, rng, drawn):
        self._rng, self.drawn = rng, drawn

    def laplace(self, loc, scale):
        noise = self._rng.laplace(loc, scale)
        self.drawn.append((scale, noise - loc))
        return noise


class HalvingDPSE(DPSE):
    """DP-SE whose epoch e runs R_e / 2 rounds."""

    book = None  # a release book while dpbandits.privacy records the run's releases (per_step_releases)

    def new_epoch(self):
        super().new_epoch()
        self.R /= 2

    def update(self, a, reward):
        self.pulls = getattr(self, "pulls", {})
        self.pulls[a] = self.pulls.get(a, 0) + 1
        super().update(a, reward)

    def eliminate(self):
        """DP-SE's elimination; with a release book, arm a's noisy mean is noted as reading its r rewards of the
        epoch (weight 1/r), the scale and noise of its draw as drawn."""
        if self.book is None:
            return super().eliminate()
        arms, r, drawn, rng = list(self.S), self.r, [], self.rng
        self.rng = _Tap(rng, drawn)
        try:
            super().eliminate()
        finally:
            self.rng = rng
        for a, (scale, noise) in zip(arms, drawn, strict=True):
            n = self.pulls[a]
            note(self.book, LAPLACE, a, n - r + 1, n, 1.0 / r, scale, next_draw(self.book), noise)


def audit_plan(epsilon, params):
    """Privacy audit tables (dpbandits.audit): arm 0's count at the first elimination's threshold."""
    big_r, _, h, c = epoch_schedule(2, 1, epsilon, resolve_beta(params["beta"], 2))
    n = math.ceil(big_r / 2)  # halving R multiplies h by sqrt(2) and c by 2
    return 2 * n + 2, threshold_candidates(2, 2 * n + 2, n, math.ceil((2 * math.sqrt(2) * h + 4 * c) * n))


ALGORITHM = Algorithm(
    name="dpse_halving",
    kind="regret",
    label="DP-SE (half epochs)",
    private=True,
    run=per_step(HalvingDPSE),
    reference=HalvingDPSE,
    releases=per_step_releases(HalvingDPSE),
    params=dict(ALGORITHMS["dp_se"].params),
    audit=Audit(params={"beta": 0.9}, plan=audit_plan),
    needs_horizon=True,
    cost_ns=2000,
    # the contract's instance: the first elimination (after 195 rounds at beta = 0.9) of a 0.5 gap is decided
    # by the release noise; with rewards 0 or 1 the noise decides nothing
    contract=Contract(
        bernoulli=Setting((1.0, 0.5), 500, 0.09), deterministic=None, params={"beta": 0.9}, runs=2000, fast_runs=4000
    ),
    doc="DP-SE (Sajed & Sheffet 2019, Algorithm 3) with epochs of R_e / 2 rounds.",
)
