"""Sparse vector technique and the stopping rules of Sajed's thesis (2019), Chapters 3-4.

* :func:`sparse_vector`: SVT, thesis Algorithm 4 (noise ``Lap(3 sensitivity / epsilon)`` on the threshold,
  drawn once, and on every query).
* :func:`nas`: the non-private stopping rule NAS (Algorithm 3).
* :func:`dp_nas`: DP-NAS (Algorithm 7): an epsilon/2 SVT on the sum query plus an epsilon/2 Laplace release.
* :func:`dp_exp_nas`: DP exponential NAS (Algorithm 8): the same test, made only at t = 2^k.
* :func:`exp_nas_halting_bound` (Theorem 4.1.3) and :func:`stopping_lower_bound` (Theorem 4.2.1).

Streams
-------
A stopping rule reads a *stream* of values in ``[-R, R]``, either

* a callable ``sample(n) -> array_like[n]`` returning the next ``n`` i.i.d. values (the rules ask for blocks
  of values and discard those drawn after the stopping time; for an i.i.d. stream this leaves the law of
  (estimate, stopping time) unchanged), or
* a 1-d array of values (a finite data set, read in order).

A rule returns ``(estimate, t)`` where ``t`` is the stopping time (number of values read until the halt).
If it has not halted after ``max_samples`` values (default: unbounded for a callable, the array's length
for an array) it returns ``(nan, -1)``. With mean 0 the rules never halt, so bound ``max_samples`` then.
"""

from __future__ import annotations

import math
from numbers import Real

import numpy as np

from .noise import laplace_scale

_MAX_BLOCK = 1 << 20  # values read per call of the stream


# ---------------------------------------------------------------------------------------------
# Sparse vector technique


def svt_scales(sensitivity: float, epsilon: float) -> tuple[float, float]:
    """(threshold scale, query scale) of the epsilon-DP SVT: both ``3 sensitivity / epsilon`` (thesis Algorithm 4)."""
    b = 3.0 * laplace_scale(sensitivity, epsilon)
    return b, b


def svt_accuracy(k: int, beta: float, sensitivity: float, epsilon: float) -> float:
    """alpha of Theorem 3.2.2: ``6 sensitivity (ln k + ln(2/beta)) / epsilon``.

    For k queries of which only the last may lie within alpha of the threshold, SVT answers all k
    correctly (halts exactly at a query >= threshold - alpha, never at one < threshold - alpha) with
    probability >= 1 - beta. The theorem is stated for sensitivity 1; scaling by it is exact.
    """
    if isinstance(k, bool) or int(k) != k or k < 1:
        raise ValueError(f"k must be a positive integer, got {k!r}")
    _check_unit("beta", beta)
    return 2.0 * svt_scales(sensitivity, epsilon)[0] * (math.log(k) + math.log(2.0 / beta))


def sparse_vector(queries, threshold: float, sensitivity: float, epsilon: float, rng: np.random.Generator) -> int:
    """Index of the first query answered "above threshold" by the SVT, or -1 if none is.

    Parameters
    ----------
    queries : float[k]      query values q_i(D), each of sensitivity ``sensitivity``
    threshold : float       T; the noisy threshold is T + B with B ~ Lap(3 sensitivity / epsilon), drawn once
    sensitivity : float     Delta q > 0
    epsilon : float         privacy loss > 0
    rng : numpy Generator

    Query i halts the SVT when ``q_i + A_i >= T + B`` with a fresh A_i ~ Lap(3 sensitivity / epsilon).
    The A_i are drawn for all k queries at once; draws after the halt are unused.
    """
    q = np.asarray(queries, dtype=np.float64)
    if q.ndim != 1:
        raise ValueError(f"queries must be a 1-d sequence, got shape {q.shape}")
    if not math.isfinite(threshold):
        raise ValueError(f"threshold must be finite, got {threshold!r}")
    if not sensitivity > 0:
        raise ValueError(f"sensitivity must be > 0, got {sensitivity!r}")
    b_scale, a_scale = svt_scales(sensitivity, _check_epsilon(epsilon))
    noisy_threshold = threshold + rng.laplace(0.0, b_scale)
    hit = q + rng.laplace(0.0, a_scale, size=q.size) >= noisy_threshold
    return int(np.argmax(hit)) if hit.any() else -1


