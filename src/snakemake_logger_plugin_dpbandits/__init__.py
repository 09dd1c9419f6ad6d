"""Snakemake logger ``--logger dpbandits``: one line per finished job with the time left (dpbandits.pipeline.progress).

Everything else (start-up, job counts, errors with ``--show-failed-logs``) prints as Snakemake's own
logger prints it; with ``-p``/``--printshellcmds`` or ``--verbose`` every job's full block prints too.
"""

import sys

from snakemake.logging import ColorizingTextHandler, DefaultFormatter, get_event
from snakemake_interface_logger_plugins.base import LogHandlerBase
from snakemake_interface_logger_plugins.common import LogEvent

from dpbandits.pipeline import progress

QUIET_MESSAGES = {"Select jobs to execute..."}  # printed before every batch of jobs


class LogHandler(LogHandlerBase):
    def __post_init__(self) -> None:
        s = self.common_settings
        self.full = bool(s.verbose or s.printshellcmds)
        self.inner = ColorizingTextHandler(nocolor=s.nocolor, stream=sys.stdout if s.stdout else sys.stderr)
        self.inner.setFormatter(DefaultFormatter(s.quiet, s.show_failed_logs))
        self.tracker = progress.Tracker()
        self.finished: list[int] = []
        self.dry_outputs: list[str] = []

    def emit(self, record) -> None:
        event = get_event(record)
        if event == LogEvent.SHELLCMD and not (getattr(record, "shellcmd", None) or getattr(record, "cmd", None)):
            return  # a script: rule has no shell command ("Shell command: None")
        dryrun = self.common_settings.dryrun
        if event == LogEvent.JOB_INFO and dryrun:
            self.dry_outputs.extend(record.output or [])
        if self.full:
            self.inner.emit(record)
        elif event == LogEvent.JOB_INFO:
            if dryrun:
                self._write(f"would run: {progress.label(record.rule_name, record.wildcards)}")
            else:
                self.tracker.start(record.jobid, record.rule_name, record.wildcards)
        elif event == LogEvent.JOB_FINISHED:
            self.finished.append(record.job_id)
        elif event == LogEvent.PROGRESS:
            for jobid in self.finished:
                self._write(self.tracker.finished(jobid, record.done, record.total))
            self.finished.clear()
        elif event in (LogEvent.SHELLCMD, LogEvent.JOB_STARTED, LogEvent.WORKFLOW_STARTED):
            pass  # commands, "Execute 2 jobs...", the provenance header: -p/--verbose print them
        elif event is None and record.getMessage() in QUIET_MESSAGES:
            pass
        else:
            self.inner.emit(record)

    def close(self) -> None:
        if self.common_settings.dryrun and self.dry_outputs:
            for line in progress.summary(self.dry_outputs):
                self._write(line)
            self.dry_outputs.clear()
        super().close()

    def _write(self, line: str) -> None:
        self.inner.stream.write(line + "\n")
        self.inner.flush()

    @property
    def writes_to_stream(self) -> bool:
        return True

    @property
    def writes_to_file(self) -> bool:
        return False

    @property
    def has_filter(self) -> bool:
        return False

    @property
    def has_formatter(self) -> bool:
        return True

    @property
    def needs_rulegraph(self) -> bool:
        return False
