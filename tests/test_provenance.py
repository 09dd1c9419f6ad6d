"""dpbandits.core.provenance: the version comes from one place (pyproject.toml, through the package metadata) and the
commit from git, with a dirty marker, and ``unknown`` where there is no checkout of the package."""

import subprocess
import tomllib
from importlib import metadata
from pathlib import Path

import pytest

import dpbandits
from dpbandits import _version
from dpbandits.core import provenance

ROOT = Path(__file__).resolve().parents[1]
PYPROJECT_VERSION = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]


def test_the_version_is_pyprojects():
    assert dpbandits.__version__ == provenance.version() == PYPROJECT_VERSION


def test_a_source_tree_that_is_not_installed_reads_its_pyproject(monkeypatch, tmp_path):
    def missing(name):
        raise metadata.PackageNotFoundError(name)

    monkeypatch.setattr(metadata, "version", missing)
    assert provenance.version() == PYPROJECT_VERSION
    monkeypatch.setattr(_version, "ROOT", tmp_path)  # no pyproject.toml either
    assert provenance.version() == "0+unknown"


def _git(cwd, *args):
    return subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True, text=True).stdout.strip()


@pytest.fixture
def checkout(monkeypatch, tmp_path):
    """A one-commit git repository standing in for the package's source tree."""
    repo = tmp_path / "repo"
    repo.mkdir()
    (repo / "pyproject.toml").write_text('[project]\nname = "dpbandits"\nversion = "9.9"\n')
    _git(repo, "init", "-q")
    _git(repo, "add", "pyproject.toml")
    _git(repo, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "one")
    monkeypatch.setattr(provenance, "ROOT", repo)
    provenance.commit.cache_clear()
    yield repo
    provenance.commit.cache_clear()


def test_the_commit_is_head_and_a_changed_tree_is_dirty(checkout):
    head = _git(checkout, "rev-parse", "HEAD")
    assert provenance.commit() == head
    assert provenance.made_with() == f"dpbandits {provenance.version()} (commit {head})"
    (checkout / "pyproject.toml").write_text("edited")
    provenance.commit.cache_clear()
    assert provenance.commit() == head + "+dirty"


def test_no_checkout_of_the_package_gives_unknown(checkout, monkeypatch):
    inner = checkout / "venv" / "site-packages"  # an installed copy inside some other repository
    inner.mkdir(parents=True)
    (inner / "pyproject.toml").write_text("")
    monkeypatch.setattr(provenance, "ROOT", inner)
    assert provenance.commit() == "unknown"
    provenance.commit.cache_clear()
    monkeypatch.setattr(provenance, "ROOT", checkout.parent)  # not a repository at all
    assert provenance.commit() == "unknown"


def test_the_ledger_states_what_made_it():
    import pandas as pd

    from dpbandits.claims import ledger, page

    df = ledger.with_robustness(pd.DataFrame(columns=ledger.COLUMNS))
    text = page.markdown(df, "dpbandits 9.9 (commit abc)")
    assert text.splitlines()[:3] == ["# Claims ledger", "", "Made with dpbandits 9.9 (commit abc)."]
    assert "Made with" not in page.markdown(df)


def test_no_simulation_takes_the_commit_logic_as_an_input():
    """A simulation job's inputs hold the version's module but not the commit's: a new commit, or an edit of how
    it is read, reruns no simulation."""
    from dpbandits import ALGORITHMS
    from dpbandits.pipeline import sources

    for name in ALGORITHMS:
        files = {Path(f).name for f in sources.algorithm_sources(name)}
        assert "_version.py" in files and "core/provenance.py" not in files, name
