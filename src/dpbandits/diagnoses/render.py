"""A paper's replication report: one self-contained HTML page (``results/report/<paper>.html``).

It opens on the verdicts and the diagnoses (each ending on its conclusion), then gives the verdicts under every
reading, what the paper's text lost (the reading axes of its algorithms) and its figures. Images are embedded
(``data:`` URLs) and no script or stylesheet is fetched, so the page reads offline.
"""

from __future__ import annotations

import base64
import html
from pathlib import Path

import pandas as pd

from ..claims import ledger
from ..claims._core import KINDS
from ..core import registry
from ..core.provenance import made_with
from ..drawing.notebook import SMOKE, SMOKE_COLOUR, VERDICT_COLOURS, scale_note
from ._core import CONCLUSIONS, Diagnosis, Finding

CONCLUSION_COLOURS = {
    "published": "#f6d5cc",
    "text open": "#fbeec2",
    "reconstruction suspect": "#dde6f5",
    "not explained": "#e4dcef",
}
STYLE = """
body { font-family: system-ui, sans-serif; max-width: 64em; margin: 2em auto; padding: 0 1em; line-height: 1.45 }
table { border-collapse: collapse; margin: 0.5em 0 1em } td, th { border: 1px solid #ccc; padding: 2px 6px;
text-align: left; vertical-align: top; font-size: 0.92em } blockquote { margin: 0.5em 0; padding: 0.2em 1em;
border-left: 3px solid #bbb; color: #333 } .badge { padding: 1px 6px; border-radius: 3px }
.banner { background: #fff3cd; padding: 0.5em 1em } img { max-width: 100% } h3 { margin-top: 1.6em }
.undiagnosed { color: #a00 }
"""


def md(text: str) -> str:
    """Markdown to HTML (CommonMark with tables, through mistune)."""
    import mistune

    return mistune.html(text)


def _img(path: Path, alt: str) -> str:
    data = base64.b64encode(Path(path).read_bytes()).decode()
    return f'<img alt="{html.escape(alt)}" src="data:image/png;base64,{data}">'


def _table(df: pd.DataFrame, colour: dict | None = None) -> str:
    """An HTML table of ``df`` (cells escaped; a cell whose text is a key of ``colour`` gets that background)."""
    head = "".join(f"<th>{html.escape(str(c))}</th>" for c in df.columns)
    rows = []
    for rec in df.itertuples(index=False):
        cells = []
        for v in rec:
            style = f' style="background:{colour[v]}"' if colour and isinstance(v, str) and v in colour else ""
            cells.append(f"<td{style}>{v if str(v).startswith('<a ') else html.escape(str(v))}</td>")
        rows.append("<tr>" + "".join(cells) + "</tr>")
    return f"<table><tr>{head}</tr>{''.join(rows)}</table>"


def undiagnosed(verdicts: pd.DataFrame, diagnosed: set[str]) -> list[str]:
    """Claim ids that need a diagnosis and have none: a default verdict that fails robustly (or with no reading to
    vary), or that depends on a reading."""
    need = verdicts[
        ((verdicts["verdict"] == "fails") & verdicts["robustness"].isin(["robust", "no readings"]))
        | (verdicts["robustness"] == "depends")
    ]
    return [c for c in need["claim_id"] if c not in diagnosed]


def _fmt(v) -> str:
    return f"{v:.4g}" if isinstance(v, float) else str(v)


def _smoke(found, settings: dict | None = None) -> bool:
    """Whether the findings (or the settings) come from a run under a smoke config's scale caps."""
    return bool((settings or {}).get("scale")) or any(f.smoke for _, f in found)


def findings_table(paper: str, found: list[tuple[Diagnosis, Finding]]) -> pd.DataFrame:
    """One row per diagnosis: its claims, whether the experiment confirmed the mechanism, the conclusion (``SMOKE``
    under a smoke config's caps) and the rule that chose it."""
    smoke = _smoke(found)
    return pd.DataFrame(
        [
            {
                "paper": paper,
                "diagnosis": d.name,
                "claims": "; ".join(d.claims),
                "title": d.title,
                "confirmed": f.confirmed,
                "conclusion": SMOKE if smoke else f.conclusion,
                "rule": f.rule,
                "summary": f.summary,
                "numbers": "; ".join(f"{k}={_fmt(v)}" for k, v in f.numbers.items()),
            }
            for d, f in found
        ],
        columns=["paper", "diagnosis", "claims", "title", "confirmed", "conclusion", "rule", "summary", "numbers"],
    )


