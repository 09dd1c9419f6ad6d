"""A scaled-down run (the config's `scale` caps) says so: the ledger, the notebooks and the captions open with a
warning that its verdicts mean nothing; at the papers' scale none of them does."""

from pathlib import Path

import pandas as pd

from dpbandits.claims.ledger import DEFAULT, with_robustness
from dpbandits.claims.page import markdown
from dpbandits.drawing import notebook, plotting
from dpbandits.drawing.notebook import SMOKE as NOT_A_RESULT
from dpbandits.pipeline import configfile
from dpbandits.pipeline.catalogue.expand import expand

ROOT = Path(__file__).resolve().parents[1]
SMOKE = {"max_horizon": 3000, "max_runs": 4}


def _ledger() -> pd.DataFrame:
    row = {
        "paper": "p",
        "claim_id": "c1",
        "kind": "empirical",
        "verdict": "holds",
        "reading": DEFAULT,
        "statement": "s",
        "criterion": "c",
        "numbers": "",
        "reading_runs": "",
        "sentence": "c1",
        "role": "part",
        "support": 0,
        "support_level": "default",
        "support_text": "",
    }
    return with_robustness(pd.DataFrame([row]))


def test_the_note_names_the_caps_and_is_empty_at_the_papers_scale():
    note = notebook.scale_note(SMOKE)
    assert "max_horizon = 3000, max_runs = 4" in note and "say nothing about the papers' claims" in note
    assert notebook.scale_note({}) == "" and notebook.scale_note(None) == ""
    assert notebook.scale_banner({"scale": {}}) is None
    assert "max_runs = 4" in notebook.scale_banner({"scale": SMOKE}).data


def test_the_ledger_opens_with_the_note_only_when_scaled_down():
    scaled = markdown(_ledger(), scale=SMOKE)
    assert scaled.split("## ")[0].count(notebook.scale_note(SMOKE)) == 1
    assert "Scaled-down" not in markdown(_ledger(), scale={}) and "Scaled-down" not in markdown(_ledger())


def test_a_scaled_down_ledger_and_notebook_show_no_verdict_as_a_result(tmp_path):
    scaled, full = markdown(_ledger(), scale=SMOKE), markdown(_ledger())
    assert f"**{NOT_A_RESULT} (computed: holds)**" in scaled and "Headline verdicts" not in scaled
    assert NOT_A_RESULT not in full and "| p | c1 | **holds** |" in full
    (tmp_path / "claims").mkdir()
    _ledger().to_csv(tmp_path / "claims" / "p.csv", index=False)
    smoke = notebook.verdict_summary(tmp_path, "p", {"scale": SMOKE}).data
    assert list(smoke["verdict"]) == [f"{NOT_A_RESULT} (computed: holds)"]
    assert list(notebook.verdict_summary(tmp_path, "p", {"scale": {}}).data["verdict"]) == ["holds"]


def test_a_capped_figure_caption_says_its_settings_are_not_the_stated_ones():
    config = configfile.load([ROOT / "config" / "config.yaml", ROOT / "config" / "smoke.yaml"])
    fig = expand(config)[1]["crosspaper"]["C1"]
    text = plotting.caption(fig)
    assert text.startswith("[Scaled-down run") and "T = 1e6" in text and "T=3000" in text
    paper = expand(configfile.load([ROOT / "config" / "config.yaml"]))[1]["crosspaper"]["C1"]
    assert "Scaled-down" not in plotting.caption(paper)
