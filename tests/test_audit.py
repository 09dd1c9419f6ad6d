"""Statistical privacy audit: real algorithms pass, under-noised controls and UCB are flagged."""

import ast
import math

import numpy as np
import pandas as pd
import pytest
from _draws import Recorder

import dpbandits
from dpbandits.audit import run
from dpbandits.audit.cli import main
from dpbandits.audit.loss import DEFAULT_TRIALS, AuditResult, audit_algorithm
from dpbandits.audit.report import power_table
from dpbandits.audit.run import CONTROL_NOISE_FACTOR, audit_all
from dpbandits.audit.runners import default_algorithms, kernel_actions, run_policy_on_table
from dpbandits.audit.stats import clopper_pearson, log_ratio_lower
from dpbandits.core.audit_tables import generic_candidates, threshold_candidates
from dpbandits.mechanisms.noise import ScaledNoise

# Audited at the default trials (the power run below); every private algorithm of the registry is also audited
# at fewer trials by the contract (tests/test_contract.py).
PRIVATE = ["dp_ucb_bound", "dp_ucb_tossou", "dp_ucb_int", "private_ucb"]
REPLAYED = [n for n, a in dpbandits.ALGORITHMS.items() if a.kind == "regret" and a.replay is not None]


def test_runner_reads_the_table_in_pull_order():
    table = np.array([[1.0, 1.0, 0.0, 0.0, 0.0, 0.0], [0.0, 1.0, 1.0, 1.0, 1.0, 1.0]])
    actions = run_policy_on_table("ucb", table, 1.0, np.random.default_rng(0), tie_break="first")
    # UCB by hand on the same table (rewards popped per arm, first-index ties)
    s, n, expected = [0.0, 0.0], [0, 0], []
    for t in range(1, 7):
        if t <= 2:
            a = t - 1
        else:
            idx = [s[i] / n[i] + math.sqrt(2 * math.log(t) / n[i]) for i in range(2)]
            a = int(np.argmax(idx))
        s[a] += table[a, n[a]]
        n[a] += 1
        expected.append(a)
    assert actions == tuple(expected)
    assert len(set(actions)) == 2


def test_scaled_laplace_proxy():
    g1, g2 = np.random.default_rng(5), np.random.default_rng(5)
    proxy = ScaledNoise(g1, 0.25)
    assert np.array_equal(proxy.laplace(1.0, 2.0, size=4), g2.laplace(1.0, 0.5, size=4))
    assert proxy.laplace(0.0, 4.0) == g2.laplace(0.0, 1.0)
    assert proxy.random() == g2.random() and proxy.integers(0, 9) == g2.integers(0, 9)
    assert proxy.normal(0.0, 1.0) == g2.normal(0.0, 1.0)  # not scaled by default
    gauss = ScaledNoise(g1, 0.5, methods=("normal",))
    assert gauss.normal(0.0, 2.0) == g2.normal(0.0, 1.0) and gauss.laplace(0.0, 1.0) == g2.laplace(0.0, 1.0)
    with pytest.raises(ValueError, match="noise_factor"):
        ScaledNoise(g1, 0.0)


def test_clopper_pearson_closed_forms():
    lo, hi = clopper_pearson(np.array([0, 10]), 10, 0.05)
    assert lo[0] == 0.0 and hi[1] == 1.0
    assert hi[0] == pytest.approx(1 - 0.05 ** (1 / 10))
    assert lo[1] == pytest.approx(0.05 ** (1 / 10))
    # equal counts: the lower bound of the log ratio is negative; delta only lowers it
    assert log_ratio_lower(500, 1000, 500, 1000, 0.01) < 0
    assert log_ratio_lower(500, 1000, 0, 1000, 0.01, delta=0.1) < log_ratio_lower(500, 1000, 0, 1000, 0.01)


def test_default_algorithms_are_every_private_algorithm():
    names = default_algorithms()
    assert names == [n for n, a in dpbandits.ALGORITHMS.items() if a.private]
    assert set(PRIVATE) <= set(names) and "ucb" not in names
    assert {"dp_bai", "dp_od"} <= set(names) and "od_linbai" not in names  # BAI via run_on_table


def test_an_algorithm_without_a_twin_fails_the_audit(monkeypatch):
    from dataclasses import replace

    alg = dpbandits.ALGORITHMS["ucb"]
    monkeypatch.setitem(dpbandits.ALGORITHMS, "ucb", replace(alg, reference=None))
    with pytest.raises(ValueError, match="'ucb' has no reference twin"):
        audit_algorithm("ucb", trials=100)


@pytest.mark.parametrize("name", PRIVATE)
def test_real_algorithm_is_consistent(name):
    r = audit_algorithm(name, epsilon=1.0, seed=3)
    assert r.trials == DEFAULT_TRIALS and r.noise_factor == 1.0
    assert r.verdict == "consistent", r
    assert 0.0 <= r.loss_lower <= 1.0
    if name == "dp_ucb_int":
        assert r.delta == pytest.approx(math.exp(-10)) and r.horizon == 2 * 16 + 6


