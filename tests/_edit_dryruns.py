"""Run in a repository copy with complete results: for each file named on the command line, append a comment,
dry-run the workflow (Snakemake API, parsed once) and restore the file. Writes {file: [[rule, algorithm]]} of
the jobs each edit plans to the JSON file given first."""

import json
import logging
import os
import sys
from pathlib import Path

from snakemake.api import SnakemakeApi
from snakemake.logging import logger
from snakemake.settings.types import ConfigSettings, DAGSettings, OutputSettings, ResourceSettings

planned = []


class Jobs(logging.Handler):
    def emit(self, record):
        if str(getattr(record, "event", "")).endswith("job_info"):
            planned.append([record.rule_name, (record.wildcards or {}).get("algorithm")])


out, files = sys.argv[1], ["", *sys.argv[2:]]  # "": no edit
plans = {}
with SnakemakeApi(OutputSettings(quiet=set())) as api:
    workflow = api.workflow(
        resource_settings=ResourceSettings(cores=1),
        config_settings=ConfigSettings(configfiles=[Path("config/smoke.yaml")]),
        snakefile=Path("Snakefile"),
        workdir=Path("."),
    )
    logger.addHandler(Jobs())
    for name in files:
        path = Path(name)
        if name:
            text, stat = path.read_text(), path.stat()
            path.write_text(text + "\n# edited\n")  # Snakemake reruns on newer *and* changed inputs
        planned.clear()
        workflow.dag(DAGSettings()).execute_workflow(executor="dryrun")
        plans[name] = sorted(map(list, {tuple(job) for job in planned}))
        if name:
            path.write_text(text)
            os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns))
Path(out).write_text(json.dumps(plans))
