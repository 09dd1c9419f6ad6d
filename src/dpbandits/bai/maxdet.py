"""Max-Det collections (Definition 3.1 of Chen et al. 2024) and their coefficients.

For rows x_1..x_n spanning R^d, a Max-Det collection is a d-subset B maximising |det X_B|. Every
row then satisfies x_i = sum_b beta_{i,b} x_b with |beta_{i,b}| <= 1 (Cramer's rule); any B that no
single swap improves has the same property, which is all DP-BAI's analysis needs.
"""

from __future__ import annotations

import itertools
import math

import numpy as np

EXHAUSTIVE_LIMIT = 200_000
SWAP_TOL = 1e-9
TIE_RTOL = 1e-12
_CHUNK = 20_000


def maxdet_exhaustive(x: np.ndarray) -> np.ndarray:
    """Exact Max-Det collection of the rows of ``x`` (float[n, d], rank d): int64[d], sorted.

    Enumerates all C(n, d) subsets (batched ``slogdet``); ties within relative 1e-12 go to the
    lexicographically smallest index tuple.
    """
    x = np.asarray(x, dtype=np.float64)
    n, d = x.shape
    combos = itertools.combinations(range(n), d)
    parts = []
    while block := list(itertools.islice(combos, _CHUNK)):
        sign, logdet = np.linalg.slogdet(x[np.array(block, dtype=np.int64)])
        parts.append(np.where(sign == 0, -np.inf, logdet))
    logdets = np.concatenate(parts)
    top = logdets.max()
    if not np.isfinite(top):
        raise ValueError("x must have rank equal to its number of columns")
    j = int(np.argmax(logdets >= top + math.log1p(-TIE_RTOL)))  # first = lexicographically smallest
    return np.array(next(itertools.islice(itertools.combinations(range(n), d), j, None)), dtype=np.int64)


def maxdet_maxvol(x: np.ndarray) -> np.ndarray:
    """Max-Det collection by greedy pivoting plus single swaps (maxvol): int64[d], sorted.

    Start from the first d pivots of column-pivoted QR of x^T, then swap basis row b for row i while
    |beta_{i,b}| > 1 + 1e-9 (each swap multiplies |det| by |beta_{i,b}| > 1, so it terminates).
    The result satisfies |beta| <= 1 + 1e-9 for every row; it is a local, not always global, maximum.
    """
    x = np.asarray(x, dtype=np.float64)
    d = x.shape[1]
    import scipy.linalg  # imported here: keeps `import dpbandits` light for simulation jobs

    _, _, piv = scipy.linalg.qr(x.T, pivoting=True, mode="economic")
    idx = np.array(piv[:d], dtype=np.int64)
    if np.linalg.matrix_rank(x[idx]) < d:
        raise ValueError("x must have rank equal to its number of columns")
    while True:
        beta = coefficients(x, idx)
        i, b = np.unravel_index(np.argmax(np.abs(beta)), beta.shape)
        if abs(beta[i, b]) <= 1.0 + SWAP_TOL:
            return np.sort(idx)
        idx[b] = i


def maxdet(x: np.ndarray, exhaustive_limit: int = EXHAUSTIVE_LIMIT) -> np.ndarray:
    """Max-Det collection of the rows of ``x`` (float[n, d], rank d): int64[d] sorted row indices.

    Exhaustive search when C(n, d) <= ``exhaustive_limit`` [CHOICE], maxvol swaps otherwise.
    """
    n, d = np.shape(x)
    if math.comb(n, d) <= exhaustive_limit:
        return maxdet_exhaustive(x)
    return maxdet_maxvol(x)


def coefficients(x: np.ndarray, idx: np.ndarray) -> np.ndarray:
    """beta float64[n, d] with x[i] = sum_b beta[i, b] x[idx[b]]; rows of ``idx`` are exact unit rows."""
    x = np.asarray(x, dtype=np.float64)
    beta = np.linalg.solve(x[idx].T, x.T).T
    beta[idx] = np.eye(len(idx))
    return beta