@pytest.mark.parametrize("name", PRIVATE)
def test_under_noised_control_is_flagged(name):
    # CONTROL_NOISE_FACTOR makes the first data-dependent decision nearly deterministic in the flipped
    # reward: the chosen event has probability ~1/2 vs ~0, so at the default trials the lower bound is
    # ~4.0-6.7 (80/80 audits caught over 20 seeds in the power run), far above epsilon = 1.
    r = audit_algorithm(name, epsilon=1.0, seed=3, noise_factor=CONTROL_NOISE_FACTOR)
    assert r.verdict == "violation", r
    assert r.loss_lower > 3.0
    assert r.loss_estimate >= r.loss_lower


def test_dp_se_audit_uses_the_threshold_table():
    from dpbandits.bandits.dp_se import epoch_schedule

    _, n, h, c = epoch_schedule(2, 1, 1.0, 0.9)
    r = audit_algorithm("dp_se", 1.0, 100, seed=0)
    assert r.horizon == 2 * n + 2 and r.params["beta"] == 0.9
    assert r.table.startswith(f"threshold {math.ceil((2 * h + 2 * c) * n)}/{n}")


def test_threshold_candidates():
    (label, table, flip1), (_, table2, flip2) = threshold_candidates(2, 12, 10, 3)
    assert label == "threshold 3/10" and table is table2
    assert table[0].tolist() == [0] * 7 + [1] * 3 + [0, 0] and not table[1].any()
    assert table[0, flip1[1]] == 1 and table[0, flip2[1]] == 0  # flips make the count 2 and 4


def test_ucb_is_reported_not_private():
    r = audit_algorithm("ucb", epsilon=1.0, trials=1000, seed=0)
    assert r.verdict == "not private" and r.loss_lower > 3.0


def test_bad_arguments():
    with pytest.raises(ValueError, match="epsilon"):
        audit_algorithm("dp_ucb_bound", epsilon=0.0)
    with pytest.raises(ValueError, match="algorithm"):
        audit_algorithm("no_such_algorithm")
    with pytest.raises(ValueError, match="trials"):
        audit_algorithm("dp_ucb_bound", trials=3)
    with pytest.raises(ValueError, match="table"):
        run_policy_on_table("ucb", np.zeros(4), 1.0, np.random.default_rng(0))
    with pytest.raises(ValueError, match="v"):
        audit_algorithm("dp_ucb_int", v=0.5)


def test_cli_writes_csv_and_markdown(tmp_path):
    main(
        [
            "--out",
            str(tmp_path),
            "--trials",
            "300",
            "--algorithms",
            "dp_ucb_int",
            "ucb",
            "dp_se",
            "--power-factors",
            "0.5",
        ]
    )
    df = pd.read_csv(tmp_path / "audit.csv")
    control = f"control x{CONTROL_NOISE_FACTOR:g}"
    rows = list(zip(df["algorithm"], df["engine"], df["variant"], df["role"], df["verdict"], strict=True))
    assert rows == [
        ("dp_ucb_int", "twin", "real", "real", "consistent"),
        ("dp_ucb_int", "twin", control, "control", "violation"),
        ("dp_ucb_int", "twin", "control x0.5", "power", "consistent"),
        ("dp_ucb_int", "kernel", "real", "real", "consistent"),
        ("dp_ucb_int", "kernel", control, "control", "violation"),
        ("dp_ucb_int", "fast", "real", "real", "consistent"),
        ("ucb", "twin", "real", "real", "not private"),
        ("ucb", "kernel", "real", "real", "not private"),
        ("dp_se", "twin", "real", "real", "consistent"),
        ("dp_se", "twin", control, "control", "violation"),
        ("dp_se", "twin", "control x0.5", "power", "consistent"),
        ("dp_se", "fast", "real", "real", "consistent"),
    ]
    assert (df["seconds"] > 0).all()
    md = (tmp_path / "audit.md").read_text()
    assert "| dp_ucb_int | kernel | control x" in md
    assert "Audited this way: `dp_ucb_int`, `ucb`." in md and "Audited this way: `dp_ucb_int`, `dp_se`." in md
    power = md.split("## Power")[1]
    assert "| dp_ucb_int | flagged (" in power and "| not flagged (" in power and "| x0.02 |" in power
    assert "| ucb |" not in power and "seed 0 for every row" in power
    assert set(dpbandits.ALGORITHMS["dp_ucb_int"].params) <= set(ast.literal_eval(df["params"][0]))


# ------------------------------------------------------------------------------ fast kernels through replay


def _audit_tables(name):
    """The audit plan's (table, flipped table) pairs of ``name`` at epsilon = 1."""
    alg = dpbandits.ALGORITHMS[name]
    width, candidates = alg.audit.plan(1.0, alg.resolve({})) if alg.audit.plan else (8, None)
    for _, base, (a, j) in candidates or generic_candidates(2, width):
        flipped = base.copy()
        flipped[a, j] = 1 - flipped[a, j]
        yield base
        yield flipped


