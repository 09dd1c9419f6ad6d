"""Public API contract: argument validation, seeding, checkpoints, result shapes."""

import numpy as np
import pytest

import dpbandits
from dpbandits.core.checkpoints import default_checkpoints
from dpbandits.core.seeding import config_key

MEANS = [0.9, 0.6]


@pytest.mark.parametrize(
    ("kwargs", "culprit"),
    [
        ({"epsilon": 0.0}, "epsilon"),
        ({"epsilon": -1.0}, "epsilon"),
        ({"epsilon": float("nan")}, "epsilon"),
        ({"means": [0.5]}, "K >= 2"),
        ({"means": [0.5, 1.2]}, "means"),
        ({"means": [-0.1, 0.5]}, "means"),
        ({"horizon": 1}, "horizon"),
        ({"horizon": 10.5}, "horizon"),
        ({"runs": 0}, "runs"),
        ({"seed": -3}, "seed"),
        ({"algorithm": "nope"}, "algorithm"),
        ({"bogus": 1}, "bogus"),
        ({"tie_break": "last"}, "tie_break"),
    ],
)
def test_bad_input_names_the_argument(kwargs, culprit):
    args = {"algorithm": "dp_ucb_bound", "means": MEANS, "horizon": 100, "epsilon": 1.0, "runs": 1, "seed": 0}
    args.update(kwargs)
    with pytest.raises(ValueError, match=culprit):
        dpbandits.simulate(**args)


def test_result_shapes_and_meta():
    r = dpbandits.simulate("dp_ucb_tossou", MEANS, 500, 1.0, runs=3, seed=1)
    assert r.regret.shape == (3, r.checkpoints.size)
    assert r.pulls.shape == (3, 2) and r.pulls.dtype == np.int64
    assert np.all(r.pulls.sum(axis=1) == 500)
    assert r.checkpoints[-1] == 500
    assert np.all(np.diff(r.regret, axis=1) >= 0)
    # final pseudo-regret equals sum of gaps times pulls
    gaps = np.max(MEANS) - np.asarray(MEANS)
    np.testing.assert_allclose(r.regret[:, -1], r.pulls @ gaps)
    assert r.meta["params"]["hybrid_split"] == "half"
    assert r.meta["run_ids"] == [0, 1, 2]
    assert {"numpy", "numba", "dpbandits"} <= set(r.meta["versions"])


def test_runs_do_not_depend_on_chunking():
    whole = dpbandits.simulate("dp_ucb_bound", MEANS, 400, 0.5, runs=6, seed=7)
    a = dpbandits.simulate("dp_ucb_bound", MEANS, 400, 0.5, runs=2, seed=7)
    b = dpbandits.simulate("dp_ucb_bound", MEANS, 400, 0.5, runs=4, seed=7, first_run=2)
    np.testing.assert_array_equal(whole.regret, np.vstack([a.regret, b.regret]))
    np.testing.assert_array_equal(whole.pulls, np.vstack([a.pulls, b.pulls]))


def test_seeds_differ_across_configurations_and_runs():
    r1 = dpbandits.simulate("dp_ucb_tossou", MEANS, 300, 1.0, runs=4, seed=3)
    r2 = dpbandits.simulate("dp_ucb_tossou", MEANS, 300, 0.5, runs=4, seed=3)
    assert len({tuple(p) for p in r1.pulls}) > 1  # runs differ
    assert not np.array_equal(r1.pulls, r2.pulls)
    assert config_key({"a": 1.0}) == config_key({"a": 1})  # int-valued floats hash like ints


def test_non_private_algorithm_ignores_epsilon():
    a = dpbandits.simulate("ucb", MEANS, 300, 1.0, runs=2, seed=3)
    b = dpbandits.simulate("ucb", MEANS, 300, None, runs=2, seed=3)
    np.testing.assert_array_equal(a.regret, b.regret)
    assert a.meta["epsilon"] is None


@pytest.mark.parametrize("horizon", [2, 7, 1000, 100_000, 50_000_000])
def test_default_checkpoints(horizon):
    c = default_checkpoints(horizon)
    assert c[0] >= 1 and c[-1] == horizon and np.all(np.diff(c) > 0)
    assert c.size <= 201


def test_explicit_checkpoints_validated():
    with pytest.raises(ValueError, match="checkpoints"):
        dpbandits.simulate("ucb", MEANS, 100, None, 1, 0, checkpoints=[5, 3])
    r = dpbandits.simulate("ucb", MEANS, 100, None, 1, 0, checkpoints=[1, 50, 100])
    assert r.regret.shape == (1, 3)


def test_algorithm_registry_contract():
    for name, alg in dpbandits.ALGORITHMS.items():
        assert alg.kind in ("regret", "bai"), name
        assert name == name.lower() and " " not in name
        assert alg.module.startswith(f"dpbandits.{'bandits' if alg.kind == 'regret' else 'bai'}."), name
