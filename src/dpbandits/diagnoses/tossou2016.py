"""Diagnoses of the failing claims of tossou2016 (docs/findings.md)."""

from __future__ import annotations

from ._core import Diagnosis

PAPER = "tossou2016"
DIAGNOSES: list[Diagnosis] = []
