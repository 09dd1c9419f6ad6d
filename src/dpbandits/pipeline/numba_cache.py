"""Where numba keeps the package's compiled kernels: a folder named by a hash of the code they compile.

numba's own on-disk cache (``@njit(cache=True)``) checks only the file that defines a function. A kernel
that calls or inlines a helper from another module (``bandits/_counters.py``, ``bandits/_release.py``, ...)
would be loaded from the cache after that helper changed, and compute with the old helper. So the package
points numba's cache at ``<base>/numba-<key>``, where ``key`` hashes the contents of every package file a
compiled module can reach (:func:`compiled_sources`: the modules that import numba or its presets
:mod:`dpbandits.core.jit`, and their import closure,
:func:`dpbandits.pipeline.sources.closure`). Any edit to one of them
gives a new, empty folder, and every kernel is compiled afresh from the code as it is now; undoing the edit finds
the old folder again.

``base`` is ``$DPBANDITS_CACHE_DIR``, else ``$XDG_CACHE_HOME/dpbandits``, else ``~/.cache/dpbandits`` (if it cannot
be created, ``dpbandits-cache`` in the temporary directory). Folders
of other keys not used for :data:`KEEP_DAYS` days are removed, beyond the :data:`KEEP` most recent.
:func:`configure` runs when ``dpbandits`` is imported, before any kernel module, and sets
``numba.config.CACHE_DIR`` and ``NUMBA_CACHE_DIR`` for the process (numba re-reads the environment).

A plugin's kernels are cached in the same folder, so an edit of a package helper they call recompiles
them too; numba itself notices an edit of the plugin file that defines the kernel, but not of another
plugin file it calls into.
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import tempfile
import time
from pathlib import Path

from . import sources

KEEP = 8  # key folders always kept, most recently used first
KEEP_DAYS = 7  # older unused key folders beyond KEEP are removed
# a module compiles if it imports numba or the presets of dpbandits.core.jit (relatively or not)
_USES_NUMBA = re.compile(r"^\s*((from|import) numba\b|from (\.+|dpbandits\.)([\w.]*\.)?jit import)", re.M)


def compiled_sources() -> list[str]:
    """Sorted paths of the package files compiled code can reach: modules importing numba or :mod:`.jit`, and their
    closure."""
    files = sorted(sources.PACKAGE.rglob("*.py"))
    compiled = [f for f in files if _USES_NUMBA.search(f.read_text())]
    modules = [".".join((sources.NAME, *f.relative_to(sources.PACKAGE).with_suffix("").parts)) for f in compiled]
    return sources.closure(*(m.removesuffix(".__init__") for m in modules))


def key() -> str:
    """16 hex digits of SHA-256 over the relative paths and contents of :func:`compiled_sources`."""
    digest = hashlib.sha256()
    for path in map(Path, compiled_sources()):
        digest.update(path.relative_to(sources.PACKAGE).as_posix().encode() + b"\0")
        digest.update(path.read_bytes() + b"\0")
    return digest.hexdigest()[:16]


def base() -> Path:
    """The folder holding one ``numba-<key>`` folder per version of the compiled sources."""
    if os.environ.get("DPBANDITS_CACHE_DIR"):
        return Path(os.environ["DPBANDITS_CACHE_DIR"])
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "dpbandits"


def configure() -> Path:
    """Point numba's cache at ``base()/numba-<key()>`` (created, its time stamp refreshed) and prune old keys."""
    import numba

    folder = base() / f"numba-{key()}"
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError:  # an unwritable base (read-only home): the same key under the temporary directory
        folder = Path(tempfile.gettempdir()) / "dpbandits-cache" / folder.name
        folder.mkdir(parents=True, exist_ok=True)
    os.utime(folder)
    os.environ["NUMBA_CACHE_DIR"] = str(folder)
    numba.config.CACHE_DIR = str(folder)
    _prune(folder)
    return folder


def _prune(current: Path) -> None:
    others = sorted((p for p in current.parent.glob("numba-*") if p != current), key=_mtime, reverse=True)
    for old in others[KEEP:]:
        if time.time() - _mtime(old) > KEEP_DAYS * 86400:
            shutil.rmtree(old, ignore_errors=True)


def _mtime(path: Path) -> float:
    try:
        return path.stat().st_mtime
    except FileNotFoundError:
        return 0.0
