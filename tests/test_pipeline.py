"""End to end: the whole Snakemake pipeline at smoke scale in a fresh copy of the repository."""

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import yaml
from _offline import remote_fetches

import dpbandits
from dpbandits import ALGORITHMS
from dpbandits.audit.runners import default_algorithms
from dpbandits.drawing.notebook import paper_algorithms
from dpbandits.pipeline import configfile

ROOT = Path(__file__).resolve().parents[1]
SMOKE = ["--cores", "2", "--configfile", "config/smoke.yaml"]


def smk(*args):
    """Snakemake command line; targets and flags first, then the smoke config (--configfile is greedy)."""
    return [sys.executable, "-m", "snakemake", *args, *SMOKE]


pytestmark = pytest.mark.pipeline


def _copy_repo(dest: Path) -> Path:
    files = subprocess.run(
        ["git", "ls-files", "-co", "--exclude-standard"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.split()
    for f in files:
        src = ROOT / f
        if src.is_symlink():
            os.symlink(os.readlink(src), dest / f)
        elif src.is_file():
            (dest / f).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, dest / f)
    return dest


def _env(repo) -> dict:
    """The environment of a copy as if its package were installed (`pip install -e .`): the jobs' `python` is this
    interpreter and `dpbandits` is the copy's, so the pipeline runs the code under test."""
    path = os.pathsep.join([str(Path(sys.executable).parent), os.environ.get("PATH", "")])
    return {**os.environ, "PYTHONUNBUFFERED": "1", "PYTHONPATH": str(Path(repo, "src")), "PATH": path}


def _run(args, cwd, check=True):
    env = _env(cwd)
    proc = subprocess.run(args, cwd=cwd, capture_output=True, text=True, env=env)
    if check and proc.returncode != 0:
        raise AssertionError(f"{' '.join(map(str, args))} failed:\n{proc.stdout[-4000:]}\n{proc.stderr[-4000:]}")
    return proc


@pytest.fixture(scope="module")
def smoke_run(tmp_path_factory):
    repo = _copy_repo(tmp_path_factory.mktemp("repo"))
    proc = _run(smk(), repo)
    (repo / "smoke_run.out").write_text(proc.stdout + proc.stderr)  # the terminal output, for the tests below
    return repo


def test_every_figure_table_and_notebook_exists(smoke_run):
    config = yaml.safe_load((smoke_run / "config" / "config.yaml").read_text())
    results = smoke_run / "results"
    for paper, pspec in config["papers"].items():
        for fig in pspec["figures"]:
            for ext in ("pdf", "png", "csv"):
                path = results / "figures" / paper / f"{fig}.{ext}"
                assert path.is_file() and path.stat().st_size > 0, path
        for ext in ("ipynb", "html"):
            path = results / "notebooks" / f"{paper}.{ext}"
            assert path.is_file() and path.stat().st_size > 0, path
        executed = json.loads((results / "notebooks" / f"{paper}.ipynb").read_text())
        outputs = [o for cell in executed["cells"] for o in cell.get("outputs", [])]
        assert outputs and not [o for o in outputs if o.get("output_type") == "error"], paper


def test_every_paper_has_a_replication_report(smoke_run):
    """results/report/<paper>.html opens on the verdicts and the diagnoses; its table lists every diagnosis, whose
    conclusion a smoke run does not state."""
    from dpbandits.diagnoses import diagnoses
    from dpbandits.drawing.notebook import SMOKE

    config = yaml.safe_load((smoke_run / "config" / "config.yaml").read_text())
    for paper in config["papers"]:
        page = (smoke_run / "results" / "report" / f"{paper}.html").read_text(encoding="utf-8")
        assert page.index("<h2>Verdicts") < page.index("<h2>Diagnoses") < page.index("<h2>Figures"), paper
        table = pd.read_csv(smoke_run / "results" / "report" / f"{paper}.csv")
        assert list(table["diagnosis"]) == [d.name for d in diagnoses(paper)], paper
        assert set(table["conclusion"]) <= {SMOKE}, paper  # a smoke run states no conclusion
        for d in diagnoses(paper):
            assert f'id="{d.name}"' in page, (paper, d.name)


def test_the_terminal_shows_progress_not_a_dump(smoke_run):
    """One short line per job with the time left; no command lines, input lists or notebook kernel chatter."""
    out = (smoke_run / "smoke_run.out").read_text()
    lines = out.splitlines()
    done = re.findall(r"^\[ *(\d+)/(\d+)\] (.*)$", out, re.M)
    total = int(done[-1][1])
    assert [int(d) for d, _, _ in done] == list(range(1, total + 1)), out[-3000:]
    assert all("left)" in text for _, _, text in done[: total // 2]), out[-3000:]
    # start-up, Snakemake's job-count table (a row a rule), the estimate, then a line a job
    rules = len(re.search(r"^Job stats:\n(.*?)^total", out, re.M | re.S).group(1).splitlines())
    assert len(lines) <= 20 + rules + total, out[-3000:]
    assert max(map(len, lines)) < 200, max(lines, key=len)[:300]
    for noise in ("--specs", "Shell command", "without encryption", "KeyboardInterrupt", "input:"):
        assert noise not in out, noise
    assert re.search(r"^dpbandits: \d+ of \d+ simulation jobs to run, estimated", out, re.M)
    log = (smoke_run / "results" / "logs" / "notebooks" / "hu2022.log").read_text()
    assert "Executing" in log, log[:2000]  # papermill's progress is kept in the job's log


def test_a_scaled_down_run_says_its_verdicts_mean_nothing(smoke_run):
    results = smoke_run / "results"
    assert "Scaled-down run (max_horizon = 3000" in (results / "claims.md").read_text().split("## ")[0]
    for paper in ("hu2022", "crosspaper"):
        html = (results / "notebooks" / f"{paper}.html").read_text(encoding="utf-8")
        first_img = html.index("<img")
        assert "Scaled-down run" in _visible_text(html[:first_img]), paper


def test_nothing_to_do_after_a_complete_run(smoke_run):
    out = _run(smk("--dry-run"), smoke_run).stdout
    assert "Nothing to be done" in out


def _visible_text(html: str) -> str:
    """What a browser shows of ``html``: no styles, scripts or tags, entities decoded."""
    import html as html_lib

    html = re.sub(r"<(style|script)\b.*?</\1>", "", html, flags=re.S | re.I)
    return html_lib.unescape(re.sub(r"<[^>]+>", " ", html))


def test_notebook_html_reads_like_an_appendix(smoke_run):
    """Title, summary, verdicts and a figure on the first screen; no code, no parameter dump, no escapes."""
    config = yaml.safe_load((smoke_run / "config" / "config.yaml").read_text())
    for paper in config["papers"]:
        html = (smoke_run / "results" / "notebooks" / f"{paper}.html").read_text(encoding="utf-8")
        body = html[html.index("<body") :]
        for code in re.findall(r'<div class="highlight[^"]*"><pre>(.*?)</pre>', body, flags=re.S):
            assert code.count("\n") <= 40, (paper, code[:300])  # no input cell longer than a screen
        first_img = body.index("<img")
        before = body[:first_img]
        assert "<h1" in before and "robustness" in _visible_text(before), paper  # title and verdicts first
        assert len(_visible_text(before).split()) < 600, paper  # a figure within the first screen or so
        assert before.count("<tr") <= 18, paper
        text = _visible_text(body)
        assert not re.search(r"\\u[0-9a-fA-F]{4}", text), paper
        assert "config = {" not in text and "settings = {" not in text, paper


def test_notebooks_depend_only_on_their_paper(smoke_run):
    """Changing the audit reruns no notebook; changing a paper's title reruns only that paper's notebook."""
    extra = smoke_run / "extra.yaml"
    extra.write_text("audit: {trials: 999}\npapers: {hu2022: {title: Hu and Hegde}}\n")
    out = _run([*smk("--dry-run"), str(extra)], smoke_run).stdout
    assert "would run: audit\n" in out
    notebooks = re.findall(r"^would run: notebook ([a-z0-9]+)$", out, re.M)
    assert notebooks == ["hu2022"], out[-3000:]


def test_editing_one_algorithm_reruns_only_its_simulations(smoke_run):
    # Private-UCB: no other algorithm, plotting or claims module imports it (tests/test_sources.py)
    module = smoke_run / "src/dpbandits/bandits/private_ucb.py"
    module.write_text(module.read_text() + "\n# edited\n")  # Snakemake compares content, not only mtime
    proc = _run(smk("all", "--dry-run"), smoke_run)
    out = proc.stdout + proc.stderr
    sims = re.findall(r"^would run: simulate ([a-z0-9_]+) runs", out, re.M)
    assert set(sims) == {"private_ucb"}, out[-3000:]
    # the estimate counts the jobs Snakemake will rerun, not only the missing files
    assert re.search(rf"^dpbandits: {len(sims)} of \d+ simulation jobs to run", out, re.M), out[-3000:]
    figures = set(re.findall(r"^would run: figures_([a-z0-9]+)$", out, re.M))
    config = configfile.load([smoke_run / "config" / "config.yaml"], smoke_run / "workflow/schemas/config.schema.yaml")
    users = {p for p in config["papers"] if "private_ucb" in paper_algorithms(config, p)}
    assert figures == users == {"tossou2016", "crosspaper"}, out[-3000:]


def _sim_arrays(files: list[Path]) -> dict:
    out = {}
    for f in files:
        with np.load(f) as data:
            out |= {(f.name, key): data[key] for key in data.files if data[key].dtype.kind in "fi"}
    return out


def test_a_rerun_after_editing_a_helper_computes_with_the_edited_code(smoke_run):
    # the hybrid counter's noise step (bandits/_counters.py) is inlined into dp_ucb_tossou's compiled kernel,
    # whose cache is warm from the smoke run: the rerun must compile the edited helper, not load the old kernel
    helper = smoke_run / "src/dpbandits/bandits/_counters.py"
    text = helper.read_text()
    sims = sorted((smoke_run / "results/sims/dp_ucb_tossou").rglob("*.npz"))
    targets = [str(f.relative_to(smoke_run)) for f in sims]
    before = _sim_arrays(sims)
    assert sims and before
    helper.write_text(text.replace("e = k * node_scale * eta\n", "e = 1000.0 * k * node_scale * eta\n"))
    try:
        proc = _run(smk(*targets), smoke_run)
        edited = _sim_arrays(sims)
        # the start-up estimate counts the jobs this run reruns (their result files exist)
        assert f"dpbandits: {len(sims)} of " in proc.stdout + proc.stderr, proc.stderr[-3000:]
    finally:
        helper.write_text(text)
    _run(smk(*targets), smoke_run)
    after = _sim_arrays(sims)
    regret = [k for k in before if k[1].rpartition(".")[2] == "regret"]  # keys: <configuration>.regret
    assert regret and all(not np.array_equal(before[k], edited[k]) for k in regret), "stale kernel after the edit"
    assert all(np.array_equal(before[k], after[k]) for k in before), "undoing the edit did not restore the results"


def test_bad_config_fails_before_any_job(smoke_run):
    for override, culprit in (("bogus=1", "bogus"), ("checkpoints=1", "checkpoints"), ("seed=-5", "seed")):
        proc = _run(smk("--dry-run", "--config", override), smoke_run, check=False)
        assert proc.returncode != 0
        text = proc.stdout + proc.stderr
        assert culprit in text and "invalid config" in text, text[-2000:]


def test_report_is_self_contained(smoke_run):
    _run(smk("--report", "results/report.html"), smoke_run)
    report = smoke_run / "results" / "report.html"
    assert report.is_file() and report.stat().st_size > 100_000
    text = report.read_text(errors="ignore")
    assert "claims" in text and "audit" in text


def test_every_rendered_html_reads_offline(smoke_run):
    """No rendered page (notebooks, replication reports, Snakemake's report) fetches anything remote; the notebooks
    carry no TeX, which the dropped MathJax would have typeset."""
    results = smoke_run / "results"
    if not (results / "report.html").is_file():
        _run(smk("--report", "results/report.html"), smoke_run)
    pages = sorted(results.rglob("*.html"))
    names = {p.relative_to(results).as_posix() for p in pages}
    assert names >= {"report.html", "notebooks/tossou2016.html", "report/tossou2016.html", "report/chen2024.html"}
    for page in pages:
        assert not remote_fetches(page.read_text(encoding="utf-8", errors="ignore")), page
    for page in (results / "notebooks").glob("*.html"):
        assert not re.search(r"\$[^$\s][^$]*\$|\\\(|\\\[", _visible_text(page.read_text(encoding="utf-8"))), page


def test_ledger_notebooks_and_report_state_the_version_and_commit(smoke_run):
    made = f"Made with dpbandits {dpbandits.__version__} (commit unknown)"  # the copy is no git checkout
    results = smoke_run / "results"
    assert made in (results / "claims.md").read_text()
    for page in (results / "notebooks").glob("*.html"):
        assert made in _visible_text(page.read_text(encoding="utf-8")), page
    if not (results / "report.html").is_file():
        _run(smk("--report", "results/report.html"), smoke_run)
    assert made.replace("Made", "made") in (results / "report.html").read_text(errors="ignore")


def test_ledger_and_audit_are_written(smoke_run):
    ledger = (smoke_run / "results" / "claims.md").read_text()
    for paper in ("tossou2016", "sajed2019", "sajed2019thesis", "hu2022", "chen2024"):
        assert f"| {paper} |" in ledger
    audit_dir = smoke_run / "results" / "audit"
    check_audit_table(pd.read_csv(audit_dir / "audit.csv"))
    power = (audit_dir / "audit.md").read_text().split("## Power")[1]
    table = pd.read_csv(audit_dir / "power.csv")
    for name in default_algorithms():
        assert f"| {name} |" in power, name
        assert name in set(table["algorithm"]), name
    for paper in ("tossou2016", "sajed2019", "sajed2019thesis", "hu2022"):  # their private regret algorithms
        spent = pd.read_csv(smoke_run / "results" / "privacy" / f"{paper}.csv")
        # smoke horizons: an algorithm may end before its first release (0 spent), never above its promise
        assert {"default"} < set(spent["reading"]) and spent["spent"].max() > 0, paper
        assert ((spent["exceeds"] == "yes") == (spent["ratio"] > 1 + 1e-9)).all(), paper


def check_audit_table(df):
    """Every private algorithm's real rows pass and its control rows (twin, and kernel where it declares
    replay) are flagged, unless its audit plan states why the control cannot be (``Audit.control``); a private
    regret kernel's own run (engine fast) has a real row and no control."""
    for name in default_algorithms():
        rows = df[df["algorithm"] == name]
        engines = {"twin", "kernel"} if ALGORITHMS[name].replay is not None else {"twin"}
        fast = {"fast"} if ALGORITHMS[name].kind == "regret" else set()
        for role, expected in (("real", engines | fast), ("control", engines)):
            assert set(rows.loc[rows["role"] == role, "engine"]) == expected, (name, role)
        assert (rows.loc[rows["role"] == "real", "verdict"] == "consistent").all(), name
        control = rows.loc[rows["role"] == "control"]
        assert (control["noise_factor"] < 1).all(), name
        if not ALGORITHMS[name].audit.control:
            assert (control["verdict"] == "violation").all(), (name, list(control["verdict"]))


def test_the_audit_check_fails_on_an_unflagged_or_missing_control():
    rows = []
    for name in default_algorithms():
        flagged = "consistent" if ALGORITHMS[name].audit.control else "violation"
        for engine in ("twin", "kernel") if ALGORITHMS[name].replay is not None else ("twin",):
            rows += [(name, engine, "real", 1.0, "consistent"), (name, engine, "control", 0.02, flagged)]
        if ALGORITHMS[name].kind == "regret":
            rows.append((name, "fast", "real", 1.0, "consistent"))
    good = pd.DataFrame(rows, columns=["algorithm", "engine", "role", "noise_factor", "verdict"])
    check_audit_table(good)
    control = good.index[(good["algorithm"] == "dp_ucb_bound") & (good["role"] == "control")]
    for column, value in (("verdict", "consistent"), ("noise_factor", 1.0)):
        bad = good.copy()
        bad.loc[control[-1], column] = value  # the kernel's control passes, or is not under-noised
        with pytest.raises(AssertionError, match="dp_ucb_bound"):
            check_audit_table(bad)
    with pytest.raises(AssertionError, match="dp_ucb_bound"):
        check_audit_table(good.drop(control[-1]))


def test_ledger_evaluates_every_claim_under_every_reading(smoke_run):
    import pandas as pd

    results = smoke_run / "results"
    ledger = pd.read_csv(results / "claims.csv", keep_default_na=False)
    assert {"reading", "robustness", "changed_by", "reading_runs"} <= set(ledger.columns)
    default = ledger[ledger["reading"] == "default"]
    assert set(default["robustness"]) <= {"robust", "depends", "unsettled", "no readings"}
    assert (ledger.loc[ledger["reading"] != "default", "robustness"] == "").all()
    for paper, claim in [("sajed2019", "C-1 (final)"), ("tossou2016", "C1"), ("tossou2016", "C5"), ("chen2024", "C1")]:
        rows = ledger[(ledger["paper"] == paper) & ledger["claim_id"].str.startswith(claim)]
        assert rows["reading"].nunique() >= 3, (paper, claim, sorted(rows["reading"]))
    sajed = set(ledger.loc[ledger["paper"] == "sajed2019", "reading"])
    assert {"gamma_log=2", "gamma_denominator=2", "gamma_log=2 + gamma_denominator=2"} <= sajed
    # each reading writes tables only for what it changes: DP-SE's configurations are the default ones
    manifest = json.loads((results / "readings/gamma_log=2/figures/sajed2019/reading.json").read_text())
    assert manifest["params"] == {"gamma_log": "2"} and set(manifest["runs"]) == {"dp_ucb"}
    text = (results / "claims.md").read_text()
    assert "a diagnostic, not a verdict" in text and "every claim under every reading" in text
    assert (results / "claims_readings.csv").is_file()
