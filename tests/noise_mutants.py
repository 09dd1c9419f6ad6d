"""Mutants of the private algorithms' noise: do the guards notice code that is not epsilon-DP?

Each mutant changes one site of a private algorithm's code or of the code it shares with its twin (a halved
scale in a kernel or in ``mechanisms/``, a draw shared or reused where fresh ones are due, a release made twice, a
missing factor, a budget share given whole, a sampler's law, a parameter default). The sites and the tests that
must kill each one are in ``tests/_mutant_sites.py``. The script applies one mutant at a time to a scratch copy of
the repository and runs the tests listed for it (``pytest -x``); each line names the guard that killed it: the
release ledger, the contract, the audit, or the test file (the block samplers' law tests).

- Fresh compiled code: the copy's numba cache lives in the copy, in a folder keyed by the compiled sources
  (``dpbandits.pipeline.numba_cache``), so every mutant of a module that compiled code reaches is compiled afresh
  (the script checks that the key changed), and no mutant runs a kernel compiled before it.
- A kill is a failed check only: a test that fails an assertion (numpy's ``assert_*``, ``pytest.fail`` and
  a ``pytest.raises`` that saw nothing included) while it runs. A mutant that only makes the tests crash
  (a compile error, an import error, any other exception) is reported BROKEN, not killed
  (``tests/_kill_report.py`` records how each test failed).
- Each line of the report names the test that killed the mutant.

    python tests/noise_mutants.py            # every mutant; one line per mutant, then the kill rate
    python tests/noise_mutants.py dp_se      # the mutants whose site name contains "dp_se"

The tests that killed mutants are then run once more, all together, without any mutant (they must pass, else no
kill rate is reported): a selection's other tests, never run to the end under a kill, need no unmutated run.
Not part of ``pytest`` (each mutant recompiles its kernels, 10-80 s apiece); ``.ci/run`` runs it after the
test suite and fails unless every mutant is killed.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from _mutant_sites import GUARDS, MUTANTS

ROOT = Path(__file__).resolve().parents[1]
PKG = "src/dpbandits"


def copy_repo(dest: Path) -> None:
    files = subprocess.run(
        ["git", "ls-files", "-co", "--exclude-standard"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.split()
    for f in files:
        if (ROOT / f).is_file():
            (dest / f).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / f, dest / f)


@dataclass
class Outcome:
    """What one pytest run of the harness saw: its exit status and each failing test phase
    (``tests/_kill_report.py``'s records)."""

    returncode: int
    failures: list[dict]
    output: str

    @property
    def killers(self) -> list[str]:
        """Tests that failed a check: the only failures that kill a mutant."""
        return [f["test"] for f in self.failures if f["assertion"]]

    @property
    def crashes(self) -> list[str]:
        """Failures that are not failed checks (compile or import errors, crashes), as 'test (error)'."""
        return [f"{f['test']} ({f['error']}, {f['when']})" for f in self.failures if not f["assertion"]]


def _env(scratch: Path) -> dict:
    # the copy's package and the report plugin first; numba's cache inside the copy (dpbandits.pipeline.numba_cache
    # keys it by the compiled sources, so a mutant of any module compiled code reaches compiles afresh)
    return {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(scratch / "src"), str(scratch / "tests")]),
        "DPBANDITS_CACHE_DIR": str(scratch / ".numba-cache"),
        "KILL_REPORT": str(scratch / "kills.jsonl"),
    }


def pytest(tests: list[str], scratch: Path) -> Outcome:
    """Run ``pytest -x`` on ``tests`` (test files of tests/, or pytest options such as ``-k EXPR``) in ``scratch``."""
    report = scratch / "kills.jsonl"
    report.unlink(missing_ok=True)
    args = [f"tests/{t}" if t.partition("::")[0].endswith(".py") and not t.startswith("tests/") else t for t in tests]
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", "-x", "-q", "-p", "no:cacheprovider", "-p", "_kill_report", "-n", "2", *args],
        cwd=scratch,
        capture_output=True,
        text=True,
        env=_env(scratch),
        timeout=1800,
    )
    lines = report.read_text().splitlines() if report.exists() else []
    return Outcome(proc.returncode, [json.loads(line) for line in lines], proc.stdout[-3000:] + proc.stderr[-3000:])


def selection(mutant: tuple) -> tuple[str, ...]:
    """The pytest arguments of a mutant: its test files and ``-k`` its algorithms."""
    return (*mutant[4], "-k", mutant[5])


