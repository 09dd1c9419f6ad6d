"""Privacy mechanisms: Laplace and Gaussian noise (and under-noised generators), continual-release counters,
sparse vector.

Two forms of each counter live here:

* plain Python classes (``LogarithmicCounter``, ``BinaryTreeCounter``, ``HybridCounter``) that
  follow the papers' pseudocode literally (alpha / alpha-hat node arrays). The reference twins and
  the tests use them.
* numba helpers (``tree_noise_insert``, ``hybrid_noise_insert``) used by the fast kernels. They
  track only the noise part of a release (release = true running sum + noise), incrementally in
  O(1) amortised time; the noise process depends only on the insertion count and the Laplace draws.
"""

from __future__ import annotations

import math

import numpy as np

from ..core.jit import helper

# ---------------------------------------------------------------------------------------------
# Laplace / Gaussian mechanisms


def laplace_scale(sensitivity: float, epsilon: float) -> float:
    """Scale b = sensitivity / epsilon of the epsilon-DP Laplace mechanism."""
    if epsilon <= 0:
        raise ValueError(f"epsilon must be > 0, got {epsilon}")
    if sensitivity < 0:
        raise ValueError(f"sensitivity must be >= 0, got {sensitivity}")
    return sensitivity / epsilon


def laplace_mechanism(value, sensitivity: float, epsilon: float, rng: np.random.Generator):
    """``value`` + Lap(sensitivity / epsilon) noise (elementwise for arrays)."""
    b = laplace_scale(sensitivity, epsilon)
    return value + rng.laplace(0.0, b, size=np.shape(value))


def laplace_logpdf(x, b: float):
    """Log density of Lap(b) at ``x``."""
    return -np.abs(x) / b - math.log(2.0 * b)


def gaussian_sigma(sensitivity: float, epsilon: float, delta: float) -> float:
    """Classical (epsilon, delta)-DP Gaussian mechanism sigma = sqrt(2 ln(1.25/delta)) * Delta / eps.

    Valid for epsilon < 1 (Dwork & Roth Thm A.1).
    """
    if epsilon <= 0 or not 0 < delta < 1:
        raise ValueError(f"need epsilon > 0 and 0 < delta < 1, got epsilon={epsilon}, delta={delta}")
    return math.sqrt(2.0 * math.log(1.25 / delta)) * sensitivity / epsilon


class ScaledNoise:
    """Proxy of a ``numpy.random.Generator`` whose noise scales are multiplied by ``factor``.

    ``methods`` (default ``("laplace",)``) take ``(loc, scale, size)``; their scale is multiplied.
    Every other attribute is the wrapped generator's. Used to build under-noised controls (the privacy audit,
    :mod:`dpbandits.audit`, and the reference twins' ``noise_factor``).
    """

    def __init__(self, rng: np.random.Generator, factor: float, methods=("laplace",)):
        if not factor > 0:
            raise ValueError(f"noise_factor must be > 0, got {factor}")
        self._rng = rng
        for name in methods:
            setattr(self, name, self._scaled(getattr(rng, name), float(factor)))

    @staticmethod
    def _scaled(method, factor):
        def scaled(loc=0.0, scale=1.0, size=None):
            return method(loc, np.multiply(scale, factor), size)

        return scaled

    def __getattr__(self, name):
        return getattr(self._rng, name)


def ctz(n: int) -> int:
    """Number of trailing zero bits of n >= 1."""
    return (n & -n).bit_length() - 1


def tree_levels(horizon: int) -> int:
    """Levels L = ceil(log2 T) + 1 of Sajed's tree mechanism (27 for T = 5e7)."""
    return math.ceil(math.log2(horizon)) + 1


def tree_bits(horizon: int) -> int:
    """Bits D = floor(log2 T) + 1 needed to write T (Chan-Shi-Song binary mechanism)."""
    return int(horizon).bit_length()


# ---------------------------------------------------------------------------------------------
# Literal counters (reference)


class LogarithmicCounter:
    """Chan-Shi-Song logarithmic mechanism: at tau = 2^k add Lap(scale) to the running sum."""

    def __init__(self, scale: float, rng: np.random.Generator):
        self.scale, self.rng = scale, rng
        self.tau, self.beta, self.release = 0, 0.0, 0.0

    def insert(self, x: float) -> float:
        self.tau += 1
        self.beta += x
        if self.tau & (self.tau - 1) == 0:
            self.beta += self.rng.laplace(0.0, self.scale)
            self.release = self.beta
        return self.release


