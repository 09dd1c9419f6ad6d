"""The pipeline's terminal output: one line per finished job with the time left (dpbandits.pipeline.progress and the
``dpbandits`` Snakemake logger), fed Snakemake's log records directly."""

import io
import logging
from types import SimpleNamespace

import pytest

pytest.importorskip("snakemake")

from snakemake_interface_logger_plugins.common import LogEvent  # noqa: E402

from dpbandits.pipeline import progress  # noqa: E402
from dpbandits.pipeline.catalogue.costs import cost_summary
from dpbandits.pipeline.catalogue.model import Job
from snakemake_logger_plugin_dpbandits import LogHandler  # noqa: E402


class Clock:
    def __init__(self):
        self.now = 0.0

    def __call__(self):
        return self.now


def test_label_is_the_rule_and_its_wildcards_without_the_hash():
    wildcards = {"algorithm": "dp_se", "bid": "0123456789ab", "start": "0", "stop": "4"}
    assert progress.label("simulate", wildcards) == "simulate dp_se runs 0-4"
    assert progress.label("notebook", {"paper": "hu2022"}) == "notebook hu2022"
    assert progress.label("claims", None) == "claims"


def test_time_left_scales_the_elapsed_time_by_the_estimated_cost_left():
    clock = Clock()
    tracker = progress.Tracker({1: 10.0, 2: 30.0, 3: 60.0}, clock=clock)
    tracker.start(1, "simulate", {"algorithm": "a"})
    tracker.start(2, "simulate", {"algorithm": "b"})
    clock.now = 20.0
    line = tracker.finished(1, done=1, total=3)
    # 10 of 100 estimated core-seconds done in 20 s: 90 left take 180 s
    assert tracker.time_left(clock.now, 1, 3) == pytest.approx(180.0)
    assert line == "[1/3] simulate a  20 s  (~3 min left)"
    clock.now = 40.0
    tracker.finished(2, done=2, total=3)
    assert tracker.time_left(clock.now, 2, 3) == pytest.approx(40.0 * 60 / 40)
    tracker.start(3, "claims", None)
    assert "left" not in tracker.finished(3, done=3, total=3)  # nothing left to estimate


def test_without_estimates_every_job_counts_the_same():
    clock = Clock()
    tracker = progress.Tracker({}, clock=clock)
    for jobid in range(4):
        tracker.start(jobid, "figures", None)
    clock.now = 10.0
    tracker.finished(0, done=1, total=4)
    assert tracker.time_left(clock.now, 1, 4) == pytest.approx(30.0)


def test_durations_read_naturally():
    assert [progress.duration(s) for s in (3, 89, 600, 7200)] == ["3 s", "89 s", "10 min", "2.0 h"]


def _handler(**settings):
    common = SimpleNamespace(
        **{
            "verbose": False,
            "printshellcmds": False,
            "nocolor": True,
            "quiet": set(),
            "show_failed_logs": True,
            "stdout": False,
            "dryrun": False,
            "debug_dag": False,
            **settings,
        }
    )
    handler = LogHandler(common, None)
    handler.inner.stream = io.StringIO()
    return handler


def _record(event, msg=None, **extra):
    record = logging.LogRecord("snakemake", logging.INFO, __file__, 0, msg, None, None)
    record.__dict__.update(event=event, **extra)
    return record


def _job_info(jobid, rule="simulate", **wildcards):
    return _record(
        LogEvent.JOB_INFO,
        f"Rule: {rule}, Jobid: {jobid}",
        jobid=jobid,
        rule_name=rule,
        rule_msg=None,
        wildcards=wildcards,
        local=True,
        input=["/a/very/long/input/path"] * 40,
        output=[f"out{jobid}"],
        log=[],
        benchmark=None,
        reason="Missing output files",
        resources={},
        priority=0,
        threads=1,
        indent=False,
        is_checkpoint=False,
        printshellcmd=True,
        is_handover=False,
        shellcmd="python -m x",
    )


def _run_jobs(handler, n):
    for jobid in range(n):
        handler.emit(_job_info(jobid, algorithm=f"alg{jobid}"))
        handler.emit(_record(LogEvent.SHELLCMD, "Shell command: python -m x", shellcmd="python -m x"))
        handler.emit(_record(None, "Select jobs to execute..."))
    for jobid in range(n):
        handler.emit(_record(LogEvent.JOB_FINISHED, f"Finished jobid: {jobid}", job_id=jobid))
        handler.emit(_record(LogEvent.PROGRESS, done=jobid + 1, total=n))
    return handler.inner.stream.getvalue().splitlines()


def test_a_job_prints_one_short_line_with_the_time_left():
    lines = _run_jobs(_handler(), 5)
    assert len(lines) == 5, lines
    assert all(len(line) < 100 and "/a/very/long" not in line for line in lines)
    assert lines[0].startswith("[1/5] simulate alg0") and all("left)" in line for line in lines[:-1])


def test_printshellcmds_prints_every_job_in_full():
    lines = _run_jobs(_handler(printshellcmds=True), 5)
    text = "\n".join(lines)
    assert text.count("rule simulate:") == 5 and text.count("python -m x") >= 5
    assert "/a/very/long/input/path" in text and "5 of 5 steps (100%) done" in text


def test_a_script_rule_prints_no_empty_shell_command():
    handler = _handler(printshellcmds=True)
    handler.emit(_record(LogEvent.SHELLCMD, "Shell command: None", shellcmd=None))
    assert handler.inner.stream.getvalue() == ""


def test_a_failing_job_keeps_its_full_error_block():
    handler = _handler()
    handler.emit(
        _record(
            LogEvent.JOB_ERROR,
            None,
            jobid=3,
            rule_name="simulate",
            rule_msg=None,
            input=["in.py"],
            output=["out.npz"],
            log=[],
            conda_env=None,
            container_img=None,
            aux={},
            shellcmd="python -m x --specs",
            indent=False,
        )
    )
    text = handler.inner.stream.getvalue()
    assert "Error in rule simulate:" in text and "python -m x --specs" in text and "in.py" in text


def test_a_dry_run_lists_jobs_one_line_each_then_the_estimate(monkeypatch):
    seen = []
    monkeypatch.setattr(progress, "_SUMMARY", [lambda outputs: seen.extend(outputs) or ["dpbandits: estimate"]])
    handler = _handler(dryrun=True)
    for jobid in range(3):
        handler.emit(_job_info(jobid, algorithm="dp_se"))
    handler.close()
    lines = handler.inner.stream.getvalue().splitlines()
    assert lines == ["would run: simulate dp_se"] * 3 + ["dpbandits: estimate"]
    assert seen == ["out0", "out1", "out2"]


def test_cost_summary_counts_the_jobs_it_is_given_and_flags_the_papers_scale():
    job = Job("dp_se", (), 0, 4)
    jobs = {"a": job, "b": job, "c": job}
    lines = cost_summary(jobs, ["a", "c"], warn_hours=1.0, papers_scale=True)
    assert lines[0].startswith("dpbandits: 2 of 3 simulation jobs to run")
    assert "papers' scale" in lines[1] and "config/smoke.yaml" in lines[1]
    assert len(cost_summary(jobs, ["a"], warn_hours=1.0)) == 1
