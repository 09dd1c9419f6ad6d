"""Diagnoses of the failing claims of chen2024 (docs/findings.md)."""

from __future__ import annotations

from ._core import Diagnosis

PAPER = "chen2024"
DIAGNOSES: list[Diagnosis] = []
