"""The privacy-utility frontier: its lower bounds, its best-algorithm reading, its figures and its budget."""

from __future__ import annotations

import copy
import math
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from dpbandits.drawing import frontier
from dpbandits.mechanisms.klucb import kl_bernoulli
from dpbandits.pipeline import configfile, planning
from dpbandits.pipeline.catalogue.costs import estimated_seconds
from dpbandits.pipeline.catalogue.expand import expand
from dpbandits.pipeline.catalogue.model import ConfigError, Curve, Figure, Panel

ROOT = Path(__file__).resolve().parents[1]


def test_bounds_match_their_formulas_on_two_arms():
    means, horizon = [0.6, 0.5], 22026  # ln T ~ 10
    log_t = math.log(horizon)
    lr = 0.1 * log_t / kl_bernoulli(0.5, 0.6)
    loose = frontier.lower_bounds(means, horizon, 100.0)  # epsilon * gap = 10 > kl: the non-private term decides
    assert loose["lai_robbins"] == pytest.approx(lr)
    assert loose["azize_basu"] == pytest.approx(lr)
    tight = frontier.lower_bounds(means, horizon, 0.01)  # epsilon * gap = 1e-3 < kl ~ 0.02: privacy decides
    assert tight["azize_basu"] == pytest.approx(log_t / 0.01)  # gap / (epsilon gap) per suboptimal arm
    assert tight["shariff_sheffet"] == pytest.approx(2 * log_t / 0.01)
    assert tight["uniform_play"] == pytest.approx(horizon * 0.05)
    assert tight["lai_robbins"] == loose["lai_robbins"]
    public = frontier.lower_bounds(means, horizon, None)
    assert np.isnan(public["azize_basu"]) and np.isnan(public["shariff_sheffet"])


def test_the_private_bound_decreases_in_epsilon_to_the_non_private_one():
    means = [0.9, 0.8, 0.8, 0.5]
    values = [frontier.lower_bounds(means, 10**5, e)["azize_basu"] for e in np.geomspace(0.01, 10, 10)]
    assert all(a >= b for a, b in zip(values, values[1:], strict=False))
    assert values[-1] == pytest.approx(frontier.lower_bounds(means, 10**5, 10.0)["lai_robbins"])


def _figure(laws=("bernoulli",)):
    """A two-algorithm frontier figure on two arms (no simulation): one panel per law."""
    curves = [Curve(f"{a} {e}", a, e, "cid") for a in ("dp_se", "dp_ucb_int") for e in (0.1, 1.0)]
    panels = [
        Panel(law, {"means": [0.6, 0.5], **({} if law == "bernoulli" else {"rewards": law})}, curves, x="epsilon")
        for law in laws
    ]
    spec = {"kind": "regret", "caption": "test", "band": "sem", "xscale": "log"}
    return Figure("crosspaper", "frontier/test", spec, 10, panels)


def _table(regret: dict, laws=("bernoulli",)) -> pd.DataFrame:
    """A curve table's final rows: ``regret[(algorithm, epsilon)]`` = mean final regret, in every panel."""
    rows = [
        {"panel": p, "curve": f"{a} {e}", "algorithm": a, "epsilon": e, "t": 1000, "mean": m, "sem": 1.0, "runs": 10}
        for p in range(len(laws))
        for (a, e), m in regret.items()
    ]
    early = [dict(r, t=10, mean=0.0) for r in rows]  # an earlier checkpoint, which the reading must skip
    return pd.DataFrame(early + rows)


@pytest.mark.parametrize("low_winner", ["dp_se", "dp_ucb_int"])
def test_the_best_private_algorithm_is_read_per_cell(low_winner):
    other = "dp_ucb_int" if low_winner == "dp_se" else "dp_se"
    regret = {(low_winner, 0.1): 50.0, (other, 0.1): 80.0, (low_winner, 1.0): 30.0, (other, 1.0): 20.0}
    regret[("ucb", np.nan)] = 5.0  # non-private: never the best private algorithm
    rows = frontier.frontier_rows(_figure(), _table(regret))
    best = frontier.best_private(rows).set_index("epsilon")["algorithm"]
    assert best.to_dict() == {0.1: low_winner, 1.0: other}
    cell = rows[(rows["algorithm"] == other) & (rows["epsilon"] == 1.0)].iloc[0]
    largest = max(frontier.lower_bounds([0.6, 0.5], 1000, 1.0)[b] for b in frontier.BOUNDS)
    assert cell["ratio_to_bound"] == pytest.approx(20.0 / largest)
    assert cell["horizon"] == 1000 and cell["runs"] == 10
    assert rows.loc[rows["algorithm"] == "ucb", "ratio_to_bound"].isna().all()


