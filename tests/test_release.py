"""The release: licence, citation and changelog agree with pyproject.toml; the lock file pins every declared
dependency at a version its specifier allows and is what the README's install command uses; a result file's
recorded versions compare with the lock."""

import re
import tomllib
from pathlib import Path

import numpy as np
import pytest
import yaml
from packaging.requirements import Requirement

from dpbandits.pipeline import io, lockcheck

ROOT = Path(__file__).resolve().parents[1]
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
LOCK = ROOT / "requirements" / "dev.lock"


def test_licence_is_the_declared_mit():
    assert PROJECT["license"] == {"text": "MIT"}
    assert (ROOT / "LICENSE").read_text().startswith("MIT License\n")


def test_citation_names_this_version_and_the_five_papers():
    cff = yaml.safe_load((ROOT / "CITATION.cff").read_text())
    assert cff["version"] == PROJECT["version"] and cff["license"] == "MIT"
    cited = {(r["authors"][0]["family-names"], r["year"], r["type"]) for r in cff["references"]}
    for paper in [
        ("Tossou", 2016, "conference-paper"),
        ("Sajed", 2019, "conference-paper"),
        ("Sajed", 2019, "thesis"),
        ("Hu", 2022, "conference-paper"),
        ("Chen", 2024, "conference-paper"),
    ]:
        assert paper in cited, paper


def test_changelog_has_a_section_for_this_version():
    assert re.search(
        rf"^## \[{re.escape(PROJECT['version'])}\] - \d{{4}}-\d\d-\d\d$", (ROOT / "CHANGELOG.md").read_text(), re.M
    )


def declared() -> list[Requirement]:
    reqs = [Requirement(r) for r in PROJECT["dependencies"]]
    reqs += [Requirement(r) for extra in PROJECT["optional-dependencies"].values() for r in extra]
    return [r for r in reqs if r.name != PROJECT["name"]]


def lock_problems(reqs: list[Requirement], pinned: dict[str, set[str]]) -> list[str]:
    """Declared dependencies the lock does not pin, or pins at a version outside their specifier."""
    problems = []
    for req in reqs:
        versions = pinned.get(lockcheck._norm(req.name))
        if not versions:
            problems.append(f"{req.name} is not pinned")
        elif bad := [v for v in versions if not req.specifier.contains(v, prereleases=True)]:
            problems.append(f"{req.name}=={', '.join(bad)} outside {req.specifier}")
    return problems


def test_the_lock_pins_every_declared_dependency_within_its_bounds():
    problems = lock_problems(declared(), lockcheck.pins(LOCK))
    assert not problems, f"{LOCK.name} is stale ({'; '.join(problems)}): regenerate it as the README says"


def test_lock_problems_names_a_missing_or_out_of_bounds_pin():
    reqs = [Requirement("numpy>=2.0,<2.5"), Requirement("jsonschema>=4")]
    assert lock_problems(reqs, {"numpy": {"2.4.6"}, "jsonschema": {"4.26.0"}}) == []
    assert lock_problems(reqs, {"numpy": {"2.5.0"}, "jsonschema": {"4.26.0"}}) == ["numpy==2.5.0 outside <2.5,>=2.0"]
    assert lock_problems(reqs, {"numpy": {"2.4.6"}}) == ["jsonschema is not pinned"]


def test_the_readme_installs_from_the_lock():
    commands = re.findall(r"^python3 -m venv .*$", (ROOT / "README.md").read_text(), re.M)
    assert commands and all('pip install -c requirements/dev.lock -e ".[dev]"' in c for c in commands), commands


def _result(path, versions):
    meta = {"algorithm": "ucb", "versions": versions}
    io.save_job(path, {"c1": (meta, {"regret": np.zeros((1, 2))}), "c2": (meta, {"regret": np.ones((1, 2))})})
    return path


def test_lockcheck_compares_recorded_versions_with_the_lock(tmp_path, capsys):
    lock = tmp_path / "dev.lock"
    lock.write_text(
        "numpy==2.4.6\n    # via dpbandits\nscipy==1.16.3 ; python_full_version < '3.12'\n"
        "scipy==1.17.1 ; python_full_version >= '3.12'\n"
    )
    same = _result(tmp_path / "same.npz", {"dpbandits": "0.1.0", "numpy": "2.4.6", "scipy": "1.17.1"})
    assert lockcheck.compare(same, lock) == [
        ("numpy", "2.4.6", "2.4.6", True),
        ("scipy", "1.17.1", "1.16.3 or 1.17.1", True),
    ]
    assert lockcheck.main([str(same), "--lock", str(lock)]) == 0
    other = _result(tmp_path / "other.npz", {"numpy": "2.3.0", "python": "3.11.7"})
    assert lockcheck.main([str(same), str(other), "--lock", str(lock)]) == 1
    assert f"{other}: numpy 2.3.0 != lock 2.4.6" in capsys.readouterr().out.splitlines()


def test_lockcheck_refuses_a_file_that_is_not_a_lock_or_records_nothing(tmp_path):
    with pytest.raises(ValueError, match="not a lock file"):
        lockcheck.pins(ROOT / "README.md")
    with pytest.raises(ValueError, match="records no package versions"):
        lockcheck.compare(_result(tmp_path / "r.npz", {}), LOCK)
