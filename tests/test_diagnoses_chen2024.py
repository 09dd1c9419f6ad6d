"""The chen2024 diagnoses driven to both outcomes on synthetic success tables, claims and readings."""

import json
from pathlib import Path

import pandas as pd
import pytest
import yaml

from dpbandits.diagnoses import PUBLISHED, TEXT_OPEN, UNEXPLAINED, Context, _chen_ratio, chen2024

TRIALS = 1000
READING = "two_arm.mu2=0.4"


def rows(figure, panel, x_name, curves, eps=None):
    """Success-table rows: ``curves`` = {(algorithm, variant): {x: rate}}; ``eps`` the panel's ε (else x)."""
    out = []
    for (alg, variant), rates in curves.items():
        for x, rate in rates.items():
            out.append(
                dict(
                    figure=figure,
                    panel=panel,
                    x_name=x_name,
                    x=x,
                    algorithm=alg,
                    variant=variant,
                    epsilon=x if eps is None else eps,
                    successes=round(rate * TRIALS),
                    trials=TRIALS,
                    rate=rate,
                )
            )
    return out


def write(path, table):
    path.parent.mkdir(parents=True, exist_ok=True)
    pd.DataFrame(table).to_csv(path, index=False)


EPS = [0.01, 0.1, 1, 10, 100]


def schedule_tables(root, one_shot_loses, dexp_top=0.99):
    base = root / "figures" / "chen2024"
    od = dict(zip(EPS, [0.5, 0.7, 0.995, 1.0, 1.0], strict=True))
    dexp = dict(zip(EPS, [0.55, 0.8, 0.995, 0.99, dexp_top], strict=True))
    one = dict(zip(EPS, [0.6, 0.98, 1.0, 0.99 if one_shot_loses else 1.0, 1.0], strict=True))
    halving = dict(zip(EPS, [0.2, 0.6, 0.97, 0.975, 0.975], strict=True))
    write(base / "fig1.csv", rows("fig1", 1, "epsilon", {("dp_bai", ""): dexp, ("dp_od", ""): od}))
    curves = {("dp_bai", ""): dexp, ("dp_bai", "one_shot"): one, ("dp_bai", "halving"): halving, ("dp_od", ""): od}
    write(base / "diagnostics" / "fig1b_schedules.csv", rows("diagnostics/fig1b_schedules", 0, "epsilon", curves))
    return Context(root, "chen2024", figure_dir=root / "fig")


def test_appendix_b_implies_dexp_alone():
    # dexp: 1000, 423, 77 as Appendix B's surviving cells; one_shot 1000, 3; halving 1000, 500
    assert chen2024.schedule_support() == {"one_shot": "contradicted", "default": "implied", "halving": "contradicted"}


@pytest.mark.parametrize(
    "one_shot_loses, dexp_top, shown",
    # the second: one_shot loses too, but Appendix B contradicts it; the last: no floor at the largest ε
    [(False, 0.99, True), (True, 0.99, True), (False, 1.0, False)],
)
def test_schedule_floor(tmp_path, one_shot_loses, dexp_top, shown):
    f = chen2024.schedule_floor(schedule_tables(tmp_path, one_shot_loses, dexp_top))
    assert f.confirmed is shown, f.result
    assert f.conclusion == (PUBLISHED if shown else UNEXPLAINED), f.rule
    assert "DP-OD wins at ε = 10" in f.result
    assert (tmp_path / "fig" / f.figure).exists()


RATIOS = [1, 10, 100]
LONG = [1, 10, 100, 1000]


def fig2(root, failing_eps, od_end=0.6, reading=True, default_fails=False):
    """Claims (Fig2 flipped by READING), the reading's Figure 2 (DP-OD flat in the panel at ``failing_eps``), the
    default's (DP-OD flat at ε = 0.1 if ``default_fails``, else dropping everywhere) and the diagnostic figure
    (DP-OD at ``od_end`` at ratio 1000 in every panel)."""
    write(
        root / "claims" / "chen2024.csv",
        [
            dict(claim_id="Fig2", reading="default", verdict="holds", numbers=""),
            dict(claim_id="Fig2", reading=READING if reading else "k=10", verdict="fails", numbers=""),
        ],
    )
    slug = root / "readings" / "r1" / "figures" / "chen2024"
    slug.mkdir(parents=True)
    (slug / "reading.json").write_text(json.dumps({"reading": READING if reading else "k=10"}))
    table, dose, default = [], [], []
    drop = dict(zip(RATIOS, [1.0, 0.7, 0.55], strict=True))
    for p, eps in enumerate([0.1, 5.0]):
        od = dict.fromkeys(RATIOS, 1.0) if eps == failing_eps else drop
        table += rows("fig2", p, "ratio", {("dp_bai", ""): dict.fromkeys(RATIOS, 1.0), ("dp_od", ""): od}, eps)
        od = dict.fromkeys(RATIOS, 1.0) if default_fails and eps == 0.1 else drop
        default += rows("fig2", p, "ratio", {("dp_bai", ""): dict.fromkeys(RATIOS, 1.0), ("dp_od", ""): od}, eps)
        od_long = dict(zip(LONG, [1.0, 0.99, 0.96, od_end], strict=True))
        curves = {("dp_bai", ""): dict.fromkeys(LONG, 1.0), ("dp_od", ""): od_long}
        dose += rows("diagnostics/fig2_ratio_dose", p, "ratio", curves, eps)
    write(slug / "fig2.csv", table)
    write(root / "figures" / "chen2024" / "fig2.csv", default)
    write(root / "figures" / "chen2024" / "diagnostics" / "fig2_ratio_dose.csv", dose)
    return Context(root, "chen2024", figure_dir=root / "fig")


