"""Figures on synthetic tables (no simulation): one identity per algorithm, legends outside the data, print
resolution, embedded fonts, the papers' axis scales, and a readable cross-paper heat-map."""

import itertools
import math
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import colorspacious  # noqa: E402
import matplotlib.colors  # noqa: E402
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import pytest  # noqa: E402
from PIL import Image  # noqa: E402

from dpbandits import plugins  # noqa: E402
from dpbandits.core import registry  # noqa: E402
from dpbandits.drawing import crosspaper, plotting, style  # noqa: E402
from dpbandits.pipeline import configfile  # noqa: E402
from dpbandits.pipeline.catalogue.expand import expand

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def figures():
    """The catalogue's figures at smoke scale (pure Python: no simulation)."""
    config = configfile.load([ROOT / "config" / "config.yaml"])
    config["scale"] = {"max_horizon": 3000, "max_runs": 4, "max_budget": 2000}
    config["readings"]["enabled"] = False
    return expand(config)[1]


def regret_table(fig) -> pd.DataFrame:
    """A synthetic curve table shaped like :func:`plotting.curve_table`'s (regret ~ c sqrt(t), bound above)."""
    t = np.unique(np.geomspace(1, fig.panels[0].horizon, 40).astype(int))
    rows = []
    for p_idx, panel in enumerate(fig.panels):
        for c_idx, curve in enumerate(panel.curves):
            mean = (1 + c_idx) * np.sqrt(t)
            rows.append(
                pd.DataFrame(
                    {
                        "paper": fig.paper,
                        "figure": fig.name,
                        "panel": p_idx,
                        "panel_title": panel.title,
                        "curve": curve.label,
                        "algorithm": curve.algorithm,
                        "variant": curve.variant,
                        "epsilon": np.nan if curve.epsilon is None else curve.epsilon,
                        "t": t,
                        "mean": mean,
                        "sem": 0.1 * mean,
                        "std": 0.3 * mean,
                        "min": 0.5 * mean,
                        "max": 1.5 * mean,
                        "runs": 4,
                        "bound": 5 * mean,
                    }
                )
            )
    return pd.concat(rows, ignore_index=True)


def success_table(fig) -> pd.DataFrame:
    """A synthetic table shaped like :func:`plotting.success_table`'s."""
    rows = []
    for p_idx, panel in enumerate(fig.panels):
        for c_idx, curve in enumerate(panel.curves):
            for x in curve.x:
                rate = min(1.0, 0.1 * (1 + c_idx))
                rows.append(
                    {
                        "panel": p_idx,
                        "curve": curve.label,
                        "algorithm": curve.algorithm,
                        "variant": curve.variant,
                        "epsilon": curve.epsilon,
                        "x": x,
                        "rate": rate,
                        "lo": max(0.0, rate - 0.05),
                        "hi": min(1.0, rate + 0.05),
                    }
                )
    return pd.DataFrame(rows)


def draw(fig):
    if fig.spec.get("kind") == "bai":
        return plotting.success_figure(fig, success_table(fig))
    return plotting.regret_figure(fig, regret_table(fig))


def colour_of(mfig, label: str) -> str:
    """Colour of the legend entry named ``label``."""
    (legend,) = mfig.legends
    for handle, text in zip(legend.legend_handles, legend.get_texts(), strict=True):
        if text.get_text() == label:
            return matplotlib.colors.to_hex(handle.get_color())
    raise AssertionError(f"no legend entry {label!r}")


# one figure of each kind: one panel with variants and bounds, two panels with two epsilons each, three
# panels, the twelve-algorithm cross-paper figure, and two BAI figures (one with variants)
KINDS = [
    ("tossou2016", "fig2a"),
    ("sajed2019", "fig01"),
    ("sajed2019", "fig05"),
    ("hu2022", "fig1"),
    ("crosspaper", "C1"),
    ("chen2024", "fig1"),
    ("chen2024", "sensitivity"),
]


