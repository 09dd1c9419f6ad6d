"""The frame of the replication reports: Context, Finding, the report page, and the diagnostics block."""

from __future__ import annotations

import pandas as pd
import pytest
from _offline import remote_fetches

from dpbandits import ALGORITHMS
from dpbandits.diagnoses import (
    PUBLISHED,
    RECONSTRUCTION,
    TEXT_OPEN,
    UNEXPLAINED,
    Context,
    Diagnosis,
    Finding,
    Quote,
    decide,
    diagnose,
)
from dpbandits.diagnoses.render import SMOKE, findings_table, report_html, undiagnosed
from dpbandits.pipeline import configfile, planning
from dpbandits.pipeline.catalogue.model import ConfigError, is_diagnostic

PAPER = "toy"
ROWS = [  # claim, verdict, robustness, reading
    ("C1", "fails", "robust", "default"),
    ("C2", "holds", "robust", "default"),
    ("C3", "holds", "depends", "default"),
    ("C4", "fails", "unsettled", "default"),
    ("C5", "fails", "no readings", "default"),
    ("C1", "fails", "", "v=2"),
    ("C2", "holds", "", "v=2"),
    ("C3", "fails", "", "v=2"),
    ("C4", "inconclusive", "", "v=2"),
]


@pytest.fixture
def results(tmp_path):
    claims = pd.DataFrame(
        [
            {
                "paper": PAPER,
                "claim_id": c,
                "statement": f"statement {c}",
                "criterion": "a criterion",
                "verdict": v,
                "headline": v,
                "evidence": "",
                "numbers": "gap at T=12.5; where=fig1 t=10" if c == "C1" else "",
                "kind": "empirical",
                "reading": r,
                "reading_runs": "",
                "robustness": rob,
                "changed_by": "v=2: fails" if (c, r) == ("C3", "default") else "",
            }
            for c, v, rob, r in ROWS
        ]
    )
    (tmp_path / "claims").mkdir()
    claims.to_csv(tmp_path / "claims" / f"{PAPER}.csv", index=False)
    figs = tmp_path / "figures" / PAPER
    figs.mkdir(parents=True)
    pd.DataFrame({"figure": ["fig1"], "t": [10], "mean": [1.0], "variant": [None]}).to_csv(figs / "fig1.csv")
    pd.DataFrame({"figure": ["fig1"] * 2, "run": [0, 1], "pulls": ["3 7", "10 0"]}).to_csv(figs / "fig1_runs.csv")
    (figs / "fig1.png").write_bytes(b"\x89PNG fake")
    return tmp_path


def _toy(confirmed: bool) -> Diagnosis:
    def analyse(ctx: Context) -> Finding:
        (ctx.figure_dir / "toy.png").write_bytes(b"\x89PNG toy")
        return Finding(
            mechanism="Frozen *index*.",
            experiment="An ablation.",
            result=f"Gap {ctx.claims.loc['C1', 'numbers']}.",
            confirmed=confirmed,
            conclusion=PUBLISHED if confirmed else RECONSTRUCTION,
            summary="one line",
            quotes=(Quote("a <quoted> sentence", "Section 4"),),
            numbers={"starving": 0.03, "n": 100},
            figure="toy.png",
            rule="Shown under every reading the text supports (`default`).",
        )

    return Diagnosis(PAPER, "frozen", ("C1",), "Runs that starve", analyse)


SETTINGS = {
    "paper": PAPER,
    "title": "Toy & Paper",
    "scale": {},
    "figures": [{"figure": "fig1", "caption": "Figure 1"}, {"figure": "diagnostics/x", "caption": "diag"}],
    "algorithms": {"dp_ucb_int": ALGORITHMS["dp_ucb_int"].resolve({})},
}


def test_the_context_reads_claims_numbers_and_pull_counts(results):
    ctx = Context(results, PAPER, figure_dir=results / "draw")
    assert list(ctx.claims.index) == ["C1", "C2", "C3", "C4", "C5"]
    assert ctx.numbers("C1") == {"gap at T": "12.5", "where=fig1 t": "10"}  # a value with "=" is not recoverable
    assert ctx.numbers("C2") == {}
    assert ctx.verdict("C3") == "holds" and ctx.claims.loc["C3", "changed_by"] == "v=2: fails"
    runs = ctx.runs("fig1")
    assert [list(p) for p in runs["pulls"]] == [[3, 7], [10, 0]]
    assert ctx.cap_runs(100) == 100 and Context(results, PAPER, scale={"max_runs": 4}).cap_runs(100) == 4