# ---------------------------------------------------------------------------------------------
# Stopping rules


def dp_nas_scales(epsilon: float, R: float) -> tuple[float, float, float]:
    """(sigma1, sigma2, sigma3) = (12R/eps, 12R/eps, 4R/eps) of DP-NAS and DP exponential NAS.

    sigma1, sigma2: epsilon/2 SVT on the sum query (sensitivity 2R); sigma3: epsilon/2 Laplace mechanism
    on the sum (sensitivity 2R), released as a mean as ``L / t``.
    """
    _check_positive("R", R)
    half = _check_epsilon(epsilon) / 2.0
    s1, s2 = svt_scales(2.0 * R, half)
    return s1, s2, laplace_scale(2.0 * R, half)


def nas(stream, alpha: float, beta: float, R: float, *, width: str = "2R", max_samples: int | None = None):
    """NAS (thesis Algorithm 3): stop at the first t with ``|mean_t| >= H_t (1 + 1/alpha)``; return (mean_t, t).

    ``width`` picks the Hoeffding radius: ``"2R"`` (default: the range of [-R, R] is 2R, as DP-NAS's h_t
    has it) ``H_t = R sqrt(2 ln(4t^2/beta)/t)``, valid for values in [-R, R]; ``"R"`` the literal
    ``H_t = R sqrt(ln(4t^2/beta)/(2t))`` of thesis Algorithm 3, valid only for values in a range of width R.
    """
    _check_rule(alpha, beta, R)
    if width not in ("2R", "R"):
        raise ValueError(f"width must be '2R' or 'R', got {width!r}")
    factor = 2.0 if width == "2R" else 0.5

    for t, mean in _Stream(stream, R, max_samples).blocks():
        hit = np.abs(mean) >= R * np.sqrt(factor * np.log(4.0 * t * t / beta) / t) * (1.0 + 1.0 / alpha)
        if hit.any():
            i = int(np.argmax(hit))
            return float(mean[i]), int(t[i])
    return math.nan, -1


def _dp_nas_start(alpha: float, beta: float, epsilon: float, R: float, rng: np.random.Generator):
    """What DP-NAS and DP exponential NAS fix before their first test, inputs checked: (sigma2, sigma3, B, c0),
    B ~ Lap(sigma1) drawn from ``rng`` and c0 = sigma1 ln(4/beta) + (sigma3/alpha) ln(4/beta), the part of c_t that
    t leaves alone (scales from :func:`dp_nas_scales`)."""
    _check_rule(alpha, beta, R, epsilon)
    s1, s2, s3 = dp_nas_scales(epsilon, R)
    b = rng.laplace(0.0, s1)
    return s2, s3, b, s1 * math.log(4.0 / beta) + s3 / alpha * math.log(4.0 / beta)


def dp_nas(
    stream,
    alpha: float,
    beta: float,
    epsilon: float,
    R: float,
    rng: np.random.Generator,
    *,
    max_samples: int | None = None,
):
    """DP-NAS (Sajed & Sheffet 2019 Algorithm 1, thesis Algorithm 7); epsilon-DP (alpha, beta)-stopping rule.

    B ~ Lap(sigma1) once; at every t a fresh A_t ~ Lap(sigma2); halt at the first t with
    ``|mean_t| >= h_t (1 + 1/alpha) + (c_t + B + A_t)/t``, ``h_t = R sqrt((2/t) ln(16 t^2/beta))``,
    ``c_t = sigma1 ln(4/beta) + sigma2 ln(8 t^2/beta) + (sigma3/alpha) ln(4/beta)``; return
    ``(mean_t + L/t, t)`` with L ~ Lap(sigma3). Scales from :func:`dp_nas_scales`.
    """
    s2, s3, b, c0 = _dp_nas_start(alpha, beta, epsilon, R, rng)
    for t, mean in _Stream(stream, R, max_samples).blocks():
        a = rng.laplace(0.0, s2, size=t.size)
        h = R * np.sqrt(2.0 / t * np.log(16.0 * t * t / beta))
        c = c0 + s2 * np.log(8.0 * t * t / beta)
        hit = np.abs(mean) >= h * (1.0 + 1.0 / alpha) + (c + b + a) / t
        if hit.any():
            i = int(np.argmax(hit))
            return float(mean[i] + rng.laplace(0.0, s3) / t[i]), int(t[i])
    return math.nan, -1


