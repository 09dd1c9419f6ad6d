"""Which dpbandits made an output: its version (from the package metadata) and the git commit of its source tree.

Only the cheap outputs made from simulations (the ledger, the notebooks, the report) state the commit; a
simulation's result file records the version alone, so a new commit does not rerun every simulation (and this
module is outside the simulations' sources: editing it reruns none).
"""

from __future__ import annotations

import functools
import subprocess

from .._version import ROOT, version

__all__ = ["commit", "made_with", "version"]


def _git(*args: str) -> str | None:
    try:
        proc = subprocess.run(["git", "-C", str(ROOT), *args], capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.SubprocessError):
        return None
    return proc.stdout.strip() if proc.returncode == 0 else None


@functools.cache
def commit() -> str:
    """``git rev-parse HEAD`` of the package's source tree, with ``+dirty`` if a file differs from it (untracked,
    not ignored files count); ``unknown`` outside a git checkout (an installed wheel, a copy)."""
    if not (ROOT / "pyproject.toml").is_file() or _git("rev-parse", "--show-toplevel") != str(ROOT):
        return "unknown"  # e.g. site-packages inside some other repository
    head = _git("rev-parse", "HEAD")
    if not head:
        return "unknown"
    status = _git("status", "--porcelain")
    return head + ("+dirty" if status is None or status else "")


def made_with() -> str:
    """One line for an output: ``dpbandits <version> (commit <commit>)``."""
    return f"dpbandits {version()} (commit {commit()})"
