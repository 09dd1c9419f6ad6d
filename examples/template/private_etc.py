"""A complete minimal plugin to copy: private explore-then-commit (README, "Bring your own algorithm").

Pull each of the K arms m times in turn, then release every arm's reward sum plus Laplace(1 / epsilon) noise
once and commit to the largest. One reward enters one sum (by at most 1), so the release is epsilon-DP.

Load it without installing anything (paths are relative to the working directory):

    DPBANDITS_PLUGINS=examples/template/private_etc.py:ALGORITHM pytest tests/test_contract.py -k private_etc
    DPBANDITS_PLUGINS=examples/template/private_etc.py:ALGORITHM dpbandits privacy private_etc
"""

from dpbandits.core.registry import Algorithm, Audit, Contract, Param, Setting
from dpbandits.mechanisms.ledger import LAPLACE, next_draw, note
from dpbandits.plugins import per_step, per_step_releases


class PrivateETC:
    """The per-step policy, which is also the reference twin that the contract and the privacy audit run.

    The framework builds it as ``PrivateETC(k, horizon, epsilon, rng, params)``: K arms, the horizon T,
    epsilon, the run's ``numpy.random.Generator`` and the resolved parameters (``{"m": 5}``). It then calls
    ``select(t)`` for t = 1, ..., T and ``update(arm, reward)`` after each pull.
    """

    book = None  # a release book while dpbandits.privacy records the run's releases (per_step_releases)

    def __init__(self, k, horizon, epsilon, rng, params):
        self.k, self.m, self.epsilon, self.rng = k, params["m"], epsilon, rng
        self.sums = [0.0] * k
        self.best = None

    def select(self, t):
        """The arm (0-based) pulled at step t (1-based)."""
        if t <= self.k * self.m:
            return (t - 1) % self.k
        if self.best is None:
            # All noise comes from self.rng.laplace: the audit's under-noised control scales exactly these
            # draws (Audit.noise names the Generator methods it scales), and seeding stays reproducible.
            noisy = []
            for a, s in enumerate(self.sums):
                noise = self.rng.laplace(0.0, 1.0 / self.epsilon)
                noisy.append(s + noise)
                if self.book is not None:  # the release: arm a's rewards 1..m, weight 1, scale 1/epsilon
                    note(self.book, LAPLACE, a, 1, self.m, 1.0, 1.0 / self.epsilon, next_draw(self.book), noise)
            self.best = max(range(self.k), key=noisy.__getitem__)
        return self.best

    def update(self, arm, reward):
        """``reward`` is 0.0 or 1.0: per_step and dpbandits.reference.simulate draw Bernoulli(means[arm])."""
        self.sums[arm] += reward


def audit_plan(epsilon, params):
    """Audit horizon on K = 2 arms: the 2 m exploration pulls plus the commit, the first noisy release.

    A horizon that ends before the release audits nothing (every run gives the same actions); the audit
    says so. None as candidates: dpbandits.core.audit_tables.generic_candidates, which flip one of the first
    rewards of a zero or one table.
    """
    return 2 * params["m"] + 1, None


ALGORITHM = Algorithm(
    name="private_etc",
    kind="regret",
    label="Private ETC",
    private=True,
    run=per_step(PrivateETC),  # plain Python, one pull at a time; a numba kernel is the fast alternative
    reference=PrivateETC,
    releases=per_step_releases(PrivateETC),  # every release noted, so `dpbandits privacy` can add them up
    params={"m": Param(5, low=0, doc="pulls of each arm before the noisy commit")},
    audit=Audit(params={"m": 2}, plan=audit_plan),
    needs_horizon=False,
    cost_ns=2000,
    # the contract's cases: with m = 5 and epsilon <= 0.2 the Laplace noise (scale >= 5) decides the commit,
    # so the contract's power control (the twin at half the noise) is told apart
    contract=Contract(
        bernoulli=Setting((0.9, 0.1), 100, 0.2),
        deterministic=Setting((1.0, 0.0), 100, 0.2),
        params={"m": 5},
        runs=600,
        fast_runs=2000,
    ),
    doc="Explore m pulls per arm, then commit to the arm with the largest Laplace-noised reward sum.",
)
