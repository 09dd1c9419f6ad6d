"""The benchmark CLI: report structure, pipeline estimate, argument checks (no timing assertions)."""

import json

import pytest

from dpbandits.bench.cli import main
from dpbandits.bench.cost import job_overhead, makespan, ns_per_pull
from dpbandits.bench.timing import regret_algorithms


def test_bench_writes_json_and_markdown(tmp_path, capsys):
    out = tmp_path / "bench.json"
    report = main(
        [
            "--algorithms",
            "ucb",
            "dp_ucb",
            "--k",
            "3",
            "5",
            "--horizon",
            "3000",
            "--reference-horizon",
            "200",
            "--runs",
            "2",
            "--repeats",
            "1",
            "--reference-repeats",
            "2",
            "--out",
            str(out),
            "--job-overhead",
            "0.5",
            "--cores",
            "1",
            "2",
            "--laws",
            "bernoulli",
            "beta",
        ]
    )
    data = json.loads(out.read_text())
    assert data == json.loads(json.dumps(report))
    meta = data["meta"]
    assert (meta["instance"], meta["epsilon"], meta["horizon"], meta["runs"]) == ("C2", 0.5, 3000, 2)
    assert meta["reference_repeats"] == 2
    assert len(meta["load_before"]) == 3 and "numba" in meta["versions"]
    assert meta["laws"] == ["bernoulli", "beta"]
    assert [(r["algorithm"], r["k"], r["rewards"]) for r in data["rows"]] == [
        (name, k, law) for name in ("ucb", "dp_ucb") for k in (3, 5) for law in ("bernoulli", "beta")
    ]
    for row in data["rows"]:
        assert row["fast_pulls"] == 6000 and row["fast_ns_per_pull"] > 0 and not row["collapsed"]
        if row["rewards"] == "bernoulli":  # the twin is timed under the default law only
            assert row["ratio"] == pytest.approx(row["reference_ns_per_pull"] / row["fast_ns_per_pull"])
        else:
            assert row["ratio"] is None and row["reference_ns_per_pull"] is None
        assert row["tracemalloc_peak_kib"] > 0 and row["maxrss_delta_kib"] >= 0
    est = data["pipeline_estimate"]
    assert est["job_overhead_s"] == 0.5 and est["jobs"] == sum(e["jobs"] for e in est["per_algorithm"].values())
    assert est["per_algorithm"]["dp_ucb"]["measured"] and est["per_algorithm"]["dp_ucb"]["pulls"] > 0
    assert "dp_bai" in est["unmeasured"] and "dp_ucb" not in est["unmeasured"]
    assert est["core_seconds"] == pytest.approx(sum(e["core_seconds"] for e in est["per_algorithm"].values()))
    assert est["wall_seconds"]["1"] == pytest.approx(est["core_seconds"])
    assert est["core_seconds"] / 2 <= est["wall_seconds"]["2"] <= est["wall_seconds"]["1"]
    assert data["pipeline_measured"] is None
    text = capsys.readouterr().out
    assert "| algorithm | K | rewards | fast ns per (simulated*) pull |" in text and "Pipeline estimate" in text
    assert "| ucb | 3 | beta |" in text


def test_estimate_helpers():
    rows = [{"algorithm": "a", "k": 5, "fast_ns_per_pull": 10.0}, {"algorithm": "a", "k": 20, "fast_ns_per_pull": 25.0}]
    assert ns_per_pull(rows, "a", 10) == pytest.approx(15.0)
    assert ns_per_pull(rows, "a", 3) == 10.0 and ns_per_pull(rows, "a", 30) == 25.0
    assert ns_per_pull(rows, "b", 5) is None
    laws = [{**rows[0], "rewards": "beta", "fast_ns_per_pull": 40.0}, *rows]  # measured beta at K = 5 only
    assert ns_per_pull(laws, "a", 30, "beta") == 40.0 and ns_per_pull(laws, "a", 30, "uniform") == 25.0
    assert makespan([3, 3, 2, 2, 2], 2) == 7 and makespan([3, 3, 2, 2, 2], 1) == 12
    assert regret_algorithms() == sorted(regret_algorithms()) and "dp_ucb" in regret_algorithms()


def test_job_overhead_runs_the_pipeline_entry_point():
    spec = {
        "kind": "regret",
        "algorithm": "ucb",
        "instance": {"name": "tossou_2arm"},
        "horizon": 10**6,
        "epsilons": [None],
        "params": {"tie_break": "random"},
        "seed": 1,
        "checkpoints": 20,
    }
    assert 0 < job_overhead(spec, repeats=1) < 60


@pytest.mark.parametrize("args", [["--horizon", "0"], ["--runs", "0"], ["--reference-repeats", "0"], ["--k", "1"]])
def test_bad_arguments(args, tmp_path):
    with pytest.raises(SystemExit) as exc:
        main([*args, "--out", str(tmp_path / "x.json"), "--no-pipeline-estimate"])
    assert exc.value.code == 2  # argparse's usage error


@pytest.mark.parametrize(
    ("args", "culprit"),
    [(["--algorithms", "dp_bai"], "--algorithms"), (["--config", "no/such.yaml"], "--config no/such.yaml")],
)
def test_bad_values_are_named(args, culprit, tmp_path):
    with pytest.raises(ValueError, match=f"^{culprit}"):
        main([*args, "--out", str(tmp_path / "x.json"), "--no-pipeline-estimate"])
