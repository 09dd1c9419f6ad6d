"""The API reference builds from the docstrings without a warning, one page per public module."""

import os
import subprocess
import sys
from pathlib import Path

from dpbandits.cli import apidocs

ROOT = Path(__file__).resolve().parents[1]


def test_every_public_module_is_documented():
    files = [p.relative_to(ROOT / "src").with_suffix("") for p in (ROOT / "src" / "dpbandits").rglob("*.py")]
    names = {".".join(p.parts[:-1] if p.name == "__init__" else p.parts) for p in files}
    public = {n for n in names if not any(part.startswith("_") for part in n.split("."))}
    assert set(apidocs.modules()) == public and apidocs.modules()[0] == "dpbandits"


def test_api_reference_builds_without_warnings(tmp_path):
    proc = subprocess.run(
        [sys.executable, "-m", "dpbandits.cli", "docs", "--out", str(tmp_path)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
        env={**os.environ, "PYTHONPATH": str(ROOT / "src")},
    )
    assert proc.returncode == 0, proc.stderr[-5000:]
    assert proc.stderr == "" and proc.stdout.endswith(", 0 warnings\n"), proc.stdout + proc.stderr
    for name in apidocs.modules():
        assert (tmp_path / f"{name.replace('.', '/')}.html").stat().st_size > 1000, name
    assert "dpbandits.core.simulate" in (tmp_path / "search.js").read_text()
