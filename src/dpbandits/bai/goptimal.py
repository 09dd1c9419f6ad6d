"""G-optimal designs for OD-LinBAI / DP-OD (Yang & Tan 2022; Chen et al. 2024, Appendix E.1).

Minimise g(pi) = max_a a^T V(pi)^{-1} a over distributions pi on the rows a of X, with
V(pi) = sum_a pi_a a a^T. Kiefer & Wolfowitz (1960): the minimum equals d (= D-optimal design).
Solved by Fedorov-Wynn / Frank-Wolfe with exact line search, optionally with away steps
(Wolfe-Atwood, as in Todd & Yildirim's MVEE algorithm), which drive weights off non-optimal rows.
"""

from __future__ import annotations

import numpy as np

TOL = 1e-4
MAX_ITER = 10_000
PRUNE = 1e-6
SOLVERS = ("fw_away", "fw")


def g_values(x: np.ndarray, pi: np.ndarray) -> np.ndarray:
    """float64[n]: a^T V(pi)^+ a for every row a of ``x`` (float[n, d]), ``pi`` float[n]."""
    v = (x.T * pi) @ x
    return np.einsum("ij,jk,ik->i", x, np.linalg.pinv(v, hermitian=True), x)


def g_value(x: np.ndarray, pi: np.ndarray) -> float:
    """g(pi) = max_a a^T V(pi)^+ a; equals d = rank at a G-optimal design."""
    return float(g_values(x, pi).max())


def caratheodory(x: np.ndarray, pi: np.ndarray) -> np.ndarray:
    """Reduce the support of ``pi`` to at most d(d+1)/2 + 1 rows without changing V(pi) or sum(pi).

    Repeatedly moves along a null vector of the columns (vec(a a^T), 1) of the support.
    """
    x = np.asarray(x, dtype=np.float64)
    pi = np.array(pi, dtype=np.float64)
    d = x.shape[1]
    iu = np.triu_indices(d)
    feats = np.vstack([(x[:, :, None] * x[:, None, :])[:, iu[0], iu[1]].T, np.ones(len(x))])
    limit = d * (d + 1) // 2 + 1
    while True:
        supp = np.flatnonzero(pi > 0)
        if supp.size <= limit:
            return pi
        z = np.linalg.svd(feats[:, supp])[2][-1]  # null vector; sum(z) = 0, so some z > 0
        pos = np.flatnonzero(z > 0)
        ratios = pi[supp[pos]] / z[pos]
        i = int(np.argmin(ratios))
        pi[supp] = np.maximum(pi[supp] - ratios[i] * z, 0.0)
        pi[supp[pos[i]]] = 0.0


def g_optimal(
    x: np.ndarray, tol: float = TOL, max_iter: int = MAX_ITER, prune: float = PRUNE, solver: str = "fw_away"
) -> np.ndarray:
    """G-optimal design float64[n] on the rows of ``x`` (float[n, d], rank d >= 1).

    Starts from uniform; stops once g(pi) <= d (1 + tol) (and, with away steps, once every support
    row has a^T V^{-1} a >= d (1 - tol)) or after ``max_iter`` steps. Then drops weights below
    ``prune``, renormalises, and applies Caratheodory reduction (support <= d(d+1)/2 + 1).
    """
    if solver not in SOLVERS:
        raise ValueError(f"g_design={solver!r} is not one of {list(SOLVERS)}")
    x = np.asarray(x, dtype=np.float64)
    n, d = x.shape
    pi = np.full(n, 1.0 / n)
    for _ in range(max_iter):
        g = g_values(x, pi)
        k = int(np.argmax(g))
        up = g[k] / d - 1.0
        down = 0.0
        if solver == "fw_away":
            supp = np.flatnonzero(pi > 0)
            j = supp[np.argmin(g[supp])]
            down = 1.0 - g[j] / d
        if up <= tol and down <= tol:
            break
        if up >= down:
            gamma = up / (g[k] - 1.0)
            pi *= 1.0 - gamma
            pi[k] += gamma
        else:  # away step from row j, capped so that pi_j stays >= 0 (drop step)
            gamma = min(down / (g[j] - 1.0) if g[j] > 1.0 else np.inf, pi[j] / (1.0 - pi[j]))
            pi *= 1.0 + gamma
            pi[j] -= gamma
            pi[j] = max(pi[j], 0.0)
    pi[pi < prune] = 0.0
    pi /= pi.sum()
    return caratheodory(x, pi)
