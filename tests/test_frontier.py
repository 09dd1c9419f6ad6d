"""The privacy-utility frontier: its lower bounds, its best-algorithm reading, its figures and its budget."""

from __future__ import annotations

import copy
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from dpbandits.drawing import frontier
from dpbandits.drawing.bounds import BOUNDS, lower_bounds
from dpbandits.drawing.winners import ranking, winners
from dpbandits.pipeline import configfile, planning
from dpbandits.pipeline.catalogue.costs import estimated_seconds
from dpbandits.pipeline.catalogue.expand import expand
from dpbandits.pipeline.catalogue.model import ConfigError, Curve, Figure, Panel

ROOT = Path(__file__).resolve().parents[1]


ALGS = ("dp_se", "adap_ucb", "dp_ucb_int")


def _figure(algorithms=("dp_se", "dp_ucb_int"), laws=("bernoulli",)):
    """A frontier figure on two arms (no simulation): one panel per law."""
    curves = [Curve(f"{a} {e}", a, e, "cid") for a in algorithms for e in (0.1, 1.0)]
    panels = [
        Panel(law, {"means": [0.6, 0.5], **({} if law == "bernoulli" else {"rewards": law})}, curves, x="epsilon")
        for law in laws
    ]
    spec = {"kind": "regret", "caption": "test", "band": "sem", "xscale": "log"}
    return Figure("crosspaper", "frontier/test", spec, 10, panels)


def _table(regret: dict, laws=("bernoulli",), horizon=1000) -> pd.DataFrame:
    """A curve table's final rows: ``regret[(algorithm, epsilon)]`` = mean final regret, in every panel."""
    rows = [
        {"panel": p, "curve": f"{a} {e}", "algorithm": a, "epsilon": e, "t": horizon, "mean": m, "sem": 1.0, "runs": 10}
        for p in range(len(laws))
        for (a, e), m in regret.items()
    ]
    early = [dict(r, t=10, mean=0.0) for r in rows]  # an earlier checkpoint, which the reading must skip
    return pd.DataFrame(early + rows)


@pytest.mark.parametrize("low_winner", ["dp_se", "adap_ucb"])
def test_the_winners_of_a_cell_are_read_within_its_privacy_model(low_winner):
    other = "adap_ucb" if low_winner == "dp_se" else "dp_se"
    regret = {(low_winner, 0.1): 50.0, (other, 0.1): 80.0, (low_winner, 1.0): 30.0, (other, 1.0): 20.0}
    regret[("dp_ucb_int", 0.1)] = regret[("dp_ucb_int", 1.0)] = 1.0  # (eps, delta)-DP: its own model
    regret[("ucb", np.nan)] = 5.0  # non-private: never a private cell's winner
    rows = frontier.frontier_rows(_figure(ALGS), _table(regret))
    cells = winners(rows).set_index(["model", "epsilon"])
    assert cells.loc[("pure", 0.1), "winners"] == low_winner and cells.loc[("pure", 1.0), "winners"] == other
    assert cells.loc[("approx", 0.1), "winners"] == "dp_ucb_int"
    cell = rows[(rows["algorithm"] == other) & (rows["epsilon"] == 1.0)].iloc[0]
    binding = max(lower_bounds([0.6, 0.5], 1000, 1.0)[b] for b in ("lai_robbins", "azize_basu", "azize_2025"))
    assert cell["model"] == "pure" and cell["ratio_to_bound"] == pytest.approx(20.0 / binding)
    int_row = rows[(rows["algorithm"] == "dp_ucb_int") & (rows["epsilon"] == 1.0)].iloc[0]
    assert int_row["bound"] == "lai_robbins"  # the eps-DP bounds do not bind an (eps, delta)-DP algorithm
    ucb = rows[rows["algorithm"] == "ucb"].iloc[0]
    assert ucb["model"] == "none" and ucb["bound"] == "lai_robbins"


def test_the_ranking_is_per_law():
    laws = ("bernoulli", "beta")
    regret = {("dp_se", e): 10.0 for e in (0.1, 1.0)} | {("adap_ucb", e): 20.0 for e in (0.1, 1.0)}
    rows = frontier.frontier_rows(_figure(ALGS, laws), _table(regret, laws))
    rows.loc[(rows["law"] == "beta") & (rows["algorithm"] == "dp_se"), "final_regret"] = 30.0  # beta reverses it
    extra = rows[rows["law"] == "bernoulli"].assign(instance="Bernoulli only", final_regret=99.0)
    rank = ranking(pd.concat([rows, extra], ignore_index=True)).set_index(["law", "algorithm"])
    assert rank.loc[("bernoulli", "dp_se"), "mean_rank"] == 1.0 and rank.loc[("beta", "dp_se"), "mean_rank"] == 2.0
    assert rank.loc[("beta", "adap_ucb"), "wins"] == 2 and rank.loc[("beta", "adap_ucb"), "cells"] == 2


