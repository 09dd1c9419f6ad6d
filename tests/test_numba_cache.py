"""No stale compiled code: a kernel is never loaded from numba's cache once a source it compiles has changed.

numba's own cache checks only the file defining a kernel; ``dpbandits.pipeline.numba_cache`` keys the cache folder by
every package file compiled code can reach. The tests edit a helper module (not the kernel's own file) in
a copy of the package with a warm cache, and run the library in a new process each time.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np

from dpbandits.pipeline import numba_cache, sources

HELPER = "bandits/_counters.py"  # the hybrid counter's noise step, inlined into dp_ucb_tossou's kernel
NODE_NOISE = "e = k * node_scale * eta\n"
LOUD = "e = 1000.0 * k * node_scale * eta\n"  # the hybrid counter's tree nodes get 1000 times their noise
CALL = (
    "import json, dpbandits; r = dpbandits.simulate('dp_ucb_tossou', [0.9, 0.6], 20000, 1.0, 4, 0); "
    "print(json.dumps(r.regret[:, -1].tolist()))"
)


def _final_regret(package_root: Path, cache: Path) -> np.ndarray:
    env = {**os.environ, "PYTHONPATH": str(package_root), "DPBANDITS_CACHE_DIR": str(cache)}
    out = subprocess.run([sys.executable, "-c", CALL], env=env, capture_output=True, text=True, check=True)
    return np.array(json.loads(out.stdout.splitlines()[-1]))


def test_editing_a_helper_module_recompiles_the_kernels_that_use_it(tmp_path):
    root = tmp_path / "src"
    shutil.copytree(sources.PACKAGE, root / "dpbandits", ignore=shutil.ignore_patterns("__pycache__"))
    helper = root / "dpbandits" / HELPER
    text = helper.read_text()
    assert text.count(NODE_NOISE) == 1, f"{HELPER} no longer holds {NODE_NOISE!r}: update this test"
    cache = tmp_path / "cache"

    before = _final_regret(root, cache)
    assert _final_regret(root, cache).tolist() == before.tolist()  # warm cache, same code: same result
    helper.write_text(text.replace(NODE_NOISE, LOUD))
    edited = _final_regret(root, cache)
    helper.write_text(text)
    after = _final_regret(root, cache)

    # 1000 times the node noise turns the counter's UCB indices into noise: far more regret in every run
    assert edited.min() > 3 * before.max(), (before, edited)
    assert after.tolist() == before.tolist()  # undoing the edit brings the old kernel (and numbers) back
    assert len(list(cache.glob("numba-*"))) == 2  # one folder per version of the compiled sources


def test_the_key_covers_every_file_compiled_code_can_reach():
    files = {Path(f).relative_to(sources.PACKAGE).as_posix() for f in numba_cache.compiled_sources()}
    # the kernels' own modules, the helpers they inline, and the constants they read at compile time
    assert {
        "bandits/dp_ucb_tossou.py",
        "bandits/_counters.py",
        "bandits/_tossou.py",
        "bandits/_params.py",
        "mechanisms/klucb.py",
        "__init__.py",
    } <= files
    # code that never reaches a kernel does not force a recompile
    assert not {"drawing/plotting.py", "drawing/figures.py", "drawing/notebook.py"} & files


def _restore_afterwards(monkeypatch, base: Path) -> None:
    import numba

    monkeypatch.setenv("DPBANDITS_CACHE_DIR", str(base))
    monkeypatch.setenv("NUMBA_CACHE_DIR", numba.config.CACHE_DIR)
    monkeypatch.setattr(numba.config, "CACHE_DIR", numba.config.CACHE_DIR)


def test_the_cache_folder_is_named_by_the_key(tmp_path, monkeypatch):
    import numba

    _restore_afterwards(monkeypatch, tmp_path)
    folder = numba_cache.configure()
    assert folder == tmp_path / f"numba-{numba_cache.key()}" and folder.is_dir()
    assert numba.config.CACHE_DIR == os.environ["NUMBA_CACHE_DIR"] == str(folder)


def test_old_folders_are_pruned_beyond_the_kept_ones(tmp_path, monkeypatch):
    _restore_afterwards(monkeypatch, tmp_path)
    old = [tmp_path / f"numba-old{i:02d}" for i in range(numba_cache.KEEP + 3)]
    for i, path in enumerate(old):
        path.mkdir()
        stamp = 1e9 + i  # long unused, the last ones most recently
        os.utime(path, (stamp, stamp))
    recent = tmp_path / "numba-recent"
    recent.mkdir()
    folder = numba_cache.configure()
    left = set(tmp_path.glob("numba-*"))
    assert left == {folder, recent, *old[-(numba_cache.KEEP - 1) :]}, sorted(p.name for p in left)


def test_an_unwritable_base_falls_back_to_the_temporary_directory(tmp_path, monkeypatch):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    _restore_afterwards(monkeypatch, blocker / "cache")  # mkdir under a file fails
    monkeypatch.setenv("TMPDIR", str(tmp_path / "tmp"))
    monkeypatch.setattr("tempfile.tempdir", None)
    (tmp_path / "tmp").mkdir()
    folder = numba_cache.configure()
    assert folder == tmp_path / "tmp" / "dpbandits-cache" / f"numba-{numba_cache.key()}" and folder.is_dir()
