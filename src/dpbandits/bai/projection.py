"""Dimensionality reduction, eq. (9) of Chen et al. (2024).

Coordinates of a set of vectors in an orthonormal basis of their span, from the SVD. An orthonormal
basis keeps |det| equal to the volume and leaves linear relations (Max-Det coefficients) unchanged.
"""

from __future__ import annotations

import numpy as np

TOL_RANK = 1e-10


def orthonormal_coordinates(x: np.ndarray, tol_rank: float = TOL_RANK) -> np.ndarray:
    """Coordinates float64[n, r] of the rows of ``x`` (float[n, d]) in an orthonormal basis of their span.

    r is the numerical rank #{singular values > tol_rank * largest}; r = 0 for an all-zero ``x``.
    The basis is ``Vt[:r]`` of ``numpy.linalg.svd(x)``, so row i maps to ``Vt[:r] @ x[i]``.
    """
    x = np.asarray(x, dtype=np.float64)
    _, sv, vt = np.linalg.svd(x, full_matrices=False)
    if sv.size == 0 or sv[0] == 0.0:
        return np.zeros((x.shape[0], 0))
    r = int(np.count_nonzero(sv > tol_rank * sv[0]))
    return x @ vt[:r].T
