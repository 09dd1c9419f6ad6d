"""Markdown tables of a benchmark report (the JSON of :func:`dpbandits.bench.cli.main`)."""

from __future__ import annotations


def _fmt(x, spec=".1f"):
    return "-" if x is None else format(x, spec)


def markdown(report: dict) -> str:
    """Markdown tables of a benchmark report (see :func:`dpbandits.bench.cli.main`)."""
    meta = report["meta"]
    lines = [
        f"Instance {meta['instance']}, epsilon {meta['epsilon']}, fast horizon {meta['horizon']} x "
        f"{meta['runs']} run(s) (best of {meta['repeats']}), reference horizon {meta['reference_horizon']} "
        f"(best of {meta['reference_repeats']}); "
        f"load {', '.join(f'{x:.2f}' for x in meta['load_before'])} before, "
        f"{', '.join(f'{x:.2f}' for x in meta['load_after'])} after.",
        "",
        "| algorithm | K | rewards | fast ns per (simulated*) pull | reference ns/pull | ratio | "
        "tracemalloc peak KiB | max RSS growth KiB |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for r in report["rows"]:
        name = r["algorithm"] + ("*" if r["collapsed"] else "")
        lines.append(
            f"| {name} | {r['k']} | {r['rewards']} | {_fmt(r['fast_ns_per_pull'], '.2f')} | "
            f"{_fmt(r['reference_ns_per_pull'], '.0f')} | {_fmt(r['ratio'], '.0f')} | "
            f"{_fmt(r['tracemalloc_peak_kib'])} | {_fmt(r['maxrss_delta_kib'], '.0f')} |"
        )
    lines.append("")
    lines.append(
        "\\* collapsed kernel: many pulls per unit of work (Binomial / epoch draws; under another law than "
        "bernoulli, one draw per pull wherever the Binomial stood); ns per simulated pull."
    )
    est = report.get("pipeline_estimate")
    if est:
        lines += [
            "",
            f"Pipeline estimate ({est['jobs']} simulation jobs, {est['job_overhead_s']:.2f} s overhead "
            f"each): {est['core_seconds']:.0f} core-seconds; wall "
            + ", ".join(f"{s:.0f} s on {c} core(s)" for c, s in est["wall_seconds"].items())
            + ".",
            "",
            "| algorithm | jobs | pulls | core-seconds |",
            "|---|---|---|---|",
        ]
        for name, e in sorted(est["per_algorithm"].items(), key=lambda kv: -kv[1]["core_seconds"]):
            flag = "" if e["measured"] else " (unmeasured: overhead only)"
            lines.append(f"| {name}{flag} | {e['jobs']} | {e['pulls']:.3g} | {e['core_seconds']:.1f} |")
    measured = report.get("pipeline_measured")
    if measured:
        lines += [
            "",
            f"Measured pipeline: `{measured['command']}` -> return code {measured['returncode']}, "
            f"{measured['wall_seconds']:.0f} s wall.",
        ]
    return "\n".join(lines)
