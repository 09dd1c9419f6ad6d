"""Diagnoses of the failing claims of hu2022 (docs/findings.md)."""

from __future__ import annotations

from ._core import Diagnosis

PAPER = "hu2022"
DIAGNOSES: list[Diagnosis] = []