def test_ratio_range_confirmed_when_the_failing_panel_needs_a_longer_grid(tmp_path):
    f = chen2024.ratio_range(fig2(tmp_path, failing_eps=5.0))
    assert f.confirmed, f.result
    assert f.conclusion == PUBLISHED, f.rule
    assert "two_arm.mu2=0.4 at ε = 5 (r* = 108)" in f.result
    assert (tmp_path / "fig" / f.figure).exists()


@pytest.mark.parametrize(
    "why",
    [
        dict(failing_eps=0.1),  # r* = 2 at ε = 0.1: the grid's end is not the reason
        dict(failing_eps=5.0, od_end=0.98),  # no drop beyond 0.05 even at ratio 1000
        dict(failing_eps=5.0, reading=False),  # the flipping reading does not set mu2
    ],
)
def test_ratio_range_text_open_when_only_the_default_is_explained(tmp_path, why):
    f = chen2024.ratio_range(fig2(tmp_path, **why))
    assert not f.confirmed, f.result
    assert f.conclusion == TEXT_OPEN, f.rule  # the default fails nothing; the flipping reading is not explained


def test_ratio_range_not_explained_when_the_default_fails_too(tmp_path):
    f = chen2024.ratio_range(fig2(tmp_path, failing_eps=0.1, default_fails=True))
    assert not f.confirmed and f.conclusion == UNEXPLAINED, f.rule


def test_constants_match_the_config():
    config = yaml.safe_load((Path(__file__).parents[1] / "config" / "config.yaml").read_text())
    papers = config["papers"]["chen2024"]
    dose = papers["diagnostics"]["fig2_ratio_dose"]
    assert dose["instance"]["mu2"] == _chen_ratio.DOSE_MU2 and dose["instance"]["mu1"] == _chen_ratio.MU1
    assert papers["figures"]["fig2"]["budget"] == _chen_ratio.FIG2_BUDGET == dose["budget"]
    assert max(papers["figures"]["fig2"]["values"]) == _chen_ratio.FIG2_GRID_END


BUDGETS = [500, 1000, 2000, 4000]


def sensitivity(root, od_top, bai_top):
    """Sensitivity table: at ε = 1 (panel 1) DP-OD reaches ``od_top`` and DP-BAI ``bai_top`` from budget 1000 on."""
    table = []
    for panel, od in ((0, [0.5, 0.6, 0.7, 0.8]), (1, [0.8, od_top, od_top, od_top])):
        curves = {("dp_od", ""): dict(zip(BUDGETS, od, strict=True))}
        curves[("baseline_bai", "")] = dict(zip(BUDGETS, [0.1, 0.2, 0.3, 0.4], strict=True))
        for variant in ("", "one_shot", "halving"):
            curves[("dp_bai", variant)] = dict(
                zip(BUDGETS, [min(1.0, x + 0.3) for x in od[:1]] + [bai_top] * 3, strict=True)
            )
        table += rows("sensitivity", panel, "budget", curves, eps=[0.1, 1.0][panel])
    write(root / "figures" / "chen2024" / "sensitivity.csv", table)
    return Context(root, "chen2024", figure_dir=root / "fig")


@pytest.mark.parametrize("od_top, bai_top, shown", [(0.99, 1.0, True), (0.9, 0.93, False)])  # room, no lead
def test_ceiling(tmp_path, od_top, bai_top, shown):
    f = chen2024.ceiling(sensitivity(tmp_path, od_top, bai_top))
    assert f.confirmed is shown, f.result
    assert f.conclusion == (PUBLISHED if shown else UNEXPLAINED), f.rule
    assert "default vs dp_od, panel 1: won 1/4" in f.result  # at ε = 1 DP-BAI leads at one budget of four
