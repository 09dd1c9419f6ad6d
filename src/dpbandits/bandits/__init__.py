"""Regret-minimisation algorithms: one module per algorithm, each registering itself."""

from . import dp_ucb_bound, dp_ucb_int, dp_ucb_tossou, private_ucb, ucb  # noqa: F401