@pytest.mark.parametrize(("paper", "name"), KINDS)
def test_one_legend_entry_per_algorithm_outside_the_data(figures, paper, name):
    fig = figures[paper][name]
    mfig = draw(fig)
    mfig.canvas.draw()
    assert len(mfig.legends) == 1 and all(ax.get_legend() is None for ax in mfig.axes)
    texts = [t.get_text() for t in mfig.legends[0].get_texts()]
    labels = [registry.ALGORITHMS[a].label for a in dict.fromkeys(c.algorithm for p in fig.panels for c in p.curves)]
    assert texts[: len(labels)] == labels  # one entry per algorithm, each once
    assert len(texts) == len(set(texts))
    bounds = fig.theory and fig.spec.get("kind") != "bai"
    assert sum("bound" in t for t in texts) == int(bounds)  # bounds explained once, never one per curve
    legend_box = mfig.legends[0].get_window_extent()
    for ax in mfig.axes:
        if ax.get_visible():
            box = ax.get_window_extent()
            overlap_w = min(box.x1, legend_box.x1) - max(box.x0, legend_box.x0)
            overlap_h = min(box.y1, legend_box.y1) - max(box.y0, legend_box.y0)
            assert overlap_w <= 0 or overlap_h <= 0, (paper, name)
    assert legend_box.x0 >= 0 and legend_box.x1 <= mfig.bbox.x1  # inside the canvas
    plt.close(mfig)


def test_line_styles_tell_variants_and_epsilons_apart(figures):
    """Curves of one algorithm share its colour; the variant or epsilon changes the line style."""
    for paper, name, keys in (
        ("tossou2016", "fig2a", {"A literal", "C live bonus"}),
        ("sajed2019", "fig01", {"ε = 0.1", "ε = 0.25", "ε = 0.5", "ε = 1"}),
    ):
        mfig = draw(figures[paper][name])
        texts = {t.get_text() for t in mfig.legends[0].get_texts()}
        assert keys <= texts
        ax = mfig.axes[0]
        by_colour = {}
        for line in ax.get_lines():
            if line.get_linestyle() != ":":
                by_colour.setdefault(matplotlib.colors.to_hex(line.get_color()), set()).add(line.get_linestyle())
        assert max(len(s) for s in by_colour.values()) >= 2
        plt.close(mfig)


def test_same_algorithm_same_colour_across_figures_and_papers(figures):
    tossou, cross = draw(figures["tossou2016"]["fig2a"]), draw(figures["crosspaper"]["C1"])
    sajed, hu = draw(figures["sajed2019"]["fig01"]), draw(figures["hu2022"]["fig1"])
    for label in ("UCB", "DP-UCB-INT", "Private-UCB", "DP-UCB (hybrid)"):
        assert colour_of(tossou, label) == colour_of(cross, label)
    assert colour_of(sajed, "DP-SE") == colour_of(hu, "DP-SE") == colour_of(cross, "DP-SE")
    assert colour_of(sajed, "DP-UCB (tree)") == colour_of(cross, "DP-UCB (tree)")
    # within one figure, curves of different algorithms differ in colour or marker
    pairs = {
        (colour_of(cross, t.get_text()), h.get_marker())
        for h, t in zip(cross.legends[0].legend_handles, cross.legends[0].get_texts(), strict=True)
    }
    assert len(pairs) == len(cross.legends[0].get_texts())
    for mfig in (tossou, cross, sajed, hu):
        plt.close(mfig)


def test_identity_is_defined_for_every_algorithm_and_deterministic():
    idents = {name: style.identity(name) for name in registry.ALGORITHMS}
    for kind in ("regret", "bai"):
        names = [n for n, a in registry.ALGORITHMS.items() if a.kind == kind]
        assert len({(idents[n].colour, idents[n].marker) for n in names}) == len(names), kind
    assert all(style.identity(n) == idents[n] for n in registry.ALGORITHMS)
    assert {i.colour for n, i in idents.items() if not registry.ALGORITHMS[n].private} == {style.REFERENCE}
    # every built-in private algorithm of a kind has its own colour, in the cross-paper figures too
    for kind in ("regret", "bai"):
        builtin = [n for n in style.ORDER[(kind, True)] if n in registry.ALGORITHMS]
        assert len({idents[n].colour for n in builtin}) == len(builtin), kind
    for curves in (
        ["dp_ucb_int", "dp_ucb_tossou", "dp_ucb_bound", "private_ucb"],
        ["dp_se2", "dp_se2_modified", "dp_ucb", "dp_se"],
        ["anytime_lazy_ucb", "lazy_dp_ts", "dp_se", "adap_klucb"],
        ["dp_bai", "baseline_bai", "dp_od"],
    ):
        assert len({idents[n].colour for n in curves}) == len(curves), curves


