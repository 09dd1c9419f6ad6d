"""simulate_bai: success rates against closed forms, seeding, bad input, instances, protocol."""

import math

import numpy as np
import pytest

import dpbandits.bai as bai
from dpbandits.bai import PROTOCOL, section5_instance, simulate_bai, two_arm_instance, wilson_interval
from dpbandits.bai.table import UniformTable, reward_bounds
from dpbandits.core.registry import ALGORITHMS

NAMES = ["dp_bai", "dp_bai_gauss", "baseline_bai", "od_linbai", "dp_od"]


def _within(rate, p, runs, z=4.5):
    return abs(rate - p) <= z * math.sqrt(p * (1 - p) / runs) + 1e-12


def test_registered():
    for name in NAMES:
        alg = ALGORITHMS[name]
        assert alg.kind == "bai" and alg.private == (name != "od_linbai")
        assert alg.module == f"dpbandits.bai.{'od_linbai' if 'od' in name else 'dp_bai'}"
        for key, p in alg.params.items():
            assert "[RECON]" in p.doc or "[CHOICE]" in p.doc, key
    assert ALGORITHMS["dp_bai"].params["schedule"].default == "dexp"


def test_laplace_difference_closed_form():
    """Deterministic rewards: DP-BAI errs iff Lap noise difference exceeds the gap."""
    arms, theta = two_arm_instance(4)
    runs, budget, eps = 4000, 100, 0.5
    n = math.ceil((budget - 2) / 2)
    b, gap = 1 / (eps * n), 0.05
    p = 1 - 0.5 * math.exp(-gap / b) * (1 + gap / (2 * b))
    r = simulate_bai("dp_bai", arms, theta, budget, eps, runs, 1, reward="uniform_centered", reward_width=0.0)
    assert _within(r.success_rate, p, runs)


@pytest.mark.parametrize("ratio", [1, 3])
def test_dp_od_closed_form(ratio):
    """DP-OD: arm-1 estimate noise Lap(L/(eps n r)), arm-2 noise Lap(L/(eps n)), L = max(r, 1)."""
    arms, theta = two_arm_instance(ratio)
    runs, budget, eps, gap = 4000, 100, 1.0, 0.05
    n = math.ceil((budget - 2) / 2)
    b1, b2 = ratio / (eps * n * ratio), ratio / (eps * n)
    if b1 == b2:
        tail = 0.5 * math.exp(-gap / b1) * (1 + gap / (2 * b1))
    else:
        tail = (b1**2 * math.exp(-gap / b1) - b2**2 * math.exp(-gap / b2)) / (2 * (b1**2 - b2**2))
    r = simulate_bai("dp_od", arms, theta, budget, eps, runs, 2, reward="uniform_centered", reward_width=0.0)
    assert _within(r.success_rate, 1 - tail, runs)


@pytest.mark.parametrize("name", NAMES)
def test_huge_gap_and_identical_arms(name):
    eps = 0.5 if name == "dp_bai_gauss" else 10.0
    arms = np.eye(2)
    r = simulate_bai(name, arms, [0.5, 0.0], 400, eps, 200, 3)
    assert r.success.all() and r.meta["best_arm"] == 0
    runs = 1000
    r = simulate_bai(name, arms, [0.3, 0.3], 400, eps, runs, 4)
    assert r.meta["best_arm"] == 0
    assert _within(r.success_rate, 0.5, runs)
    assert set(np.unique(r.recommended)) <= {0, 1}


@pytest.mark.parametrize("name", NAMES)
def test_chunking_does_not_change_runs(name):
    arms, theta = section5_instance()
    eps = 0.5 if name == "dp_bai_gauss" else 0.2
    whole = simulate_bai(name, arms, theta, 1000, eps, 10, 11)
    parts = [simulate_bai(name, arms, theta, 1000, eps, 5, 11, first_run=f) for f in (0, 5)]
    np.testing.assert_array_equal(whole.recommended, np.concatenate([p.recommended for p in parts]))
    assert whole.meta["config_key"] == parts[0].meta["config_key"]
    assert parts[1].meta["run_ids"] == [5, 6, 7, 8, 9]
    assert whole.recommended.dtype == np.int64 and whole.success.dtype == bool


