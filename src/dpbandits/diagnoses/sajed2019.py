"""Diagnoses of the failing claims of sajed2019 (docs/findings.md)."""

from __future__ import annotations

from ._core import Diagnosis

PAPER = "sajed2019"
DIAGNOSES: list[Diagnosis] = []