class BinaryTreeCounter:
    """Binary (tree) mechanism with per-node noise Lap(scale); release after every insertion.

    Node sums ``alpha[i]`` and noisy copies ``alpha_hat[i]`` follow Chan-Shi-Song literally; the
    release is the sum of ``alpha_hat`` over the set bits of the insertion count.
    """

    def __init__(self, scale: float, rng: np.random.Generator, levels: int = 64):
        self.scale, self.rng = scale, rng
        self.tau = 0
        self.alpha = [0.0] * levels
        self.alpha_hat = [0.0] * levels

    def insert(self, x: float) -> float:
        self.tau += 1
        i = ctz(self.tau)
        self.alpha[i] = sum(self.alpha[:i]) + x
        for j in range(i):
            self.alpha[j] = self.alpha_hat[j] = 0.0
        self.alpha_hat[i] = self.alpha[i] + self.rng.laplace(0.0, self.scale)
        return sum(self.alpha_hat[j] for j in range(len(self.alpha)) if (self.tau >> j) & 1)


class HybridCounter:
    """Chan-Shi-Song hybrid mechanism (unbounded horizon).

    At tau = 2^k the logarithmic part adds Lap(log_scale) to its running sum; items
    2^k+1 .. 2^(k+1)-1 go to a fresh binary tree with node noise Lap(k * node_scale).
    With ``split="half"``: log_scale = 2/eps, node_scale = 2/eps (each part eps/2-DP);
    ``split="none"``: 1/eps and 1/eps (the paper's literal prose, only 2eps-DP).
    """

    def __init__(self, epsilon: float, rng: np.random.Generator, split: str = "half"):
        factor = {"half": 2.0, "none": 1.0}[split]
        self.log_scale = factor / epsilon
        self.node_scale = factor / epsilon
        self.rng = rng
        self.tau, self.beta, self.lcur, self.k = 0, 0.0, 0.0, 0
        self.tree: BinaryTreeCounter | None = None

    def insert(self, x: float) -> float:
        self.tau += 1
        self.beta += x
        if self.tau & (self.tau - 1) == 0:
            self.beta += self.rng.laplace(0.0, self.log_scale)
            self.lcur = self.beta
            self.k = self.tau.bit_length() - 1
            self.tree = BinaryTreeCounter(self.k * self.node_scale, self.rng)
            return self.lcur
        return self.lcur + self.tree.insert(x)


def hybrid_noise_variance(tau: int, epsilon: float, split: str = "half") -> float:
    """Variance of (release - true sum) of ``HybridCounter`` after ``tau`` insertions."""
    f = {"half": 2.0, "none": 1.0}[split]
    k = tau.bit_length() - 1
    tp = tau - (1 << k)
    return 2 * (f / epsilon) ** 2 * (k + 1) + bin(tp).count("1") * 2 * (k * f / epsilon) ** 2


# ---------------------------------------------------------------------------------------------
# Incremental noise-only counters (fast kernels)


@helper
def ctz_nb(n):
    """Trailing zeros of n >= 1 (numba)."""
    i = 0
    while (n & 1) == 0:
        n >>= 1
        i += 1
    return i


@helper
def tree_noise_insert(nodes, z, n, scale, rng):
    """Advance a binary-tree counter's noise to insertion ``n`` (1-based); return the new noise.

    ``nodes[j]`` holds the Laplace noise of the open node at level j; ``z`` is the current noise
    (sum of ``nodes`` over the set bits of n-1). Insertion n completes the node at level ctz(n) and
    closes levels below it. Exactly one Lap(scale) draw.
    """
    i = ctz_nb(n)
    for j in range(i):
        z -= nodes[j]
        nodes[j] = 0.0
    eta = rng.laplace(0.0, scale)
    nodes[i] = eta
    return z + eta


@helper
def hybrid_noise_insert(nodes, state, tau, log_scale, node_scale, rng):
    """Advance a hybrid counter's noise to insertion ``tau`` (1-based); return the release noise.

    ``state = [log_noise, tree_noise]``: accumulated logarithmic-part noise and the current binary
    tree noise. ``nodes`` are the tree's open node noises. One Laplace draw per insertion.
    """
    if (tau & (tau - 1)) == 0:
        state[0] += rng.laplace(0.0, log_scale)
        state[1] = 0.0
        for j in range(nodes.size):
            nodes[j] = 0.0
        return state[0]
    k = 63
    while (tau >> k) == 0:
        k -= 1
    tp = tau - (1 << k)
    state[1] = tree_noise_insert(nodes, state[1], tp, k * node_scale, rng)
    return state[0] + state[1]
