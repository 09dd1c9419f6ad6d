"""Mutants of the private kernels' noise: does the contract notice a kernel that is not epsilon-DP?

Each mutant changes one noise draw site of a private algorithm's code (a halved scale, a draw shared or
reused where fresh ones are due, a missing factor, a budget share given whole). The script applies one
mutant at a time to a scratch copy of the repository and runs the tests listed for it (``pytest -x``).

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

Each test that kills a mutant is then run again without it (it must pass, else no kill rate is reported): a
selection's other tests, never run to the end under a kill, need no unmutated run.
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

ROOT = Path(__file__).resolve().parents[1]
PKG = "src/dpbandits"

CONTRACT = ["test_contract.py"]  # README, "One contract for every algorithm"
# the release ledger of each family (README, "The release ledger"): cheap and exact, so it runs first (pytest -x)
GENERATOR = ["test_privacy.py", "test_ledger_generator.py"]  # DP-SE, DP-SE 2, the lazy epochs, AdaP
TOSSOU = ["test_privacy.py", "test_ledger_tossou.py"]  # DP-UCB, the Tossou family, Private-UCB, LDP-UCB-L
BAI = ["test_privacy.py", "test_ledger_bai.py"]
SAMPLERS = ["test_samplers.py"]  # the block samplers' laws, without numpy's streams
#: the guard a test belongs to, by its file: the ledger, the contract, the privacy audit, else the file itself
GUARDS = {"test_privacy.py": "ledger", "test_contract.py": "contract"}

#: (site, file, original text, mutated text, tests that exercise it, their cases that reach the site: a ``pytest -k``
#: expression); each original occurs once in its file. The selections name the cheap ledger tests (or the samplers'
#: law tests) alone where they kill the mutant; the contract only where the ledger cannot see it (a site its runs do
#: not reach, a noise added that differs from the one noted). Most halve one noise scale (a 2 epsilon-DP kernel);
#: the others share or reuse draws, drop a factor, give a part the whole epsilon, or change a sampler's law.
MUTANTS = [
    (
        "dp_se / dp_se2 epoch release",
        "bandits/_release.py",
        "rng.laplace(0.0, scale)",
        "rng.laplace(0.0, 0.5 * scale)",
        [*GENERATOR],
        "dp_se",
    ),
    (
        "dp_se / dp_se2 release: one draw shared by the arms",
        "bandits/_release.py",
        "noise = rng.laplace(0.0, scale)",
        "noise = rng.laplace(0.0, scale) if j == 0 else noisy[arms[0]] - sums[arms[0]] / n",
        [*GENERATOR],
        "dp_se",
    ),
    (
        "dp_se2 SVT threshold",
        "bandits/dp_se2.py",
        "b = rng.laplace(0.0, svt_scale)",
        "b = rng.laplace(0.0, 0.5 * svt_scale)",
        [*GENERATOR],
        "dp_se2",
    ),
    (
        "dp_se2 SVT check",
        "bandits/dp_se2.py",
        "a_r = rng.laplace(0.0, svt_scale)",
        "a_r = rng.laplace(0.0, 0.5 * svt_scale)",
        [*GENERATOR],
        "dp_se2",
    ),
    (
        "dp_se2 SVT given the whole epsilon",
        "bandits/dp_se2.py",
        "svt_scales(1.0, epsilon / 2.0)",
        "svt_scales(1.0, epsilon)",
        [*GENERATOR],
        "dp_se2",
    ),
    (
        "dp_se2 histogram scale",
        "bandits/dp_se2.py",
        "noisy_means(sums, r, arms, m, hist_unit / r, rng, noisy, book, pulls)",
        "noisy_means(sums, r, arms, m, 0.5 * hist_unit / r, rng, noisy, book, pulls)",
        [*GENERATOR],
        "dp_se2",
    ),
    (
        "dp_se release scale",
        "bandits/dp_se.py",
        "release_scale(epsilon, big_r, scale_by_real), rng, noisy, book, pulls)",
        "0.5 * release_scale(epsilon, big_r, scale_by_real), rng, noisy, book, pulls)",
        [*GENERATOR],
        "dp_se",
    ),
    (
        "lazy epoch release (lazy_dp_ts, anytime_lazy_ucb)",
        "bandits/_lazy.py",
        "scale = 1.0 / epsilon",
        "scale = 0.5 / epsilon",
        [*GENERATOR],
        "lazy",
    ),
    (
        "adap_klucb first release",
        "bandits/_adap.py",
        "scale = 1.0 / epsilon",
        "scale = 0.5 / epsilon",
        [*GENERATOR],
        "adap_klucb",
    ),
    (
        "adap_klucb episode release",
        "bandits/_adap.py",
        "scale = 1.0 / (epsilon * length)",
        "scale = 0.5 / (epsilon * length)",
        [*GENERATOR],
        "adap_klucb",
    ),
    (
        "adap_ucb first release",
        "bandits/_adap.py",
        "scale = 1.0 / epsilon",
        "scale = 0.5 / epsilon",
        [*GENERATOR],
        "adap_ucb",
    ),
    (
        "adap_ucb episode release",
        "bandits/_adap.py",
        "scale = 1.0 / (epsilon * length)",
        "scale = 0.5 / (epsilon * length)",
        [*GENERATOR],
        "adap_ucb",
    ),
    (
        "ldp_ucb local Laplace on each reward",
        "bandits/ldp_ucb.py",
        "epsilon, 1.0 / epsilon, params",
        "epsilon, 0.5 / epsilon, params",
        [*TOSSOU],
        "ldp_ucb",
    ),
    (
        "dp_ucb tree nodes",
        "bandits/dp_ucb.py",
        "fill_draws(sb, crit, scale, u, eta)",
        "fill_draws(sb, crit, 0.5 * scale, u, eta)",
        [*TOSSOU],
        "dp_ucb and not dp_ucb_",
    ),
    (
        "dp_ucb tree nodes under a non-Bernoulli reward law",
        "bandits/dp_ucb.py",
        "fill_laplace(sb, scale, eta)",
        "fill_laplace(sb, 0.5 * scale, eta)",
        CONTRACT,  # the ledger's runs have Bernoulli rewards: only the contract's law cases reach this site
        "under_each_law and dp_ucb and not dp_ucb_",
    ),
    (
        "hybrid counter node noise without its level factor (dp_ucb_bound, dp_ucb_tossou)",
        "bandits/_counters.py",
        "k * node_scale * eta",
        "node_scale * eta",
        [*TOSSOU],
        "dp_ucb_bound or dp_ucb_tossou",
    ),
    (
        "dp_ucb_bound hybrid counter",
        "bandits/dp_ucb_bound.py",
        "eta[ec], scale, scale",
        "0.5 * eta[ec], scale, scale",
        [*TOSSOU],
        "dp_ucb_bound",
    ),
    (
        "dp_ucb_int interval release",
        "bandits/dp_ucb_int.py",
        "float(n[i]) ** expo * eta[ec]",
        "0.5 * float(n[i]) ** expo * eta[ec]",
        [*TOSSOU],
        "dp_ucb_int",
    ),
    (
        "dp_ucb_int: one draw per arm reused across intervals",
        "bandits/dp_ucb_int.py",
        "float(n[i]) ** expo * eta[ec]",
        "float(n[i]) ** expo * eta[i]",
        [*TOSSOU],
        "dp_ucb_int",
    ),
    (
        "dp_ucb_tossou hybrid counter",
        "bandits/dp_ucb_tossou.py",
        "eta[ec + i], scale, scale",
        "0.5 * eta[ec + i], scale, scale",
        [*TOSSOU],
        "dp_ucb_tossou",
    ),
    (
        "private_ucb tree",
        "bandits/private_ucb.py",
        "e = node_scale * eta[ec]",
        "e = 0.5 * node_scale * eta[ec]",
        [*TOSSOU],
        "private_ucb",
    ),
    (
        "Tossou-family Laplace refill (dp_ucb_bound, dp_ucb_int, dp_ucb_tossou, private_ucb)",
        "bandits/_tossou.py",
        "fill_laplace(sb, 1.0, eta)",
        "fill_laplace(sb, 0.5, eta)",
        [*TOSSOU],
        "dp_ucb_bound or dp_ucb_int or dp_ucb_tossou or private_ucb",
    ),
    (
        "dp_bai phase scores (dp_bai, dp_bai_gauss)",
        "bai/dp_bai.py",
        "scores = add_noise(table.pull(active, n), plan.noise_scale(n)",
        "scores = add_noise(table.pull(active, n), 0.5 * plan.noise_scale(n)",
        [*BAI],
        "dp_bai",
    ),
    (
        "dp_bai basis estimates",
        "bai/dp_bai.py",
        "noisy = add_noise(table.pull(active[basis], n), plan.noise_scale(n)",
        "noisy = add_noise(table.pull(active[basis], n), 0.5 * plan.noise_scale(n)",
        [*BAI],
        "dp_bai",
    ),
    (
        "dp_od projected estimates",
        "bai/od_linbai.py",
        "add_noise(u, l1 / plan.epsilon",
        "add_noise(u, 0.5 * l1 / plan.epsilon",
        [*BAI],
        "dp_od",
    ),
    # --- shared code: the mechanisms' scales, the block samplers, parameter defaults and epsilon splits
    (
        "mechanisms.noise.laplace_scale halved (dp_se2 histogram and sparse vector, dp_bai)",
        "mechanisms/noise.py",
        "return sensitivity / epsilon",
        "return 0.5 * sensitivity / epsilon",
        [*GENERATOR, *BAI],
        "dp_se2 or dp_bai",
    ),
    (
        "mechanisms.noise.gaussian_sigma without sqrt(2 ln(1.25/delta)) (dp_bai_gauss)",
        "mechanisms/noise.py",
        "return math.sqrt(2.0 * math.log(1.25 / delta)) * sensitivity / epsilon",
        "return sensitivity / epsilon",
        [*BAI],
        "dp_bai_gauss",
    ),
    (
        "mechanisms.noise.tree_levels halved (dp_ucb node scale)",
        "mechanisms/noise.py",
        "return math.ceil(math.log2(horizon)) + 1",
        "return (math.ceil(math.log2(horizon)) + 1) // 2",
        [*TOSSOU],
        "dp_ucb and not dp_ucb_",
    ),
    (
        "mechanisms.noise.tree_bits one level short (private_ucb tree depth)",
        "mechanisms/noise.py",
        "return int(horizon).bit_length()",
        "return int(horizon).bit_length() - 1",
        [*TOSSOU],
        "private_ucb",
    ),
    (
        "mechanisms.stopping.svt_scales halved (dp_se2 sparse vector)",
        "mechanisms/stopping.py",
        "b = 3.0 * laplace_scale(sensitivity, epsilon)",
        "b = 1.5 * laplace_scale(sensitivity, epsilon)",
        [*GENERATOR],
        "dp_se2",
    ),
    (
        "bandits._draws.fill_laplace halved",
        "bandits/_draws.py",
        "x = scale * e\n        eta[j] = -x if word & np.uint64(1) else x",
        "x = 0.5 * scale * e\n        eta[j] = -x if word & np.uint64(1) else x",
        [*SAMPLERS, "test_ledger_tossou.py"],
        "fill_laplace or standard_laplace",
    ),
    (
        "bandits._draws.fill_laplace clipped at +-scale",
        "bandits/_draws.py",
        "eta[j] = -x if word & np.uint64(1) else x",
        "eta[j] = -min(x, scale) if word & np.uint64(1) else min(x, scale)",
        [*SAMPLERS, "test_ledger_tossou.py"],
        "fill_laplace or standard_laplace",
    ),
    (
        "bandits._draws.fill_draws Laplace part halved (fast path)",
        "bandits/_draws.py",
        "y0, y1, y2 = scale * x0, scale * x1, scale * x2",
        "y0, y1, y2 = 0.5 * scale * x0, 0.5 * scale * x1, 0.5 * scale * x2",
        [*SAMPLERS, "test_ledger_tossou.py"],
        "fill_draws or (standard_laplace and dp_ucb)",
    ),
    (
        "bandits._gamma Marsaglia-Tsang draws Gamma(shape + 2/3) (lazy_dp_ts posterior)",
        "bandits/_gamma.py",
        "d = shape - 1.0 / 3.0",
        "d = shape + 1.0 / 3.0",
        [*SAMPLERS],
        "standard_gamma or beta_draws or lazy_dp_ts",
    ),
    (
        "hybrid_split 'half' read as 'none': each part given the whole epsilon (dp_ucb_bound, dp_ucb_tossou)",
        "bandits/_params.py",
        'return 2.0 if params["hybrid_split"] == "half" else 1.0',
        "return 1.0",
        [*TOSSOU],
        "dp_ucb_bound or dp_ucb_tossou",
    ),
    (
        "dp_se2 histogram given the whole epsilon",
        "bandits/dp_se2.py",
        "laplace_scale(1.0 / r, epsilon / 2.0)",
        "laplace_scale(1.0 / r, epsilon)",
        [*GENERATOR],
        "dp_se2",
    ),
    (
        "dp_ucb_int delta default e^-10 -> e^-3",
        "bandits/dp_ucb_int.py",
        "Param(math.exp(-10), low=0.0",
        "Param(math.exp(-3), low=0.0",
        [*TOSSOU],
        "dp_ucb_int",
    ),
    (
        "private_ucb node scale halved",
        "bandits/private_ucb.py",
        "return tree_bits(horizon) / eps_tree",
        "return 0.5 * tree_bits(horizon) / eps_tree",
        [*TOSSOU],
        "private_ucb",
    ),
    # --- a release made twice, a tree node reused
    (
        "lazy epoch released twice, the two releases averaged (lazy_dp_ts, anytime_lazy_ucb)",
        "bandits/_lazy.py",
        "    mu[a] = (phi + noise) / m\n    if book is not None:\n"
        "        note(book, LAPLACE, a, m, 2 * m - 1, 1.0, scale, next_draw(book), noise)\n",
        "    again = rng.laplace(0.0, scale)\n    mu[a] = (phi + 0.5 * (noise + again)) / m\n    if book is not None:\n"
        "        note(book, LAPLACE, a, m, 2 * m - 1, 1.0, scale, next_draw(book), noise)\n"
        "        note(book, LAPLACE, a, m, 2 * m - 1, 1.0, scale, next_draw(book), again)\n",
        [*GENERATOR],
        "lazy",
    ),
    (
        "_counters tree node reused: the level-1 node at m = 2 mod 4 gets node m-1's noise (dp_ucb, private_ucb, ...)",
        "bandits/_counters.py",
        "levels[_U(trailing_zeros(m))] = base + eta",
        "levels[_U(trailing_zeros(m))] = base + (levels[0] - base if m & 3 == 2 else eta)",
        [*TOSSOU, *CONTRACT],
        "private_ucb or (dp_ucb and not dp_ucb_)",
    ),
]


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
) -> tuple[str, str, float]:
    """(verdict, killing test or crash, seconds) of one mutant, applied to ``scratch`` and undone after;
    ``unmutated`` is :func:`compiled` of the unmutated copy: (its key, the files compiled code reaches)."""
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
    if status == "killed":  # a kill counts only if the killing tests pass without the mutant
        unmutated_run = pytest(outcome.killers, scratch)
        if unmutated_run.returncode != 0:
            print(f"{site}: the unmutated tests fail ({verdict(unmutated_run)[1] or unmutated_run.output[-300:]})")
            raise SystemExit(2)
    return status, detail, time.time() - start


def main(filters: list[str]) -> int:
    chosen = [m for m in MUTANTS if not filters or any(f in m[0] for f in filters)]
    with tempfile.TemporaryDirectory() as tmp:
        scratch = Path(tmp)
        copy_repo(scratch)
        unmutated = compiled(scratch)
        counts = {"killed": 0, "SURVIVED": 0, "BROKEN": 0}
        guards: dict[str, int] = {}
        for mutant in chosen:
            site, file, old, new = mutant[:4]
            status, detail, seconds = run(site, file, old, new, list(selection(mutant)), scratch, unmutated)
            counts[status] += 1
            if status == "killed":
                by = detail.partition(":")[0]
                guards[by] = guards.get(by, 0) + 1
            print(f"{status:8s} {site:50s} {seconds:6.0f} s  {detail}", flush=True)
    print(f"kill rate: {counts['killed']}/{len(chosen)} ({counts['BROKEN']} broken: a crash is not a kill)")
    print("kills per guard: " + ", ".join(f"{g} {n}" for g, n in sorted(guards.items(), key=lambda x: -x[1])))
    return 0 if counts["killed"] == len(chosen) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
