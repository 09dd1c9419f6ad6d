"""Diagnoses of the failing claims of crosspaper (docs/findings.md)."""

from __future__ import annotations

from ._core import Diagnosis

PAPER = "crosspaper"
DIAGNOSES: list[Diagnosis] = []
