"""The package version: one source, ``pyproject.toml``, read through the installed package's metadata."""

from __future__ import annotations

import tomllib
from importlib import metadata
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]  # the source tree, when the package is used from a checkout


def version() -> str:
    """The installed distribution's version; from a source tree that is not installed (``PYTHONPATH=src``),
    the version in its ``pyproject.toml``; else ``0+unknown``."""
    try:
        return metadata.version("dpbandits")
    except metadata.PackageNotFoundError:
        pass
    try:
        return tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]
    except (OSError, KeyError, tomllib.TOMLDecodeError):
        return "0+unknown"