def test_meta_and_nonprivate_epsilon():
    arms, theta = two_arm_instance(2)
    r = simulate_bai("od_linbai", arms, theta, 200, 0.3, 5, 0)
    s = simulate_bai("od_linbai", arms, theta, 200, None, 5, 0)
    np.testing.assert_array_equal(r.recommended, s.recommended)  # one simulation serves every epsilon
    assert r.meta["epsilon"] is None and r.meta["params"]["g_design"] == "fw_away"
    for key in ("algorithm", "params", "seed", "config_key", "run_ids", "versions", "budget", "means"):
        assert key in r.meta
    d = simulate_bai("dp_bai", arms, theta, 200, 1.0, 5, 0, schedule="halving")
    assert d.meta["params"] == {
        "schedule": "halving",
        "alloc": "ceil",
        "maxdet_if": "max_d_d2",
        "maxdet_exhaustive_limit": 200_000,
        "tol_rank": 1e-10,
    }


def test_variants_run():
    arms, theta = section5_instance()
    for params in (
        {"schedule": "one_shot"},
        {"schedule": "halving", "alloc": "floor"},
        {"maxdet_if": "s_gt_d", "maxdet_exhaustive_limit": 1},
    ):
        r = simulate_bai("dp_bai", arms, theta, 1000, 1.0, 20, 0, **params)
        assert r.recommended.shape == (20,)
    r = simulate_bai("dp_od", arms, theta, 1000, 1.0, 20, 0, dpod_l1="global")
    assert r.recommended.shape == (20,)
    r = simulate_bai("od_linbai", *two_arm_instance(3), 1000, None, 20, 0, g_design="fw")
    assert r.recommended.shape == (20,)


def test_bad_input():
    arms, theta = section5_instance()
    cases = [
        ({"epsilon": 0.0}, "epsilon"),
        ({"epsilon": -1.0}, "epsilon"),
        ({"budget": 6}, "budget"),  # T' = T - 3 d < 1
        ({"budget": 0}, "budget"),
        ({"budget": 10.5}, "budget"),
        ({"theta": [0.1, 0.2, 0.3]}, "theta"),
        ({"theta": [0.045, 0.6]}, "theta"),  # means above 1/2: U[0, 2 mu] leaves [0, 1]
        ({"arms": np.ones(3)}, "arms"),
        ({"runs": 0}, "runs"),
        ({"seed": -1}, "seed"),
        ({"first_run": -2}, "first_run"),
        ({"algorithm": "ucb"}, "algorithm"),
        ({"algorithm": "nope"}, "algorithm"),
        ({"schedule": "geometric"}, "schedule"),
        ({"colour": 1}, "unknown parameter"),
        ({"reward": "bernoulli"}, "reward"),
        ({"reward": "uniform_centered"}, "reward_width"),
        ({"reward": "uniform_centered", "reward_width": 0.3}, "theta"),
    ]
    base = {"algorithm": "dp_bai", "arms": arms, "theta": theta, "budget": 1000, "epsilon": 0.5, "runs": 2, "seed": 0}
    for change, word in cases:
        with pytest.raises(ValueError, match=word):
            simulate_bai(**{**base, **change})
    with pytest.raises(ValueError, match="budget"):
        simulate_bai("baseline_bai", arms, theta, 46, 0.5, 1, 0)  # T' = T - 46 = 0
    with pytest.raises(ValueError, match="budget"):
        simulate_bai("od_linbai", arms, theta, 3, None, 1, 0)  # m = T - 3 = 0
    with pytest.raises(ValueError, match="epsilon"):
        simulate_bai("dp_bai_gauss", arms, theta, 1000, 1.0, 1, 0)
    with pytest.raises(ValueError, match="delta"):
        simulate_bai("dp_bai_gauss", arms, theta, 1000, 0.5, 1, 0, delta=1.0)


def test_uniform_table_law():
    means = np.array([0.5, 0.2])
    lo, hi = reward_bounds(means)
    np.testing.assert_array_equal(hi, [1.0, 0.4])
    n = 20000
    table = UniformTable(lo, hi, 2 * n, np.random.default_rng(0))
    got = table.pull(np.array([0, 1]), n)
    sd = (hi - lo) / math.sqrt(12 * n)
    assert np.all(np.abs(got - means) <= 4.5 * sd)
    lo, hi = reward_bounds(means, "uniform_centered", 0.1)
    np.testing.assert_allclose([lo, hi], [[0.4, 0.1], [0.6, 0.3]])
    # means above 0.5: the message names the law, its limit and the alternative law
    with pytest.raises(
        ValueError,
        match=r"^theta: .*\[0\.75, 0\.2\] must lie in \[0, 0\.5\] for reward='uniform'"
        r" .*use reward='uniform_centered' with reward_width=w",
    ):
        reward_bounds(np.array([0.75, 0.2]))
    with pytest.raises(ValueError, match=r"^theta: .* must lie in \[w, 1 - w\] = \[0\.3, 0\.7\] .*reward_width=0\.3$"):
        reward_bounds(np.array([0.75, 0.5]), "uniform_centered", 0.3)
    lo, hi = reward_bounds(np.array([0.75, 0.5]), "uniform_centered", 0.25)  # the alternative it names works
    np.testing.assert_allclose([lo, hi], [[0.5, 0.25], [1.0, 0.75]])