@pytest.mark.parametrize("name", REPLAYED)
def test_kernel_actions_reproduce_the_twin_on_its_draws(name):
    # the fast kernel's replay fed the twin's own draws (Laplace values, tie picks) on a reward table must
    # release the twin's action sequence: on the audit's tables and on random 0/1 tables
    assert {"dp_ucb", "dp_ucb_bound", "dp_ucb_int", "dp_ucb_tossou", "private_ucb", "ucb"} <= set(REPLAYED)
    tables = list(_audit_tables(name))
    width = tables[0].shape[1]
    tables += [np.random.default_rng(s).integers(0, 2, (2, width)).astype(float) for s in range(20)]
    params = dpbandits.ALGORITHMS[name].audit.params  # the audit's hints (LDP-UCB-L: no forced exploration)
    seen = set()
    for seed in range(10):
        for table in tables:
            draws = Recorder(np.random.default_rng(seed))
            twin = run_policy_on_table(name, table, 1.0, draws, **params)
            assert kernel_actions(name, table, 1.0, draws.eta, draws.picks, **params) == twin, (seed, table)
            seen.add(twin)
    assert len(seen) >= 2  # the tables and draws change the actions: the comparison is not vacuous


@pytest.mark.parametrize("name", [n for n in REPLAYED if dpbandits.ALGORITHMS[n].private])
def test_kernel_audit_passes_and_flags_its_control(name):
    real = audit_algorithm(name, epsilon=1.0, trials=1000, seed=5, engine="kernel")
    control = audit_algorithm(
        name, epsilon=1.0, trials=1000, seed=5, noise_factor=CONTROL_NOISE_FACTOR, engine="kernel"
    )
    assert real.engine == control.engine == "kernel"
    assert real.verdict == "consistent" and real.loss_lower <= 1.0, real
    assert control.verdict == "violation" and control.loss_lower > 2.0, control


def test_kernel_audit_bad_arguments():
    with pytest.raises(ValueError, match="engine"):
        audit_algorithm("dp_ucb_bound", trials=100, engine="numba")
    with pytest.raises(ValueError, match="'dp_se' declares no replay"):
        audit_algorithm("dp_se", trials=100, engine="kernel")
    with pytest.raises(ValueError, match="0 or 1"):
        kernel_actions("dp_ucb_bound", np.full((2, 8), 0.5), 1.0, np.zeros(16), np.zeros(8))


# ----------------------------------------------------------------------------------------------- power


def _fake_audit(threshold):
    """audit_algorithm stand-in: a violation iff noise_factor < ``threshold`` (recording the factors)."""
    calls = []

    def fake(name, epsilon, trials, seed, noise_factor, *, alpha, engine):
        calls.append((engine, noise_factor))
        lower = 5.0 if noise_factor < threshold else 0.1
        return AuditResult(
            name,
            engine,
            epsilon,
            0.0,
            noise_factor,
            True,
            8,
            trials,
            trials // 4,
            "zeros 2x8",
            (0, 0),
            "",
            1,
            lower,
            lower,
            lower,
            alpha,
            "violation" if noise_factor < threshold else "consistent",
        )

    return fake, calls


@pytest.mark.parametrize(
    ("threshold", "expected"),
    [
        (0.01, [0.02]),  # control not flagged: no power rows
        (0.05, [0.02, 0.1]),
        (0.3, [0.02, 0.1, 0.25, 0.5]),
        (2.0, [0.02, 0.1, 0.25, 0.5]),  # every factor flagged
    ],
)
def test_power_rows_stop_at_the_first_factor_not_flagged(monkeypatch, threshold, expected):
    fake, calls = _fake_audit(threshold)
    monkeypatch.setattr(run, "audit_algorithm", fake)
    df = audit_all(["dp_ucb_bound"], trials=100)
    assert calls == [("twin", 1.0), *(("twin", f) for f in expected), ("kernel", 1.0), ("kernel", 0.02), ("fast", 1.0)]
    assert list(df["role"]) == ["real", "control", *["power"] * (len(expected) - 1), "real", "control", "real"]
    table = power_table(df, [0.02, 0.1, 0.25, 0.5]).loc["dp_ucb_bound"]
    flagged = [f for f in expected if f < threshold]
    assert table["smallest under-noising detected"] == (f"x{max(flagged):g}" if flagged else "none")
    for f in (0.02, 0.1, 0.25, 0.5):
        cell = table[f"x{f:g}"]
        assert cell == ("not run" if f not in expected else "flagged (5.00)" if f < threshold else "not flagged (0.10)")


def test_power_factors_are_checked():
    for bad in ([0.5, 0.25], [0.01], [1.0]):
        with pytest.raises(ValueError, match="power_factors"):
            audit_all(["dp_ucb_bound"], trials=100, power_factors=bad)