def test_a_finding_names_an_unknown_conclusion():
    with pytest.raises(ValueError, match="Finding.conclusion='wrong'"):
        Finding("m", "e", "r", True, "wrong", "s")


def test_claims_that_need_a_diagnosis_are_those_failing_robustly_or_depending(results):
    verdicts = pd.read_csv(results / "claims" / f"{PAPER}.csv", keep_default_na=False)
    verdicts = verdicts[verdicts["reading"] == "default"]
    assert undiagnosed(verdicts, set()) == ["C1", "C3", "C5"]  # not C2 (holds, robust) nor C4 (fails, unsettled)
    assert undiagnosed(verdicts, {"C1", "C5"}) == ["C3"]
    assert undiagnosed(verdicts, {"C1", "C3", "C5"}) == []


@pytest.mark.parametrize("confirmed", [True, False])
def test_the_report_opens_on_verdicts_and_diagnoses_and_reads_offline(results, confirmed):
    ctx = Context(results, PAPER, figure_dir=results / "draw")
    diag = _toy(confirmed)
    found = [(diag, diag.analyse(ctx))]
    page = report_html(results, PAPER, SETTINGS, found, ctx.figure_dir)
    chen = {**SETTINGS, "figures": [{**SETTINGS["figures"][0], "instances": "section5, K=30"}]}
    assert "omega_high" in report_html(results, PAPER, chen, found, ctx.figure_dir)  # Chen's instance axes
    order = [page.index(h) for h in ("<h2>Verdicts", "<h2>Diagnoses", "<h2>Verdicts under every", "<h2>What the")]
    assert order == sorted(order)
    assert 'href="#frozen"' in page and 'id="frozen"' in page and "Gap gap at T=12.5; where=fig1 t=10." in page
    assert ("the published algorithm does this" in page) is confirmed
    assert ("our reconstruction is suspect" in page) is not confirmed
    assert "&lt;quoted&gt;" in page and "<em>index</em>" in page  # quotes escaped, Markdown rendered
    assert page.count("data:image/png;base64,") == 2  # the diagnosis's drawing and fig1, not the diagnostic figure
    assert "without a diagnosis: C3, C5" in page  # C3 depends on a reading, C5 fails without readings
    assert "int_update" in page and "omega_high" not in page  # DP-UCB-INT's reading axes, no instance's
    assert remote_fetches(page) == []
    table = findings_table(PAPER, found)
    assert table.loc[0, "claims"] == "C1" and table.loc[0, "confirmed"] == confirmed
    assert table.loc[0, "numbers"] == "starving=0.03; n=100"
    assert "Rule: Shown under every reading" in page and table.loc[0, "rule"].startswith("Shown under")
    assert SMOKE not in page and table.loc[0, "conclusion"] in (PUBLISHED, RECONSTRUCTION)


def test_a_smoke_run_shows_no_verdict_nor_conclusion(results):
    ctx = Context(results, PAPER, scale={"max_runs": 4}, figure_dir=results / "draw")
    diag = _toy(True)
    found = [(diag, diag.analyse(ctx))]
    found[0][1].smoke = True  # as diagnose() marks it under a smoke config's caps
    page = report_html(results, PAPER, {**SETTINGS, "scale": {"max_runs": 4}}, found, ctx.figure_dir)
    assert f'style="background:#e0e0e0">{SMOKE}</span>' in page  # the conclusion badge, neutral grey
    assert f'<td style="background:#e0e0e0">{SMOKE}</td>' in page  # the verdict cells
    assert "the published algorithm does this" not in page and ">fails<" not in page
    assert findings_table(PAPER, found).loc[0, "conclusion"] == SMOKE


