"""Exact worst-case privacy loss of linear Laplace continual counters (no sampling)."""

from __future__ import annotations

import numpy as np


class _ScriptedLaplace:
    """Generator stand-in: ``laplace`` returns loc + a scripted value (default 0), recording scales."""

    def __init__(self, values: dict):
        self.values, self.scales = values, []

    def laplace(self, loc=0.0, scale=1.0, size=None):
        if size not in (None, ()):
            raise ValueError("scripted Laplace draws are scalar")
        self.scales.append(float(scale))
        return loc + self.values.get(len(self.scales) - 1, 0.0)


def counter_loss(make_counter, n: int, atol: float = 1e-9) -> np.ndarray:
    """Exact worst-case privacy loss of a Laplace continual counter, per input item.

    The counter's releases must be linear in (data, Laplace draws): y = A x + B eta, with a noise
    process (number and scales b_i of the draws) that does not depend on the data. Changing item j by
    1 is absorbed by the noise shift z = B^+ A e_j (exactly, else the supports differ and the loss is
    infinite), so the supremum over outputs of the log density ratio is sum_i |z_i| / b_i.

    Parameters
    ----------
    make_counter : callable(rng) -> object with ``insert(x) -> release`` (one release per insertion)
    n : int                stream length
    atol : float           tolerance of the linearity and exactness checks

    Returns
    -------
    float64[n]: loss of the whole release sequence when item j (0-based) changes by 1.
    """

    def releases(x, noise):
        rng = _ScriptedLaplace(noise)
        counter = make_counter(rng)
        return np.array([counter.insert(float(v)) for v in x]), rng.scales

    y0, scales = releases(np.zeros(n), {})
    m = len(scales)
    a = np.empty((n, n))
    for j in range(n):
        y, sc = releases(np.eye(n)[j], {})
        if sc != scales:
            raise ValueError("the counter's noise process depends on the data")
        a[:, j] = y - y0
    b = np.empty((n, m))
    for i in range(m):
        b[:, i] = releases(np.zeros(n), {i: 1.0})[0] - y0
    rng = np.random.default_rng(0)
    x, eta = rng.random(n), rng.laplace(size=m)
    if not np.allclose(releases(x, dict(enumerate(eta)))[0], y0 + a @ x + b @ eta, atol=atol):
        raise ValueError("the counter's releases are not linear in (data, noise)")
    if np.linalg.matrix_rank(b) < m:
        raise ValueError("the releases do not determine the noise draws")
    z = np.linalg.lstsq(b, a, rcond=None)[0]  # shift of each draw absorbing each item
    exact = np.all(np.abs(b @ z - a) <= atol, axis=0)
    return np.where(exact, (np.abs(z) / np.asarray(scales)[:, None]).sum(axis=0), np.inf)