def test_new_algorithm_gets_an_identity_without_changing_the_others(monkeypatch):
    before = {name: style.identity(name) for name in registry.ALGORITHMS}
    new = registry.Algorithm(name="zz_new", kind="regret", label="New", private=False, run=lambda *a: None)
    monkeypatch.setitem(registry.ALGORITHMS, "zz_new", new)
    ident = style.identity("zz_new")
    assert ident == style.identity("zz_new") and ident.label == "New"
    assert {name: style.identity(name) for name in before} == before
    regret = [style.identity(n) for n, a in registry.ALGORITHMS.items() if a.kind == "regret" and n != "zz_new"]
    assert (ident.colour, ident.marker) not in {(i.colour, i.marker) for i in regret}


def _lab(colour: str):
    """CIELAB coordinates of a ``#rrggbb`` colour (D65): distances there approximate how different colours look."""
    return colorspacious.cspace_convert(matplotlib.colors.to_rgb(colour), "sRGB1", "CIELab")


def test_a_plugin_colour_keeps_clear_of_every_built_in_colour(monkeypatch):
    built_in = {style.identity(n).colour for n in registry.ALGORITHMS if n not in plugins.PLUGINS}
    for i in range(3):  # three private plugins: three distinct extra colours, far from every built-in one
        new = registry.Algorithm(
            name=f"zz_plugin{i}",
            kind="regret",
            label=f"P{i}",
            private=True,
            run=lambda *a: None,
            reference="dpbandits.reference.sajed:DPSE",
        )
        monkeypatch.setitem(registry.ALGORITHMS, new.name, new)
    colours = [style.identity(f"zz_plugin{i}").colour for i in range(3)]
    assert len(set(colours)) == 3
    for colour in colours:
        near = [c for c in built_in if math.dist(_lab(colour), _lab(c)) < style.MIN_DISTANCE]
        assert not near, f"{colour} is within {style.MIN_DISTANCE} of built-in colours {near}"
    # and so is every colour a plugin can get
    for a, b in itertools.combinations([*style.EXTRA, *style.PALETTE, style.REFERENCE], 2):
        if a in style.EXTRA:
            assert math.dist(_lab(a), _lab(b)) >= style.MIN_DISTANCE, (a, b)


def test_print_resolution_embedded_fonts_and_paper_sizes(figures, tmp_path):
    for paper, name in (("tossou2016", "fig2a"), ("sajed2019", "fig05")):
        mfig = draw(figures[paper][name])
        pdf, png = tmp_path / f"{name}.pdf", tmp_path / f"{name}.png"
        style.save(mfig, str(pdf), str(png))
        width_in = mfig.get_size_inches()[0]
        assert width_in in (style.ONE_COLUMN, style.TWO_COLUMN)
        with Image.open(png) as img:
            assert img.info["dpi"][0] >= 200 and img.width >= 200 * width_in - 1
        data = pdf.read_bytes()
        assert b"/FontFile2" in data and b"/Type3" not in data  # TrueType (Type 42) embedded, no Type 3
        plt.close(mfig)
    assert figures["tossou2016"]["fig2a"].spec["xscale"] == "log"  # Tossou & Dimitrakakis 2016, Fig. 2: log-log


def test_axis_scales_follow_the_papers(figures):
    """Log-log for Tossou & Dimitrakakis 2016 Fig. 2; linear for Sajed & Sheffet 2019 and Hu & Hegde 2022."""
    for paper, name, scale in (
        ("tossou2016", "fig2a", "log"),
        ("sajed2019", "fig01", "linear"),
        ("hu2022", "fig1", "linear"),
    ):
        mfig = draw(figures[paper][name])
        ax = mfig.axes[0]
        assert (ax.get_xscale(), ax.get_yscale()) == (scale, scale), (paper, name)
        plt.close(mfig)