def dp_exp_nas(
    stream,
    alpha: float,
    beta: float,
    epsilon: float,
    R: float,
    rng: np.random.Generator,
    *,
    max_samples: int | None = None,
):
    """DP exponential NAS (Sajed & Sheffet 2019 Algorithm 2, thesis Algorithm 8): the DP-NAS test at t = 2^k, k >= 1.

    At t = 2^k: A_t ~ Lap(sigma2), ``h_t = R sqrt((2/t) ln(16 k^2/beta))``,
    ``c_t = sigma1 ln(4/beta) + sigma2 ln(8 k^2/beta) + (sigma3/alpha) ln(4/beta)``; halt on
    ``|mean_t| >= h_t (1 + 1/alpha) + (c_t + B + A_t)/t`` and return ``(mean_t + L/t, t)``, L ~ Lap(sigma3).
    """
    s2, s3, b, c0 = _dp_nas_start(alpha, beta, epsilon, R, rng)
    src = _Stream(stream, R, max_samples)
    k = 0
    while True:
        k += 1
        t = 1 << k
        if not src.advance_to(t):
            return math.nan, -1
        mean = src.total / t
        a = rng.laplace(0.0, s2)
        h = R * math.sqrt(2.0 / t * math.log(16.0 * k * k / beta))
        c = c0 + s2 * math.log(8.0 * k * k / beta)
        if abs(mean) >= h * (1.0 + 1.0 / alpha) + (c + b + a) / t:
            return mean + rng.laplace(0.0, s3) / t, t


# ---------------------------------------------------------------------------------------------
# Sample-complexity bounds


def exp_nas_halting_bound(alpha: float, beta: float, epsilon: float, mu: float, R: float) -> float:
    """t_U = 2000 (t0 + t1 + t2) of thesis Theorem 4.1.3 (Sajed & Sheffet 2019 Theorem 3.3): DP exponential NAS
    halts by t_U w.p. >= 1-beta.

    t0 = R^2 ln((1/beta) ln(R/(alpha|mu|))) / (alpha mu)^2,
    t1 = R ln((1/beta) ln(R/(alpha|mu|))) / (eps |mu|),  t2 = R ln(1/beta) / (eps alpha |mu|).
    The theorem needs beta <= 0.08 and 0 < |mu| <= R.
    """
    _check_rule(alpha, beta, R, epsilon)
    if not beta <= 0.08:
        raise ValueError(f"beta must be <= 0.08 for Theorem 4.1.3, got {beta!r}")
    if not 0 < abs(mu) <= R:
        raise ValueError(f"mu must satisfy 0 < |mu| <= R, got mu={mu!r}")
    m = abs(mu)
    loglog = math.log(math.log(R / (alpha * m)) / beta)
    t0 = R * R * loglog / (alpha * m) ** 2
    t1 = R * loglog / (epsilon * m)
    t2 = R * math.log(1.0 / beta) / (epsilon * alpha * m)
    return 2000.0 * (t0 + t1 + t2)