def _finding_html(d: Diagnosis, f: Finding, figure_dir: Path, smoke: bool = False) -> str:
    colour, text = (SMOKE_COLOUR, SMOKE) if smoke else (CONCLUSION_COLOURS[f.conclusion], CONCLUSIONS[f.conclusion])
    badge = f'<span class="badge" style="background:{colour}">{text}</span>'
    parts = [
        f'<h3 id="{d.name}">{html.escape(d.title)}</h3>',
        f"<p>Claims: {html.escape(', '.join(d.claims))} · Conclusion: {badge} · "
        f"Mechanism {'shown' if f.confirmed else '<b>not shown</b>'} by the experiment</p>",
        f"<p><b>{html.escape(f.summary)}</b></p>",
        md(f"Rule: {f.rule or 'none recorded'}"),
        "<h4>Mechanism</h4>" + md(f.mechanism),
        "<h4>Experiment</h4>" + md(f.experiment),
        "<h4>Result</h4>" + md(f.result),
    ]
    if f.quotes:
        parts.append(
            "<h4>The paper's words</h4>"
            + "".join(f"<blockquote>“{html.escape(q.text)}” ({html.escape(q.where)})</blockquote>" for q in f.quotes)
        )
    if f.figure:
        parts.append(_img(figure_dir / f.figure, d.title))
    return "\n".join(parts)


def axes_table(settings: dict) -> pd.DataFrame:
    """The reading axes of the paper's algorithms and instances: the value used (an instance's: its default), and
    every plausible reading with its reason."""
    from ..pipeline.readings import instance_axes

    def row(owner, key, used, spec):
        readings = "; ".join(f"{v}: {why}" for v, why in spec.readings.items())
        return {"algorithm or instance": owner, "axis": key, "used": used, "readings": readings}

    rows = [
        row(name, key, used[key], spec)
        for name, used in settings["algorithms"].items()
        for key, spec in registry.ALGORITHMS[name].params.items()
        if spec.is_axis
    ]
    labels = [f.get("instances", "") for f in settings["figures"]]
    for inst, params in instance_axes().items():
        if any(label.split(",")[0] == inst for text in labels for label in text.split("; ")):
            rows += [row(inst, key, spec.default, spec) for key, spec in params.items()]
    return pd.DataFrame(rows, columns=["algorithm or instance", "axis", "used", "readings"])


def report_html(results, paper: str, settings: dict, found, figure_dir) -> str:
    """The report page of ``paper`` (see the module's docstring)."""
    results, figure_dir = Path(results), Path(figure_dir)
    verdicts = ledger.verdicts(results, paper)
    smoke = _smoke(found, settings)
    colours = {SMOKE: SMOKE_COLOUR} if smoke else VERDICT_COLOURS
    where = {c: d.name for d, _ in found for c in d.claims}
    table = pd.DataFrame(
        {
            "claim": verdicts["claim_id"],
            "kind": verdicts["kind"].map(KINDS),
            "verdict": SMOKE if smoke else verdicts["verdict"],
            "robustness": verdicts["robustness"],
            "changed by": verdicts["changed_by"],
            "diagnosis": [f'<a href="#{where[c]}">{where[c]}</a>' if c in where else "" for c in verdicts["claim_id"]],
        }
    )
    missing = undiagnosed(verdicts, set(where))
    grid = ledger.reading_grid(results, paper).reset_index()
    if smoke:
        grid = grid.set_index("claim_id").map(lambda v: SMOKE if v in VERDICT_COLOURS else v).reset_index()
    main = [f for f in settings["figures"] if not f["figure"].startswith(("diagnostics/", "frontier/"))]
    note = scale_note(settings.get("scale"))
    body = [
        f"<h1>Replication report: {html.escape(settings['title'])}</h1>",
        f'<div class="banner">{md(note)}</div>' if note else "",
        "<h2>Verdicts</h2>",
        "<p>Each row's headline verdict: the verdict under the readings of the reconstructed values that the paper's "
        "text supports best, with its robustness over the readings the text does not contradict "
        "(docs/reconstructions.md). <i>paper claim</i> rows test a sentence of the paper; the others are the "
        "project's own checks.</p>",
        _table(table, colours),
        (
            f'<p class="undiagnosed">Failing robustly or depending on a reading, without a diagnosis: '
            f"{html.escape(', '.join(missing))}</p>"
            if missing
            else ""
        ),
        "<h2>Diagnoses</h2>",
        *(_finding_html(d, f, figure_dir, smoke) for d, f in found),
        "<h2>Verdicts under every reading</h2>",
        _table(grid, colours),
        "<h2>What the text lost</h2>",
        "<p>The reading axes of the paper's algorithms: values the paper's text does not fix, each with the reason "
        "it is plausible (docs/reconstructions.md).</p>",
        _table(axes_table(settings)),
        "<h2>Figures</h2>",
        *(
            f"<p>{html.escape(f['caption'])}</p>"
            + _img(results / "figures" / paper / f"{f['figure']}.png", f["figure"])
            for f in main
        ),
        f"<p><i>Made with {html.escape(made_with())}.</i></p>",
    ]
    title = html.escape(f"Replication report: {paper}")
    return (
        f'<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><title>{title}</title>'
        f"<style>{STYLE}</style></head><body>\n" + "\n".join(b for b in body if b) + "\n</body></html>\n"
    )