@pytest.mark.parametrize(("second", "clear"), [(60.0, True), (52.0, False)])
def test_a_win_within_two_standard_errors_is_not_clear(second, clear):
    regret = {("dp_se", 0.5): 50.0, ("dp_ucb_int", 0.5): second, ("private_ucb", 0.5): 90.0}
    rows = frontier.frontier_rows(_figure(), _table(regret))  # every s.e. is 1: the difference's is sqrt(2)
    best = frontier.best_private(rows).iloc[0]
    assert best["algorithm"] == "dp_se" and best["runner_up"] == "dp_ucb_int"
    assert best["margin"] == pytest.approx((second - 50.0) / math.sqrt(2))
    assert (best["margin"] >= frontier.CLEAR) == clear


def test_the_ranking_is_per_law():
    laws = ("bernoulli", "beta")
    regret = {("dp_se", e): 10.0 for e in (0.1, 1.0)} | {("dp_ucb_int", e): 20.0 for e in (0.1, 1.0)}
    rows = frontier.frontier_rows(_figure(laws), _table(regret, laws))
    rows.loc[(rows["law"] == "beta") & (rows["algorithm"] == "dp_se"), "final_regret"] = 30.0  # beta reverses it
    extra = rows[rows["law"] == "bernoulli"].assign(instance="Bernoulli only", final_regret=99.0)
    rank = frontier.ranking(pd.concat([rows, extra], ignore_index=True)).set_index(["law", "algorithm"])
    assert rank.loc[("bernoulli", "dp_se"), "mean_rank"] == 1.0 and rank.loc[("beta", "dp_se"), "mean_rank"] == 2.0
    assert rank.loc[("beta", "dp_ucb_int"), "wins"] == 2 and rank.loc[("beta", "dp_ucb_int"), "cells"] == 2


def test_other_laws_carry_no_bernoulli_bound():
    laws = ("bernoulli", "beta")
    regret = {("dp_se", 0.5): 10.0, ("dp_ucb_int", 0.5): 12.0}
    rows = frontier.frontier_rows(_figure(laws), _table(regret, laws))
    beta = rows[rows["law"] == "beta"]
    assert beta[list(frontier.BOUNDS)].isna().all().all() and beta["ratio_to_bound"].isna().all()
    assert beta["uniform_play"].notna().all()
    assert rows[rows["law"] == "bernoulli"]["ratio_to_bound"].notna().all()


def test_frontier_figures_draw(tmp_path):
    laws = ("bernoulli", "beta")
    regret = {(a, e): 10.0 + i + e for i, a in enumerate(["dp_se", "dp_ucb_int"]) for e in (0.1, 1.0)}
    regret[("ucb", np.nan)] = 3.0
    fig, table = _figure(laws), _table(regret, laws)
    mfig = frontier.frontier_figure(fig, table)
    assert len([ax for ax in mfig.axes if ax.get_visible()]) == 2
    path = tmp_path / "frontier" / "test.csv"
    path.parent.mkdir()
    table.to_csv(path, index=False)
    out = frontier.write_frontier(
        [(fig, path)], tmp_path / "f.csv", tmp_path / "r.csv", tmp_path / "s.pdf", tmp_path / "s.png"
    )
    assert (tmp_path / "s.png").stat().st_size > 0 and len(pd.read_csv(tmp_path / "f.csv")) == len(out) == 10
    rank = pd.read_csv(tmp_path / "r.csv")
    assert list(rank["law"].unique()) == list(laws) and set(rank["algorithm"]) == {"dp_se", "dp_ucb_int"}


def _config() -> dict:
    return configfile.load([ROOT / "config" / "config.yaml"])


def test_a_frontier_figure_simulates_each_algorithm_once_for_every_epsilon():
    config = _config()
    sims, figures = expand(config)
    fig = figures["crosspaper"]["frontier/C1"]
    assert fig.frontier and not figures["crosspaper"]["C1"].frontier
    grid = sorted(fig.spec["epsilons"])
    assert len(grid) >= 9 and grid[0] == pytest.approx(0.01) and grid[-1] == pytest.approx(10.0)
    cids = {c.algorithm: c.cid for p in fig.panels for c in p.curves}
    for name, cid in cids.items():
        spec = sims[cid]
        assert spec.algorithm == name and spec.horizon == fig.spec["horizon"]
        assert list(spec.epsilons) == ([None] if spec.epsilons == (None,) else grid)


def test_a_regret_figure_refuses_another_x_by_its_key():
    config = copy.deepcopy(_config())
    config["papers"]["crosspaper"]["figures"]["frontier/C1"]["x"] = "budget"
    with pytest.raises(ConfigError, match=r"papers\.crosspaper\.figures\.frontier/C1\.panels\[0\]\.x"):
        expand(config)


def _core_seconds(config: dict) -> float:
    """Estimated core-seconds of every simulation the pipeline plans for ``config`` (readings included)."""
    plan = planning.plan(copy.deepcopy(config))
    return sum(estimated_seconds(spec, spec.runs) for spec in plan.sims.values())