@pytest.mark.parametrize(
    ("regret", "growth", "below", "cause"),
    [(160.0, 0.0, False, ""), (5.0, 0.0, True, "unexplained"), (5.0, 30.0, True, "offset")],
)
def test_a_regret_below_its_binding_bound_is_reported(regret, growth, below, cause):
    """T = 10^4 on means (0.6, 0.5) at eps = 0.1: the largest binding bound is Azize et al.'s (d_eps ~ 0.0088, so
    0.1 ln(10^4) / d_eps ~ 105, a rate of 105 / ln(10^4) ~ 11.4 per unit of ln t); it asks arm 2 for ln(10^4) /
    d_eps ~ 1050 pulls, fewer than T / 2. A regret far under it is an offset if it grows at the bound's rate over
    the last decade (30 > 11.4), else unexplained (0 + 2 s.e. < 11.4)."""
    table = _table({("dp_se", 0.1): regret, ("dp_se", 1.0): 40.0}, horizon=10**4)
    table["growth"], table["growth_sem"] = growth, 1.0
    row = frontier.frontier_rows(_figure(("dp_se",)), table).set_index("epsilon").loc[0.1]
    assert row["bound"] == "azize_2025" and 95 < row["azize_2025"] < 115
    assert bool(row["below"]) == below and row["cause"] == cause


def test_a_bound_the_horizon_cannot_reach_excuses_a_regret_below_it():
    """At T = 1000 and eps = 0.1 the same bound asks arm 2 for ln(1000) / d_eps ~ 790 pulls, more than T / 2."""
    rows = frontier.frontier_rows(_figure(("dp_se",)), _table({("dp_se", 0.1): 1.0, ("dp_se", 1.0): 40.0}))
    row = rows.set_index("epsilon").loc[0.1]
    assert row["below"] and row["cause"] == "pre-asymptotic"


def test_other_laws_carry_no_bernoulli_bound():
    laws = ("bernoulli", "beta")
    regret = {("dp_se", 0.5): 10.0, ("dp_ucb_int", 0.5): 12.0}
    rows = frontier.frontier_rows(_figure(laws=laws), _table(regret, laws))
    beta = rows[rows["law"] == "beta"]
    assert beta[list(BOUNDS)].isna().all().all() and beta["ratio_to_bound"].isna().all()
    assert beta["uniform_play"].notna().all() and not beta["below"].any()
    assert rows[rows["law"] == "bernoulli"]["ratio_to_bound"].notna().all()


def test_frontier_figures_draw(tmp_path):
    laws = ("bernoulli", "beta")
    regret = {(a, e): 10.0 + i + e for i, a in enumerate(["dp_se", "dp_ucb_int"]) for e in (0.1, 1.0)}
    regret[("ucb", np.nan)] = 3.0
    fig, table = _figure(laws=laws), _table(regret, laws)
    mfig = frontier.frontier_figure(fig, table)
    assert len([ax for ax in mfig.axes if ax.get_visible()]) == 2
    path = tmp_path / "frontier" / "test.csv"
    path.parent.mkdir()
    table.to_csv(path, index=False)
    out = frontier.write_frontier([(fig, path)], [str(tmp_path / name) for name in frontier.OUTPUTS])
    assert (tmp_path / "summary.png").stat().st_size > 0
    assert len(pd.read_csv(tmp_path / "frontier.csv")) == len(out) == 10
    rank = pd.read_csv(tmp_path / "ranking.csv")
    assert list(rank["law"].unique()) == list(laws) and set(rank["algorithm"]) == {"dp_se", "dp_ucb_int"}
    assert set(rank["model"]) == {"pure", "approx"}
    with pytest.raises(ValueError, match=r"write_frontier: paths lack \['winners.csv'\]"):
        frontier.write_frontier([(fig, path)], [str(tmp_path / n) for n in frontier.OUTPUTS if n != "winners.csv"])


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


def test_the_frontier_adds_at_most_a_quarter_to_the_pipelines_core_time():
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
    assert added <= 0.25 * rest, f"the frontier adds {added / rest:.0%} to the pipeline's estimated core time"


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
        (
            [{"name": "C2", "k": 5}, {"name": "hu_setting1"}],
            r"^papers\.p\.frontier\.instances\[1\]: hu_setting1 has the means of C2, K=5 .*list it once",
        ),
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


def test_a_frontier_block_sweeps_the_gap_of_two_arms():
    config = configfile.prepare(_frontier_block(gaps={"deltas": [0.1, 0.5], "epsilons": [0.2, 2.0]}))
    fig = config["papers"]["p"]["figures"]["frontier/gaps"]
    assert fig["epsilons"] == [0.2, 2.0] and fig["horizon"] == 500 and fig["runs"] == 3
    assert [p["instance"]["means"] for p in fig["panels"]] == [[0.55, 0.45], [0.75, 0.25]]


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