def test_diagnose_marks_findings_smoke_only_under_scale_caps(results, monkeypatch):
    import dpbandits.diagnoses as pkg

    monkeypatch.setitem(pkg.PAPERS, PAPER, [_toy(True)])
    assert not diagnose(Context(results, PAPER, figure_dir=results / "d"))[0][1].smoke
    assert diagnose(Context(results, PAPER, scale={"max_runs": 4}, figure_dir=results / "d"))[0][1].smoke


@pytest.mark.parametrize(
    "shown, support, discrepancy, expected, words",
    [
        ({"default": False}, {}, "the paper's 30,000", RECONSTRUCTION, "30,000"),
        ({"default": True, "a": True}, {"a": "implied"}, None, PUBLISHED, "`default`, `a`"),
        ({"default": True, "a": False}, {}, None, TEXT_OPEN, "shown under `default`, not under `a`"),
        ({"default": False, "a": False}, {}, None, UNEXPLAINED, "(`default`, `a`)"),
        ({"default": True, "a": False}, {"a": "contradicted"}, None, PUBLISHED, "contradicted by the text: `a`"),
        ({"default": False, "a": True}, {"a": "contradicted"}, None, UNEXPLAINED, "contradicted by the text: `a`"),
        ({"a": True}, {"a": "contradicted"}, None, UNEXPLAINED, "No reading the text supports was tried"),
    ],
)
def test_decide_takes_each_branch(shown, support, discrepancy, expected, words):
    conclusion, rule = decide(shown, support, discrepancy)
    assert conclusion == expected and words in rule


def test_decide_names_bad_input():
    with pytest.raises(ValueError, match="shown is empty"):
        decide({}, {})
    with pytest.raises(ValueError, match=r"support\['a'\]='likely'"):
        decide({"a": True}, {"a": "likely"})


def test_reading_support_reads_the_manifests(results):
    import json

    for slug, meta in {
        "v_2": {"reading": "v=2", "support": {PAPER: {"level": "implied", "relative": 1, "text": "x"}}},
        "w_1": {"reading": "w=1"},
    }.items():
        base = results / "readings" / slug / "figures" / PAPER
        base.mkdir(parents=True)
        (base / "reading.json").write_text(json.dumps(meta))
    ctx = Context(results, PAPER, figure_dir=results / "draw")
    assert ctx.reading_support() == {"default": "stated", "v=2": "implied", "w=1": "consistent"}
    (results / "readings" / "w_1" / "figures" / PAPER / "reading.json").write_text(
        json.dumps({"reading": "w=1", "support": {PAPER: {"level": "maybe"}}})
    )
    with pytest.raises(ValueError, match="support level 'maybe'"):
        ctx.reading_support()


def test_a_diagnostics_block_becomes_figures_kept_out_of_readings():
    import yaml

    raw = yaml.safe_load(open("config/config.yaml"))
    raw = configfile.merge(raw, yaml.safe_load(open("config/smoke.yaml")))
    # lazy_dp_ts is not a Tossou algorithm
    block = {"probe": {"curves": ["ucb", "lazy_dp_ts"], "runs": 3, "panels": [{"title": "probe"}]}}
    raw["papers"]["tossou2016"]["diagnostics"] = block
    plan = planning.plan(raw)
    fig = plan.figures["tossou2016"]["diagnostics/probe"]
    assert fig.runs == 3 and fig.panels[0].horizon == 3000  # the paper's defaults merged under it, capped
    assert is_diagnostic("diagnostics/probe") and not is_diagnostic("fig2a")
    for read in plan.readings.values():
        for paper_figs in read.figures.values():
            assert not any(is_diagnostic(n) for n in paper_figs)
    # lazy_dp_ts's axis is Hu & Hegde's reading, not Tossou's, though a Tossou diagnostic figure draws it
    assert {r.reading.papers for slug, r in plan.readings.items() if "bonus_log" in slug} == {("hu2022",)}
    bad = yaml.safe_load(open("config/config.yaml"))
    bad["papers"]["tossou2016"]["diagnostics"] = {"probe": {"curves": ["ucb"], "runs": 0, "panels": [{"title": "p"}]}}
    with pytest.raises(ConfigError, match=r"papers\.tossou2016\.diagnostics\.probe"):
        configfile.prepare(bad)