def test_instances():
    arms, theta = section5_instance()
    mu = arms @ theta
    assert arms.shape == (30, 2) and mu[0] == 0.5
    np.testing.assert_allclose(mu[1:3], 0.45, rtol=1e-15)
    assert np.all((mu[3:] >= 0.045) & (mu[3:] <= 0.445)) and np.argmax(mu) == 0
    np.testing.assert_array_equal(section5_instance()[0], arms)  # fixed instance seed
    for r in (1, 2, 5, 100):
        a, t = two_arm_instance(r)
        np.testing.assert_allclose(a @ t, [0.5, 0.45])
    with pytest.raises(ValueError, match="ratio"):
        two_arm_instance(0)


def test_protocol():
    f1, f2 = PROTOCOL["fig1"], PROTOCOL["fig2"]
    assert f1["algorithms"] == ("dp_bai", "baseline_bai", "od_linbai", "dp_od") and f1["trials"] == 1000
    assert f1["panels"]["a"]["epsilon"] == 0.1 and f1["panels"]["a"]["budget"][0] == 500
    assert f1["panels"]["a"]["budget"][-1] == 10000 and len(f1["panels"]["a"]["budget"]) == 11
    assert f1["panels"]["b"]["budget"] == 2000 and len(f1["panels"]["b"]["epsilon"]) == 11
    assert f2["algorithms"] == ("dp_bai", "dp_od") and f2["trials"] == 1000
    assert [p["epsilon"] for p in f2["panels"].values()] == [0.1, 0.5, 1.0, 5.0]
    assert f2["ratio"] == [1, 2, 5, 10, 20, 50, 100]
    assert all(v.startswith("[") for v in PROTOCOL["provenance"].values())
    for alg in f1["algorithms"] + f2["algorithms"]:
        assert alg in ALGORITHMS


def test_wilson_interval():
    lo, hi = wilson_interval(50, 100)
    assert lo == pytest.approx(0.4038, abs=1e-4) and hi == pytest.approx(0.5962, abs=1e-4)
    assert wilson_interval(0, 10)[0] == pytest.approx(0.0, abs=1e-12)
    assert bai.BaiResult(np.zeros(4, np.int64), np.array([1, 0, 1, 1], bool)).success_rate == 0.75


def test_instance_for_and_pipeline_chunk():
    from dpbandits.bai.linear_instances import instance_for
    from dpbandits.pipeline.entry_bai import run_bai_chunk

    arms, theta, reward = instance_for(PROTOCOL["fig1"]["instance"])
    np.testing.assert_array_equal(arms, section5_instance()[0])
    assert reward == {"reward": "uniform"}
    arms, theta, _ = instance_for({**PROTOCOL["fig2"]["instance"], "ratio": 10})
    np.testing.assert_array_equal(arms, two_arm_instance(10)[0])
    with pytest.raises(ValueError, match="instance"):
        instance_for({"name": "nope"})
    # a BAI job is one curve: every point equals the point simulated alone
    spec = {
        "algorithm": "dp_bai",
        "instance": {"name": "two_arm"},
        "horizon": 300,
        "epsilons": [0.5],
        "params": {},
        "seed": 3,
        "sweep": {"x": "ratio", "values": [2, 5]},
    }
    meta, arrays, info = run_bai_chunk(spec, 4, 10)
    assert arrays["recommended"].shape == (2, 6)
    successes = 0
    for row, ratio in zip(arrays["recommended"], (2, 5), strict=True):
        direct = simulate_bai("dp_bai", *two_arm_instance(ratio), 300, 0.5, 6, 3, first_run=4)
        np.testing.assert_array_equal(row, direct.recommended)
        successes += int(direct.success.sum())
    assert info == {"trials": 12, "successes": successes}
    assert meta["run_ids"] == list(range(4, 10))
