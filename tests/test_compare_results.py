"""The check of a refactoring's results (tests/compare_results.py) can come out either way."""

import json

import numpy as np
from compare_results import differences


def test_the_refactoring_check_sees_a_changed_result(tmp_path):
    """tests/compare_results.py (the check of a refactoring's results) passes equal folders and names a change."""
    for name in ("before", "after"):
        (tmp_path / name / "sims" / "ucb").mkdir(parents=True)
        meta = json.dumps({"seed": 1, "versions": {"dpbandits": name}})  # versions: set aside
        np.savez(tmp_path / name / "sims" / "ucb" / "runs0-2.npz", meta=meta, regret=np.array([1.0, np.nan]))
        (tmp_path / name / "figures.csv").write_text("t,regret\n1,0.5\n")
    assert differences(tmp_path / "before", tmp_path / "after") == []
    np.savez(tmp_path / "after" / "sims" / "ucb" / "runs0-2.npz", meta="{}", regret=np.array([1.0, 2.0]))
    (tmp_path / "after" / "figures.csv").write_text("t,regret\n1,0.25\n")
    assert differences(tmp_path / "before", tmp_path / "after") == [
        "sims/ucb/runs0-2.npz: meta differs",
        "sims/ucb/runs0-2.npz: regret differs",
        "figures.csv: differs",
    ]
