"""The audit's fast-path engine, its power table and the drift check of ``--check`` against the baseline."""

import math

import numpy as np
import pandas as pd
import pytest

from dpbandits.audit import loss, power
from dpbandits.audit.baseline import BASELINE, drift, load_baseline, write_baseline
from dpbandits.audit.loss import AuditResult, audit_algorithm
from dpbandits.audit.power import needed_trials, power_markdown, power_table
from dpbandits.audit.run import audit_all
from dpbandits.audit.runners import constant_candidates, constant_means

SETTINGS = {"trials": 1500, "seed": 11, "alpha": 0.05, "epsilon": 1.0, "ladder": [100]}


def test_needed_trials_written_out():
    # gap 0.4 at 1000 trials must shrink to estimate - epsilon = 0.2: (0.4 / 0.2)^2 = 4 times the trials
    assert needed_trials(1000, 1.2, 0.8, 1.0) == pytest.approx(4000.0)
    assert needed_trials(1000, 1.0, 0.5, 1.0) == math.inf and needed_trials(1000, 0.7, 0.1, 1.0) == math.inf


def test_constant_tables():
    assert constant_means(np.array([[1.0, 1.0], [0.0, 0.0]])).tolist() == [1.0, 0.0]
    assert constant_means(np.array([[1.0, 0.0], [0.0, 0.0]])) is None
    cands = constant_candidates(2, 6, [(0, 4)])
    assert all(constant_means(t) is not None for _, t, _ in cands) and cands[-1][2] == (0, 4)


def test_fast_engine_runs_the_kernel_and_refuses_a_scaled_noise():
    r = audit_algorithm("dp_ucb_bound", 1.0, 1500, seed=2, engine="fast")
    assert r.engine == "fast" and r.verdict == "consistent" and r.loss_lower <= 1.0
    assert all(len(e) == 2 for e in r.events.split(":")[1].split("|")[:1])  # pulls of K = 2 arms, e.g. "62"
    with pytest.raises(ValueError, match="noise_factor"):
        audit_algorithm("dp_ucb_bound", 1.0, 100, engine="fast", noise_factor=0.5)
    with pytest.raises(ValueError, match="dp_bai"):
        audit_algorithm("dp_bai", 1.0, 100, engine="fast")


