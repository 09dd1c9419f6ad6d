"""Fixed-budget (differentially private) best-arm identification in linear bandits.

Chen, Karthik, Chee & Tan (ICLR 2024): ``dp_bai``, ``dp_bai_gauss``, ``baseline_bai``, and the
comparators ``od_linbai`` (Yang & Tan 2022, non-private) and ``dp_od``; all registered in
``dpbandits.ALGORITHMS`` with kind "bai". Run them with :func:`simulate_bai` or, on a given reward
table, :func:`run_on_table`.
"""

from . import dp_bai, od_linbai  # noqa: F401  (register the algorithms)
from .linear_instances import PROTOCOL, instance_for, section5_instance, two_arm_instance
from .table import RewardTable
from .trials import BaiResult, run_on_table, simulate_bai, wilson_interval

__all__ = [
    "PROTOCOL",
    "BaiResult",
    "RewardTable",
    "instance_for",
    "run_on_table",
    "section5_instance",
    "simulate_bai",
    "two_arm_instance",
    "wilson_interval",
]
