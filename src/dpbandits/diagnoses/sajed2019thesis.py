"""Diagnoses of the failing claims of sajed2019thesis (docs/findings.md)."""

from __future__ import annotations

from ._core import Diagnosis

PAPER = "sajed2019thesis"
DIAGNOSES: list[Diagnosis] = []