def stopping_lower_bound(alpha: float, beta: float, epsilon: float, mu: float, R: float) -> float:
    """n = R ln(1/beta) / (12 alpha |mu| eps) of thesis Theorem 4.2.1 (Sajed & Sheffet 2019 Theorem 3.4).

    On the two-point distribution over {-R, R} with mean mu, every epsilon-DP (alpha, beta)-stopping rule
    (alpha < 1, beta < 1/4) reads more than n samples with probability > 1/4.
    """
    _check_rule(alpha, beta, R, epsilon)
    if not beta < 0.25:
        raise ValueError(f"beta must be < 1/4 for Theorem 4.2.1, got {beta!r}")
    if not 0 < abs(mu) <= R:
        raise ValueError(f"mu must satisfy 0 < |mu| <= R, got mu={mu!r}")
    return R * math.log(1.0 / beta) / (12.0 * alpha * abs(mu) * epsilon)


# ---------------------------------------------------------------------------------------------
# Helpers


class _Stream:
    """Reads a stream (callable ``sample(n)`` or 1-d array) in blocks, checking values lie in [-R, R]."""

    def __init__(self, stream, R: float, max_samples: int | None):
        if callable(stream):
            self._sample, limit = stream, None
        else:
            data = np.asarray(stream, dtype=np.float64)
            if data.ndim != 1:
                raise ValueError(f"stream must be a callable sample(n) or a 1-d array, got {data.shape}")
            self._sample, limit = None, data.size
            self._data = data
        if max_samples is not None:
            if isinstance(max_samples, bool) or int(max_samples) != max_samples or max_samples < 1:
                raise ValueError(f"max_samples must be a positive integer, got {max_samples!r}")
            limit = int(max_samples) if limit is None else min(limit, int(max_samples))
        self.R, self.limit, self.t, self.total = R, limit, 0, 0.0

    def take(self, n: int) -> np.ndarray:
        """The next ``min(n, values left)`` values as float64 (empty when the stream is exhausted)."""
        if self.limit is not None:
            n = min(n, self.limit - self.t)
        if n <= 0:
            return np.empty(0)
        if self._sample is None:
            x = self._data[self.t : self.t + n]
        else:
            x = np.asarray(self._sample(n), dtype=np.float64)
            if x.shape != (n,):
                raise ValueError(f"stream sample({n}) returned shape {x.shape}, expected ({n},)")
        if not np.all(np.abs(x) <= self.R):
            raise ValueError(f"stream values must lie in [-R, R] = [{-self.R}, {self.R}]")
        self.t += n
        return x

    def blocks(self, first: int = 256):
        """Yield (t float64[n] (integer-valued), running mean float64[n]) over blocks of doubling size."""
        size = first
        while True:
            t0, s0 = self.t, self.total
            x = self.take(size)
            if x.size == 0:
                return
            sums = s0 + np.cumsum(x)
            self.total = float(sums[-1])
            t = np.arange(t0 + 1, t0 + x.size + 1, dtype=np.float64)
            yield t, sums / t
            size = min(2 * size, _MAX_BLOCK)

    def advance_to(self, t: int) -> bool:
        """Read values until ``t`` have been read; False if the stream ends first."""
        while self.t < t:
            x = self.take(min(t - self.t, _MAX_BLOCK))
            if x.size == 0:
                return False
            self.total += float(np.sum(x))
        return True


def _is_real(value) -> bool:
    return isinstance(value, Real) and not isinstance(value, bool)


def _check_epsilon(epsilon) -> float:
    if not _is_real(epsilon) or not 0 < epsilon < math.inf:
        raise ValueError(f"epsilon must be > 0, got {epsilon!r}")
    return float(epsilon)


def _check_positive(name: str, value) -> None:
    if not _is_real(value) or not 0 < value < math.inf:
        raise ValueError(f"{name} must be a positive number, got {value!r}")


def _check_unit(name: str, value) -> None:
    if not _is_real(value) or not 0 < value < 1:
        raise ValueError(f"{name} must lie in (0, 1), got {value!r}")


def _check_rule(alpha, beta, R, epsilon=None) -> None:
    _check_unit("alpha", alpha)
    _check_unit("beta", beta)
    _check_positive("R", R)
    if epsilon is not None:
        _check_epsilon(epsilon)