def compiled(scratch: Path) -> tuple[str, set[str]]:
    """(key, files) of the copy's ``dpbandits.pipeline.numba_cache``: the name of the folder its kernels compile into,
    and the package files (relative to the package) compiled code can reach; ("", set()) if the package does not
    import (a mutant that breaks it is BROKEN)."""
    code = (
        "import json, os; from dpbandits.pipeline import numba_cache as c, sources as s; print(json.dumps([c.key(), "
        "[os.path.relpath(f, s.PACKAGE) for f in c.compiled_sources()]]))"
    )
    proc = subprocess.run([sys.executable, "-c", code], cwd=scratch, env=_env(scratch), capture_output=True, text=True)
    if proc.returncode != 0:
        return "", set()
    key, files = json.loads(proc.stdout.splitlines()[-1])
    return key, set(files)


def guard(test: str) -> str:
    """The guard a test node id belongs to: "ledger", "contract", "audit", else its test file."""
    name = test.partition("::")[0].rpartition("/")[2]
    if name.startswith("test_ledger_"):
        return "ledger"
    return GUARDS.get(name) or ("audit" if name.startswith("test_audit") else name)


def verdict(outcome: Outcome) -> tuple[str, str]:
    """('killed' | 'SURVIVED' | 'BROKEN', detail): killed only by a failed check, never by a crash; the detail of a
    kill is 'guard: test' for the first killing test."""
    if outcome.killers:
        return "killed", ", ".join(f"{guard(t)}: {t}" for t in outcome.killers[:2])
    if outcome.returncode == 0:
        return "SURVIVED", ""
    return "BROKEN", "; ".join(outcome.crashes[:2]) or f"pytest exit {outcome.returncode}: {outcome.output[-300:]}"


def run(
    site: str, file: str, old: str, new: str, tests: list[str], scratch: Path, unmutated: tuple[str, set[str]]
) -> tuple[str, str, float, list[str]]:
    """(verdict, killing test or crash, seconds, the tests that killed it) of one mutant, applied to ``scratch`` and
    undone after; ``unmutated`` is :func:`compiled` of the unmutated copy: (its key, the files compiled code
    reaches)."""
    path = scratch / PKG / file
    text = path.read_text()
    if text.count(old) != 1:
        raise SystemExit(f"{site}: {old!r} occurs {text.count(old)} times in {file}, not once")
    path.write_text(text.replace(old, new))
    start = time.time()
    try:
        key, files = unmutated
        if file in files and compiled(scratch)[0] == key:
            raise SystemExit(f"{site}: the compiled-code key did not change: the mutant would run stale kernels")
        outcome = pytest(tests, scratch)
    finally:
        path.write_text(text)
    status, detail = verdict(outcome)
    return status, detail, time.time() - start, outcome.killers


def main(filters: list[str]) -> int:
    chosen = [m for m in MUTANTS if not filters or any(f in m[0] for f in filters)]
    if not chosen:
        print(f"no mutant site matches {filters}")
        return 2
    with tempfile.TemporaryDirectory() as tmp:
        scratch = Path(tmp)
        copy_repo(scratch)
        unmutated = compiled(scratch)
        counts = {"killed": 0, "SURVIVED": 0, "BROKEN": 0}
        guards: dict[str, int] = {}
        killers: dict[str, str] = {}  # killing test -> the first mutant it killed
        for mutant in chosen:
            site, file, old, new = mutant[:4]
            status, detail, seconds, tests = run(site, file, old, new, list(selection(mutant)), scratch, unmutated)
            counts[status] += 1
            if status == "killed":
                by = detail.partition(":")[0]
                guards[by] = guards.get(by, 0) + 1
                killers.update({t: site for t in tests if t not in killers})
            print(f"{status:8s} {site:50s} {seconds:6.0f} s  {detail}", flush=True)
        # a kill counts only if the tests that killed it pass without it: one run of them all, unmutated
        check = pytest(sorted(killers), scratch) if killers else None
        if check is not None and check.returncode != 0:
            failed = [f"{t} (killed {killers.get(t, '?')})" for t in check.killers + check.crashes]
            print(f"the killing tests fail without their mutants: {'; '.join(failed) or check.output[-300:]}")
            return 2
    print(f"kill rate: {counts['killed']}/{len(chosen)} ({counts['BROKEN']} broken: a crash is not a kill)")
    print("kills per guard: " + ", ".join(f"{g} {n}" for g, n in sorted(guards.items(), key=lambda x: -x[1])))
    return 0 if counts["killed"] == len(chosen) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
