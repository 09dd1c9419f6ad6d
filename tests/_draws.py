"""The reference runner's draws, recorded in order, for the pull-for-pull replay tests."""

import dpbandits


class Recorder:
    """Generator stand-in for the reference runner: forwards every draw to ``rng`` and records it.

    ``laplace(loc, scale)`` draws rng.laplace(0, 1) and returns loc + scale * z, the same number as
    rng.laplace(loc, scale) for loc = 0 (numpy: loc -/+ scale * log(...)), and records z; ``integers``
    records the pick relative to ``low``.
    """

    def __init__(self, rng):
        self.rng, self.u, self.eta, self.picks = rng, [], [], []

    def random(self):
        self.u.append(self.rng.random())
        return self.u[-1]

    def laplace(self, loc=0.0, scale=1.0):
        self.eta.append(self.rng.laplace(0.0, 1.0))
        return loc + scale * self.eta[-1]

    def integers(self, low, high):
        self.picks.append(int(self.rng.integers(low, high)) - low)
        return low + self.picks[-1]


def recorded_reference(monkeypatch, algorithm, means, horizon, eps, runs, ckpts, params):
    """The reference run with each run's Generator wrapped in a :class:`Recorder`: (result, recorders).

    Recording changes nothing: the result equals the plain reference run's (checked here).
    """
    recorders = []
    real = dpbandits.reference.run_generator

    def recording(*args):
        recorders.append(Recorder(real(*args)))
        return recorders[-1]

    with monkeypatch.context() as m:
        m.setattr(dpbandits.reference, "run_generator", recording)
        ref = dpbandits.reference.simulate(algorithm, means, horizon, eps, runs, seed=11, checkpoints=ckpts, **params)
    plain = dpbandits.reference.simulate(algorithm, means, horizon, eps, runs, seed=11, checkpoints=ckpts, **params)
    assert (ref.pulls == plain.pulls).all() and (ref.reward_sum == plain.reward_sum).all()
    return ref, recorders
