"""pytest plugin of the mutant harness (``tests/noise_mutants.py``): how each failing test failed.

Loaded with ``-p _kill_report``; appends one JSON line per failing test phase to the file named by
``$KILL_REPORT``: ``{"test": nodeid, "when": "setup" | "call" | "teardown", "error": exception type,
"assertion": bool}``. ``assertion`` is true for a failed check during the test's call (an
``AssertionError``, numpy's ``assert_*`` included, or ``pytest.fail`` / ``pytest.raises`` not raising),
the only failure that counts as killing a mutant; a compile error, an import error or a crash does not.
Works under pytest-xdist: each worker appends its own lines.
"""

from __future__ import annotations

import json
import os

import pytest


def is_assertion(when: str, error: BaseException) -> bool:
    """True if ``error`` raised in phase ``when`` is a failed check rather than a crash."""
    return when == "call" and isinstance(error, AssertionError | pytest.fail.Exception)


def _record(test: str, when: str, error: str, assertion: bool) -> None:
    with open(os.environ["KILL_REPORT"], "a") as fh:
        fh.write(json.dumps({"test": test, "when": when, "error": error, "assertion": assertion}) + "\n")


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item, call):
    report = yield
    if report.failed and call.excinfo is not None:
        _record(item.nodeid, call.when, call.excinfo.typename, is_assertion(call.when, call.excinfo.value))
    return report


def pytest_collectreport(report):
    if report.failed:  # a module that no longer imports: a crash, never a kill
        _record(report.nodeid, "collect", "collection", False)
