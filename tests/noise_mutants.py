"""Noise-halving mutants of the fast kernels: does some test notice a kernel that is 2-epsilon-DP?

Each mutant halves the scale of one noise draw site of a private algorithm's fast code. The script applies
one mutant at a time to a scratch copy of the repository, runs the tests that exercise that algorithm
(``pytest -x``, stopping at the first failure) and reports which mutants the tests kill.

    python tests/noise_mutants.py            # every mutant; prints one line per mutant and the kill rate
    python tests/noise_mutants.py dp_se      # the mutants of the sites whose name contains "dp_se"

The tests are first run without a mutant (they must pass, else no kill rate is reported). Not part of
``pytest`` (each mutant recompiles its kernels in the copy, 10-80 s apiece); ``.ci/run`` runs it after
the test suite and fails if a mutant survives.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PKG = "src/dpbandits"

CONTRACT = ["test_contract.py"]  # the contract alone must kill every mutant (README, "One contract ...")
REGRET_TESTS = CONTRACT
# BAI runs have no twin (the registry refuses them), so the contract has nothing to compare a BAI run's noise
# with: the noise-scale checks of test_bai_privacy.py (Chen et al., Section 5) kill the BAI mutants
BAI_TESTS = ["test_bai_privacy.py", *CONTRACT]

#: (site, file, original text, mutated text, tests that exercise it, the algorithms whose contract cases kill it:
#: a ``pytest -k`` expression); each original occurs once in its file. Most halve one noise scale (a 2 epsilon-DP
#: kernel); the others share one draw among the arms of a release, drop the tree level factor of the node noise,
#: reuse one draw across releases, or give the sparse vector the whole epsilon instead of its share.
MUTANTS = [
    ("dp_se / dp_se2 epoch release", "bandits/_release.py", "rng.laplace(0.0, scale)",
     "rng.laplace(0.0, 0.5 * scale)", CONTRACT, "dp_se"),
    ("dp_se / dp_se2 release: one draw shared by the arms", "bandits/_release.py",
     "noisy[a] = sums[a] / n + rng.laplace(0.0, scale)",
     "noisy[a] = sums[a] / n + (rng.laplace(0.0, scale) if j == 0 else noisy[arms[0]] - sums[arms[0]] / n)",
     CONTRACT, "dp_se"),
    ("dp_se2 SVT threshold", "bandits/dp_se2.py", "b = rng.laplace(0.0, svt_scale)",
     "b = rng.laplace(0.0, 0.5 * svt_scale)", CONTRACT, "dp_se2"),
    ("dp_se2 SVT check", "bandits/dp_se2.py", "a_r = rng.laplace(0.0, svt_scale)",
     "a_r = rng.laplace(0.0, 0.5 * svt_scale)", CONTRACT, "dp_se2"),
    ("dp_se2 SVT given the whole epsilon", "bandits/dp_se2.py", "svt_scales(1.0, epsilon / 2.0)",
     "svt_scales(1.0, epsilon)", CONTRACT, "dp_se2"),
    ("dp_se2 histogram scale", "bandits/dp_se2.py", "noisy_means(sums, r, arms, m, hist_unit / r, rng, noisy)",
     "noisy_means(sums, r, arms, m, 0.5 * hist_unit / r, rng, noisy)", CONTRACT, "dp_se2"),
    ("dp_se release scale", "bandits/dp_se.py", "release_scale(epsilon, big_r, scale_by_real), rng, noisy)",
     "0.5 * release_scale(epsilon, big_r, scale_by_real), rng, noisy)", CONTRACT, "dp_se"),
    ("lazy epoch release (lazy_dp_ts, anytime_lazy_ucb)", "bandits/_lazy.py", "rng.laplace(0.0, 1.0 / epsilon)",
     "rng.laplace(0.0, 0.5 / epsilon)", CONTRACT, "lazy"),
    ("adap_klucb first release", "bandits/adap_klucb.py", "x + rng.laplace(0.0, 1.0 / epsilon)",
     "x + rng.laplace(0.0, 0.5 / epsilon)", CONTRACT, "adap_klucb"),
    ("adap_klucb episode release", "bandits/adap_klucb.py", "rng.laplace(0.0, 1.0 / (epsilon * length))",
     "rng.laplace(0.0, 0.5 / (epsilon * length))", CONTRACT, "adap_klucb"),
    ("dp_ucb tree nodes", "bandits/dp_ucb.py", "fill_draws(sb, crit, scale, u, eta)",
     "fill_draws(sb, crit, 0.5 * scale, u, eta)", CONTRACT, "dp_ucb and not dp_ucb_"),
    ("hybrid counter node noise without its level factor (dp_ucb_bound, dp_ucb_tossou)", "bandits/_counters.py",
     "k * node_scale * eta", "node_scale * eta", CONTRACT, "dp_ucb_bound or dp_ucb_tossou"),
    ("dp_ucb_bound hybrid counter", "bandits/dp_ucb_bound.py", "fill_laplace(sb, 1.0, eta)",
     "fill_laplace(sb, 0.5, eta)", CONTRACT, "dp_ucb_bound"),
    ("dp_ucb_int interval release", "bandits/dp_ucb_int.py", "fill_laplace(sb, 1.0, eta)",
     "fill_laplace(sb, 0.5, eta)", CONTRACT, "dp_ucb_int"),
    ("dp_ucb_int: one draw per arm reused across intervals", "bandits/dp_ucb_int.py",
     "float(n[i]) ** expo * eta[ec]", "float(n[i]) ** expo * eta[i]", CONTRACT, "dp_ucb_int"),
    ("dp_ucb_tossou hybrid counter", "bandits/dp_ucb_tossou.py", "fill_laplace(sb, 1.0, eta)",
     "fill_laplace(sb, 0.5, eta)", CONTRACT, "dp_ucb_tossou"),
    ("private_ucb tree", "bandits/private_ucb.py", "fill_laplace(sb, 1.0, eta)", "fill_laplace(sb, 0.5, eta)",
     CONTRACT, "private_ucb"),
    ("dp_bai phase scores (dp_bai, dp_bai_gauss)", "bai/dp_bai.py",
     "scores = add_noise(table.pull(active, n), plan.noise_scale(n)",
     "scores = add_noise(table.pull(active, n), 0.5 * plan.noise_scale(n)", BAI_TESTS, "dp_bai"),
    ("dp_bai basis estimates", "bai/dp_bai.py", "noisy = add_noise(table.pull(active[basis], n), plan.noise_scale(n)",
     "noisy = add_noise(table.pull(active[basis], n), 0.5 * plan.noise_scale(n)", BAI_TESTS, "dp_bai"),
    ("dp_od projected estimates", "bai/od_linbai.py", "add_noise(u, l1 / plan.epsilon",
     "add_noise(u, 0.5 * l1 / plan.epsilon", BAI_TESTS, "dp_od"),
]


def copy_repo(dest: Path) -> None:
    files = subprocess.run(["git", "ls-files", "-co", "--exclude-standard"], cwd=ROOT, capture_output=True,
                           text=True, check=True).stdout.split()
    for f in files:
        if (ROOT / f).is_file():
            (dest / f).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / f, dest / f)


def pytest(tests: list[str], scratch: Path) -> tuple[bool, str]:
    """(passed, first failing test or '') of ``pytest -x`` on ``tests`` in ``scratch``."""
    proc = subprocess.run([sys.executable, "-m", "pytest", "-x", "-q", "-p", "no:cacheprovider", "-n", "2",
                           *[f"tests/{t}" for t in tests]], cwd=scratch, capture_output=True, text=True,
                          env={**os.environ, "PYTHONPATH": str(scratch / "src")}, timeout=1800)
    failed = [line.split()[1] for line in proc.stdout.splitlines() if line.startswith("FAILED")]
    return proc.returncode == 0, failed[0] if failed else ""


def run(site: str, file: str, old: str, new: str, tests: list[str], scratch: Path) -> tuple[bool, str, float]:
    """(killed, first failing test or '', seconds) of one mutant, applied to ``scratch`` and undone after."""
    path = scratch / PKG / file
    text = path.read_text()
    if text.count(old) != 1:
        raise SystemExit(f"{site}: {old!r} occurs {text.count(old)} times in {file}, not once")
    path.write_text(text.replace(old, new))
    start = time.time()
    try:
        passed, failed = pytest(tests, scratch)
    finally:
        path.write_text(text)
    return not passed, failed, time.time() - start


def main(filters: list[str]) -> int:
    chosen = [m for m in MUTANTS if not filters or any(f in m[0] for f in filters)]
    with tempfile.TemporaryDirectory() as tmp:
        scratch = Path(tmp)
        copy_repo(scratch)
        passed, failed = pytest(sorted({t for m in chosen for t in m[4]}), scratch)
        if not passed:  # a mutant counts as killed only if the same tests pass without it
            print(f"the unmutated tests fail ({failed}): no kill rate")
            return 2
        killed = 0
        for site, file, old, new, tests in chosen:
            dead, by, seconds = run(site, file, old, new, tests, scratch)
            killed += dead
            print(f"{'killed ' if dead else 'SURVIVED'} {site:50s} {seconds:6.0f} s  {by}", flush=True)
    print(f"kill rate: {killed}/{len(chosen)}")
    return 0 if killed == len(chosen) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