def test_crosspaper_heatmap_is_annotated_and_ordered(tmp_path):
    rng = np.random.default_rng(0)
    names = [n for n, a in registry.ALGORITHMS.items() if a.kind == "regret"]
    tables = []
    for inst in ("C1", "tossou_2arm"):
        rows = []
        for p_idx, eps in enumerate((0.1, 1.0)):
            for name in names:
                alg = registry.ALGORITHMS[name]
                rows.append(
                    {
                        "figure": inst,
                        "panel": p_idx,
                        "curve": alg.label,
                        "algorithm": name,
                        "epsilon": eps if alg.private else np.nan,
                        "t": 1000,
                        "mean": rng.uniform(10, 1000),
                        "sem": 1.0,
                    }
                )
        path = tmp_path / f"{inst}.csv"
        pd.DataFrame(rows).to_csv(path, index=False)
        tables.append(path)
    out = {
        k: str(tmp_path / f"{k}.{e}") for k, e in (("pdf", "pdf"), ("png", "png"), ("rank", "csv"), ("finals", "csv"))
    }
    mfig = crosspaper.write_summary(tables, out["pdf"], out["png"], out["rank"], out["finals"])
    rank = pd.read_csv(out["rank"])
    heat = mfig.axes[0]
    rows = [t.get_text() for t in heat.get_yticklabels()]
    assert [r.split(". ", 1)[1] for r in rows[: len(rank)]] == list(rank["label"])  # best first
    cells = len(rows) * len(heat.get_xticklabels())
    annotations = [t for t in heat.texts if t.get_text()]
    assert len(annotations) == cells and min(t.get_fontsize() for t in annotations) >= 6
    with Image.open(out["png"]) as img:
        assert img.info["dpi"][0] >= 200
    plt.close(mfig)


@pytest.mark.parametrize("scale", [1.0, 1e3, 1e4])
def test_axis_labels_stay_on_the_canvas(figures, scale):
    """Regret up to 5e5 (Sajed's Figure 1) keeps its tick labels and y label inside the figure."""
    fig = figures["sajed2019"]["fig01"]
    table = regret_table(fig)
    table[["mean", "sem", "std", "min", "max", "bound"]] *= scale
    mfig = plotting.regret_figure(fig, table)
    renderer = mfig.canvas.get_renderer()
    for ax in mfig.axes:
        box = ax.get_tightbbox(renderer)  # axes, tick labels, axis labels and offset text, in pixels
        assert box.x0 >= 0 and box.y1 <= mfig.bbox.height, (scale, box)
    plt.close(mfig)


def test_the_curve_table_gives_the_growth_over_the_last_decade():
    """Two runs with regret 3 ln t and 5 ln t + 7 at t = 1, 10, 50, 100, 1000: over the last decade (t' the last
    checkpoint <= t / 10) they grow by 3 and 5 per unit of ln t, so growth is 4 with s.e. 1 (sd sqrt(2) / sqrt(2))."""
    from dpbandits.core.simulate import SimulationResult
    from dpbandits.pipeline.catalogue.model import Curve, Figure, Panel

    t = np.array([1, 10, 50, 100, 1000])
    regret = np.vstack([3 * np.log(t), 5 * np.log(t) + 7])
    meta = {"means": [0.6, 0.5], "epsilon": None, "params": {"tie_break": "random"}, "horizon": 1000}
    res = SimulationResult(t, regret, np.zeros((2, 2), dtype=np.int64), np.zeros(2), meta)
    panel = Panel("p", {"means": [0.6, 0.5]}, [Curve("UCB", "ucb", None, "cid")])
    fig = Figure("crosspaper", "growth", {"kind": "regret", "band": "sem", "theory": False}, 2, [panel])
    table = plotting.curve_table(fig, {"cid": {None: res}}).set_index("t")
    assert np.isnan(table.loc[1, "growth"])
    for at in (10, 50, 100, 1000):
        assert table.loc[at, "growth"] == pytest.approx(4.0) and table.loc[at, "growth_sem"] == pytest.approx(1.0)
    assert table.loc[1000, "median"] == pytest.approx(np.median(regret[:, -1]))