def test_the_frontier_adds_at_most_a_fifth_to_the_pipelines_core_time():
    """Measured as the plan with the frontier figures against the plan without them: a frontier configuration
    that shares an (algorithm, instance, T) with a paper's figure adds its epsilons to that configuration."""
    config = _config()
    without = copy.deepcopy(config)
    figures = without["papers"]["crosspaper"]["figures"]
    assert any(f.get("x") == "epsilon" for f in figures.values())
    without["papers"]["crosspaper"]["figures"] = {k: f for k, f in figures.items() if f.get("x") != "epsilon"}
    rest = _core_seconds(without)
    added = _core_seconds(config) - rest
    assert added > 0, "the frontier simulates nothing of its own"
    assert added <= 0.2 * rest, f"the frontier adds {added / rest:.0%} to the pipeline's estimated core time"


def _frontier_block(**extra) -> dict:
    raw = {
        "seed": 1,
        "papers": {
            "p": {
                "figures": {
                    "fig1": {
                        "instance": {"name": "C1", "k": 5},
                        "horizon": 100,
                        "runs": 2,
                        "epsilons": [1],
                        "curves": ["ucb"],
                        "panels": [{"title": "one"}],
                    }
                },
                "frontier": {
                    "instances": [{"name": "C1", "k": 5}, {"name": "tossou_2arm"}],
                    "horizon": 500,
                    "runs": 3,
                    "epsilons": [0.1, 1.0],
                    "caption": "Frontier on {instance}.",
                    **extra,
                },
            }
        },
    }
    return raw


def test_a_frontier_block_expands_to_one_figure_per_instance():
    config = configfile.prepare(_frontier_block())
    figures = config["papers"]["p"]["figures"]
    assert list(figures) == ["fig1", "frontier/C1", "frontier/tossou_2arm"]
    fig = figures["frontier/tossou_2arm"]
    assert fig["x"] == "epsilon" and fig["horizon"] == 500 and fig["runs"] == 3 and fig["curves"] == "all"
    assert fig["caption"] == "Frontier on tossou_2arm." and fig["panels"] == [{"title": "Bernoulli rewards"}]
    assert "frontier" not in config["papers"]["p"]
    assert configfile.prepare(copy.deepcopy(config)) == config  # preparing again changes nothing


@pytest.mark.parametrize(
    ("instances", "match"),
    [
        ([{"means": [0.5, 0.4]}], r"^papers\.p\.frontier\.instances\[0\]\.name: missing"),
        ([{"name": "C1", "k": 5}, {"name": "C1", "k": 3}], r"^papers\.p\.frontier\.instances\[1\]\.name: .*already"),
    ],
)
def test_a_frontier_block_names_a_bad_instance(instances, match):
    raw = _frontier_block()
    raw["papers"]["p"]["frontier"]["instances"] = instances
    with pytest.raises(ConfigError, match=match):
        configfile.prepare(raw)


def test_a_frontier_block_draws_other_laws_on_the_instances_it_names():
    config = configfile.prepare(_frontier_block(rewards={"beta": ["tossou_2arm"], "uniform": ["tossou_2arm"]}))
    figures = config["papers"]["p"]["figures"]
    assert [p["title"] for p in figures["frontier/C1"]["panels"]] == ["Bernoulli rewards"]
    panels = figures["frontier/tossou_2arm"]["panels"]
    assert [p.get("instance", {}).get("rewards") for p in panels] == [None, "beta", "uniform"]
    with pytest.raises(ConfigError, match=r"^papers\.p\.frontier\.rewards\.beta\[0\]: 'C9' is not one"):
        configfile.prepare(_frontier_block(rewards={"beta": ["C9"]}))


def test_a_frontier_block_needs_its_grid():
    raw = _frontier_block()
    del raw["papers"]["p"]["frontier"]["epsilons"]
    with pytest.raises(ConfigError, match=r"^papers\.p\.frontier: 'epsilons' is a required property"):
        configfile.prepare(raw)


def test_a_panel_under_another_law_draws_only_the_algorithms_that_declare_it(monkeypatch):
    from dataclasses import replace

    from dpbandits.core import registry

    bernoulli_only = replace(registry.ALGORITHMS["ucb"], name="ucb_bernoulli_only", laws=("bernoulli",))
    monkeypatch.setitem(registry.ALGORITHMS, "ucb_bernoulli_only", bernoulli_only)
    config = configfile.prepare(_frontier_block(rewards={"beta": ["C1"]}))
    _, figures = expand(config)
    bern, beta = figures["p"]["frontier/C1"].panels
    assert "ucb_bernoulli_only" in {c.algorithm for c in bern.curves}
    assert "ucb_bernoulli_only" not in {c.algorithm for c in beta.curves} and beta.curves
    config["papers"]["p"]["figures"]["frontier/C1"]["curves"] = ["ucb", "ucb_bernoulli_only"]
    with pytest.raises(ConfigError, match=r"panels\[1\]\.curves\[1\]\.algorithm: ucb_bernoulli_only does not"):
        expand(config)
