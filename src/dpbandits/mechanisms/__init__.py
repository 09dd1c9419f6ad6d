"""Privacy and statistics mechanisms shared by the fast kernels, the reference twins and the BAI algorithms.

- :mod:`~dpbandits.mechanisms.noise`: Laplace and Gaussian noise, continual-release counters, sparse vector.
- :mod:`~dpbandits.mechanisms.stopping`: the sparse-vector stopping rules of Sajed's thesis (2019).
- :mod:`~dpbandits.mechanisms.klucb`: Bernoulli KL divergence and the KL-UCB index.

It builds on :mod:`dpbandits.core` only.
"""