def _fake(threshold, estimate_above=3.0):
    """audit_algorithm stand-in: flagged iff noise_factor < threshold and trials >= 800."""
    calls = []

    def fake(name, epsilon, trials, seed, noise_factor, *, alpha):
        calls.append((noise_factor, trials))
        hit = noise_factor < threshold and trials >= 800
        lower = 1.5 if hit else 0.5
        est = estimate_above if noise_factor < threshold else 0.9  # 0.9 <= epsilon: out of reach
        fields = (name, "twin", epsilon, 0.0, noise_factor, True, 8, trials, trials // 4, "t", (0, 0), "", 1)
        return AuditResult(*fields, est, lower, est, alpha, "violation" if hit else "consistent")

    return fake, calls


@pytest.mark.parametrize(
    ("threshold", "flagged", "expected"),
    [
        (0.6, "x0.5", [(0.5, 200), (0.5, 800)]),  # projected 200 * (2.5 / 2)^2 = 312 <= 3200: climb to 800
        (0.3, "x0.25", [(0.5, 200), (0.25, 200), (0.25, 800)]),  # x0.5 out of reach: next factor
        (0.01, "none", [(0.5, 200), (0.25, 200), (0.1, 200)]),
    ],
)
def test_power_table_climbs_the_ladder_and_stops_at_the_first_flag(monkeypatch, threshold, flagged, expected):
    fake, calls = _fake(threshold)
    monkeypatch.setattr(power, "audit_algorithm", fake)
    df = power_table(["dp_ucb_bound", "ucb"], ladder=[200, 800, 3200])
    assert list(df["algorithm"]) == ["dp_ucb_bound"]  # ucb is not private
    assert calls == expected and df["flagged"][0] == flagged
    assert df["trials"][0] == (800 if flagged != "none" else 0)
    assert df["x0.5 needs"][0] == (800 if flagged == "x0.5" else math.inf)
    md = power_markdown(df)
    assert f"| dp_ucb_bound | 1 | {flagged} |" in md and ("out of reach" in md) == (flagged != "x0.5")


def test_power_table_bad_arguments():
    with pytest.raises(ValueError, match="factors"):
        power_table(["dp_ucb_bound"], factors=[0.25, 0.5])
    with pytest.raises(ValueError, match="ladder"):
        power_table(["dp_ucb_bound"], ladder=[800, 200])


def _audit_rows(lowers):
    return pd.DataFrame(
        [
            {
                "algorithm": a,
                "engine": "twin",
                "noise_factor": 1.0,
                "role": "real",
                "loss_lower": lo,
                "loss_estimate": e,
            }
            for a, (lo, e) in lowers.items()
        ],
        columns=["algorithm", "engine", "noise_factor", "role", "loss_lower", "loss_estimate"],
    )


def _power_row(flagged, lower, estimate):
    return {
        "algorithm": "a",
        "epsilon": 1.0,
        "flagged": flagged,
        "x0.5 trials": 800,
        "x0.5 lower": lower,
        "x0.5 estimate": estimate,
    }


def test_drift_tolerance_is_the_two_half_widths(tmp_path):
    base = _audit_rows({"a": (0.016, 0.3), "b": (0.2, 0.5)})
    path = tmp_path / "b.json"
    write_baseline(base, pd.DataFrame([_power_row("x0.5", 1.2, 1.5)]), SETTINGS, path)
    old = load_baseline(path)
    same_power = pd.DataFrame([_power_row("x0.5", 1.2, 1.5)])
    assert drift(base, same_power, SETTINGS, old) == []
    # a's gaps 0.284 and 0.3: tolerance hypot = 0.413; 0.016 -> 0.4 stays, 0.016 -> 0.775 drifts
    assert drift(_audit_rows({"a": (0.4, 0.7)}), None, SETTINGS, old) == []
    bad = drift(_audit_rows({"a": (0.775, 1.075)}), None, SETTINGS, old)
    assert len(bad) == 1 and bad[0].startswith(
        "a (twin) real: loss lower bound 0.775, baseline 0.016 (tolerance 0.413)"
    )
    assert "no baseline row" in drift(_audit_rows({"c": (0.0, 0.0)}), None, SETTINGS, old)[0]
    assert "settings differ" in drift(base, None, {**SETTINGS, "seed": 12}, old)[0]


def test_drift_of_a_power_threshold(tmp_path):
    path = tmp_path / "b.json"
    write_baseline(_audit_rows({}), pd.DataFrame([_power_row("x0.5", 1.2, 1.5)]), SETTINGS, path)
    old = load_baseline(path)
    # x0.5 no longer flagged, its bound 0.5 well below: the threshold and the row drifted
    moved = drift(_audit_rows({}), pd.DataFrame([_power_row("none", 0.5, 0.8)]), SETTINGS, old)
    assert any("power threshold none, baseline x0.5" in m for m in moved) and any("power x0.5" in m for m in moved)
    # a borderline flip (both bounds within their half-widths of epsilon = 1) is not drift
    write_baseline(_audit_rows({}), pd.DataFrame([_power_row("x0.5", 1.05, 1.4)]), SETTINGS, path)
    assert drift(_audit_rows({}), pd.DataFrame([_power_row("none", 0.97, 1.3)]), SETTINGS, load_baseline(path)) == []


def test_check_fails_on_a_halved_sampler_scale(monkeypatch, tmp_path):
    # the planted drift: the package's Laplace sampler at half its scale, seen through the kernel's replay
    def audit(seed):
        df = audit_all(["ldp_ucb"], trials=SETTINGS["trials"], seed=seed, controls=False, power_factors=[])
        return df[df["engine"] == "kernel"]

    base = audit(11)
    path = tmp_path / "b.json"
    write_baseline(base, pd.DataFrame(), SETTINGS, path)
    old = load_baseline(path)
    assert drift(audit(12), None, SETTINGS, old) == []  # fresh draws of the same law stay within tolerance
    halve = loss.kernel_laplace
    monkeypatch.setattr(loss, "kernel_laplace", lambda rng, size, scale: halve(rng, size, scale * 0.5))
    bad = drift(audit(11), None, SETTINGS, old)
    assert len(bad) == 1 and bad[0].startswith("ldp_ucb (kernel) real"), bad


def test_committed_baseline_covers_every_private_algorithm():
    from dpbandits.audit.runners import default_algorithms

    data = load_baseline(BASELINE)
    assert {r["algorithm"] for r in data["audit"]} == set(default_algorithms())
    assert {r["algorithm"] for r in data["power"]} == set(default_algorithms())
