"""The contract every registered algorithm passes, parametrised by the registry (plugins included).

A new algorithm is checked by these tests as soon as it registers; none of its parts is skipped silently:

- a regret algorithm has a per-step reference twin; a BAI algorithm is plain numpy (no compiled kernel),
  so its run is its own reference (the registry refuses BAI twins);
- fast kernel and twin agree: pull for pull on the twin's recorded draws where the algorithm declares
  ``Algorithm.replay``, and in distribution (final regret and per-arm pulls) at the default parameters, under
  every alternative reading of its axes, with deterministic rewards, where the noise alone decides, and under
  each reward law of ``Algorithm.laws`` (reward sums too); the instances are the algorithm's
  ``Algorithm.contract`` settings;
- each distribution case of a private algorithm has power: its runs vary, and the same comparison with the
  twin at half its noise scale (a 2 epsilon-DP twin) must reject, so a case that cannot see a mis-scaled
  noise fails by name instead of passing;
- a private BAI run (no twin) adds noise that covers the sensitivity of each release, measured by flipping one
  reward of a 0/1 table, with a power control (some flip needs at least half the noise used);
- bad input raises a one-line ``ValueError`` naming the argument or the parameter;
- a private algorithm passes the privacy audit, its under-noised control is flagged unless its audit plan
  states why it cannot be (``Audit.control``), and (built-in algorithms) a noise-halving mutant of its fast
  kernel is run by CI (``tests/noise_mutants.py``).

A plugin is checked the same way: ``DPBANDITS_PLUGINS=path/to/file.py:ALGORITHM pytest tests/test_contract.py
-k <its name>`` (README, "Bring your own algorithm").
"""

from __future__ import annotations

import math
import re
from pathlib import Path

import numpy as np
import pytest
from _draws import recorded_reference
from _overspend import OVERSPEND
from _readings import readings
from _stats import same_counts, same_distribution, same_paths, same_spread

import dpbandits
from dpbandits import ALGORITHMS, privacy, reference
from dpbandits.audit.loss import NO_RELEASE, audit_algorithm
from dpbandits.audit.run import CONTROL_NOISE_FACTOR
from dpbandits.core.registry import Contract, OptionalProbability, Param, Setting
from dpbandits.pipeline import sources

REGRET = [n for n, a in ALGORITHMS.items() if a.kind == "regret"]
BAI = [n for n, a in ALGORITHMS.items() if a.kind == "bai"]
PRIVATE = [n for n, a in ALGORITHMS.items() if a.private]
MEANS = np.array([0.7, 0.5, 0.45])


def _ids(cases):
    return [f"{name}-{','.join(f'{k}={v}' for k, v in p.items()) or 'default'}" for name, p in cases]


# ------------------------------------------------------------------------------------------------ twins


@pytest.mark.parametrize("name", REGRET)
def test_regret_algorithm_has_a_reference_twin(name):
    twin = ALGORITHMS[name].reference_class()
    assert twin is not None, f"{name}: no reference twin (Algorithm.reference)"
    assert callable(getattr(twin, "select", None)) and callable(getattr(twin, "update", None)), twin


@pytest.mark.parametrize("name", BAI)
def test_bai_algorithm_is_plain_numpy(name):
    # the registry refuses BAI twins: the run is the plain implementation. A compiled BAI kernel would
    # need a twin, so the files of its package (bai/, or a plugin's own folder) must not use numba; shared
    # mechanisms it reaches (e.g. dpbandits.mechanisms.noise) are tested on their own.
    home = (
        Path(dpbandits.plugins.FILES[name][0]).parent
        if name in dpbandits.plugins.PLUGINS
        else (Path(sources.module_file(ALGORITHMS[name].module)).parent)
    )
    files = [f for f in sources.algorithm_files(name) if Path(f).is_relative_to(home)]
    assert files, name
    compiled = [f for f in files if re.search(r"^\s*(from|import) numba", Path(f).read_text(), re.M)]
    assert not compiled, f"{name}: compiled code without a reference twin: {compiled}"


HALF = 0.5  # the power control's noise factor: a twin whose noise scales are halved is 2 epsilon-DP


CHECKPOINTS = 8  # regret is compared at this many checkpoints, geometric from K + 1 to T


def checkpoints(setting) -> np.ndarray:
    """int64[<= CHECKPOINTS]: where the contract compares regret paths at ``setting``."""
    k = len(setting.means)
    return np.unique(np.geomspace(k + 1, setting.horizon, CHECKPOINTS).astype(np.int64))


def agree(fast, ref) -> bool:
    """Regret paths and per-arm pulls of two simulation results pass the two-sample tests of ``_stats``.

    Regret is rounded because the engines sum the same gaps in different orders, and KS must see one atom,
    not two floats 1e-13 apart.
    """
    return same_paths(np.round(fast.regret, 6), np.round(ref.regret, 6)) and same_counts(fast.pulls, ref.pulls)


def check_against_twin(name: str, case: str, setting, params: dict, seed: int) -> None:
    """Fast kernel and twin sample the same distribution at ``setting``; for a private algorithm, the runs vary
    and the twin with its noise scales halved samples another one (the power control of the comparison)."""
    alg = ALGORITHMS[name]
    contract = alg.contract
    args = (name, setting.means, setting.horizon, setting.epsilon)
    params = {**contract.params, "checkpoints": checkpoints(setting), **params}
    fast = dpbandits.simulate(*args, runs=contract.fast_runs, seed=seed, **params)
    ref = reference.simulate(*args, runs=contract.runs, seed=seed + 1, **params)
    assert agree(fast, ref), f"{case}: the fast kernel and its twin sample different distributions"
    if not alg.private:
        return
    assert np.unique(fast.pulls, axis=0).shape[0] > 1, (
        f"{case}: every run pulls the arms alike, so the noise decides nothing here (Algorithm.contract)"
    )
    half = reference.simulate(*args, runs=contract.runs, seed=seed + 2, noise_factor=HALF, **params)
    assert not agree(fast, half), (
        f"{case}: this setting cannot see a halved noise scale (the fast kernel also matches its twin at half "
        f"the noise); give {name} Algorithm.contract settings where its noise decides what it does"
    )


REGRET_READINGS = [(name, p) for name in REGRET for p in readings(name)]


@pytest.mark.parametrize(("name", "params"), REGRET_READINGS, ids=_ids(REGRET_READINGS))
def test_fast_kernel_and_twin_sample_the_same_distribution(name, params):
    # independent seeds per engine, at the algorithm's Bernoulli contract setting
    case = _ids([(name, params)])[0]
    check_against_twin(name, case, ALGORITHMS[name].contract.bernoulli, params, seed=1)


LAW_CASES = [(name, law) for name in REGRET for law in ALGORITHMS[name].laws if law != "bernoulli"]
LAW_RUNS = 500  # at most this many twin runs per law case (the fast kernel: 5 times as many); see the test


def same_rewards(a, b, means) -> bool:
    """The reward noise of two results, reward sum minus pulls @ means (float64[R]: mean 0, variance the sum of the
    pulls' reward variances), has the same distribution (KS) and spread (Brown-Forsythe)."""
    za, zb = a.reward_sum - a.pulls @ np.asarray(means), b.reward_sum - b.pulls @ np.asarray(means)
    return same_distribution(za, zb) and same_spread(za, zb)


@pytest.mark.parametrize(("name", "law"), LAW_CASES, ids=[f"{name}-{law}" for name, law in LAW_CASES])
def test_fast_kernel_and_twin_sample_the_same_distribution_under_each_law(name, law):
    # the Bernoulli contract setting with rewards of another law (dpbandits.core.laws): regret paths, pulls and reward
    # noise agree; power control: the fast kernel's Bernoulli runs must differ from the twin's under the law.
    # The noise's own power is the Bernoulli cases' business, so fewer runs do here (LAW_RUNS): the 24 law cases took
    # 134 s of one core on 2026-11-27 (warm kernels), against 361 s at the Bernoulli cases' counts
    alg = ALGORITHMS[name]
    contract, setting = alg.contract, alg.contract.bernoulli
    runs, fast_runs = min(contract.runs, LAW_RUNS), min(contract.fast_runs, 5 * LAW_RUNS)
    args = (name, setting.means, setting.horizon, setting.epsilon)
    params = {**contract.params, "checkpoints": checkpoints(setting)}
    fast = dpbandits.simulate(*args, runs=fast_runs, seed=5, rewards=law, **params)
    ref = reference.simulate(*args, runs=runs, seed=6, rewards=law, **params)
    assert agree(fast, ref) and same_rewards(fast, ref, setting.means), (
        f"{name}-{law}: the fast kernel and its twin sample different distributions"
    )
    bernoulli = dpbandits.simulate(*args, runs=fast_runs, seed=7, **params)
    assert not (agree(bernoulli, ref) and same_rewards(bernoulli, ref, setting.means)), (
        f"{name}-{law}: this setting cannot tell {law} rewards from Bernoulli ones"
    )


@pytest.mark.parametrize("name", REGRET)
def test_with_deterministic_rewards_the_noise_alone_decides(name):
    # rewards 0 or 1 every time: the pulls are decided by the algorithm's own noise (and tie picks) alone
    setting = ALGORITHMS[name].contract.deterministic
    if setting is not None:
        check_against_twin(name, f"{name}-deterministic", setting, {}, seed=3)
        return
    # declared: with fixed rewards the noise decides nothing, so every run of either engine pulls alike
    setting, params = Contract.DETERMINISTIC, ALGORITHMS[name].contract.params
    args = (name, setting.means, setting.horizon, setting.epsilon)
    fast = dpbandits.simulate(*args, runs=50, seed=3, **params)
    ref = reference.simulate(*args, runs=10, seed=4, **params)
    pulls = np.vstack([fast.pulls, ref.pulls])
    assert (pulls == pulls[0]).all(), f"{name}: its runs vary with fixed rewards (give it Contract.deterministic)"


PRIVATE_BAI = [n for n in BAI if ALGORITHMS[n].private]


def _release_recorder(monkeypatch):
    """A function running BAI algorithm ``name`` once on table ``x`` and returning its releases: (pre-noise values,
    scale, mechanism) of every call of ``dpbandits.bai.noise.add_noise``, wherever a module imported it."""
    import sys

    from dpbandits.bai import noise

    calls = []

    def recording(values, scale, mechanism, rng):
        calls.append((np.array(values, dtype=float), float(scale), mechanism))
        return noise.add_noise(values, scale, mechanism, rng)

    for module in list(sys.modules.values()):
        if getattr(module, "add_noise", None) is noise.add_noise and module is not noise:
            monkeypatch.setattr(module, "add_noise", recording)

    def releases(name, arms, x, epsilon, seed) -> list[tuple]:
        calls.clear()
        dpbandits.bai.run_on_table(name, arms, x, epsilon, np.random.default_rng(seed))
        return list(calls)

    return releases


@pytest.mark.parametrize("name", PRIVATE_BAI)
def test_bai_noise_covers_the_sensitivity_of_each_release(name, monkeypatch):
    # A BAI run has no twin, so its noise is checked against the release it protects. Run on a 0/1 reward table
    # x and on x' with one entry flipped, with the same noise stream: the runs agree until the release that reads
    # the flipped entry, and the change of its pre-noise values (L1 for Laplace, L2 for Gaussian) is that entry's
    # sensitivity there. The noise must cover it: scale >= change / epsilon (Laplace), sigma >= the classical
    # Gaussian mechanism's for the change (delta from the parameters), written out here so that a wrong
    # dpbandits.mechanisms.noise.gaussian_sigma fails. Power control: over the flips tried, some
    # change must need at least half the scale used, so a halved noise scale (a 2 epsilon-DP release) fails here.
    from dpbandits.bai import section5_instance, two_arm_instance

    delta = ALGORITHMS[name].resolve({}).get("delta")
    releases = _release_recorder(monkeypatch)
    # Section 5's instance (more arms than dimensions: DP-BAI's Max-Det phases) and two arms in two dimensions
    for arms, _ in (section5_instance(), two_arm_instance(2.0)):
        _check_release_noise(name, arms, releases, delta)


def _check_release_noise(name, arms, releases, delta) -> None:
    epsilon, budget = 0.5, 600
    x = np.random.default_rng(7).integers(0, 2, (arms.shape[0], budget)).astype(float)
    base = releases(name, arms, x, epsilon, seed=11)
    assert base, f"{name}: no release went through dpbandits.bai.noise.add_noise"
    worst = 0.0
    for arm in range(arms.shape[0]):
        for pull in (0, budget // 7):
            flipped = x.copy()
            flipped[arm, pull] = 1.0 - flipped[arm, pull]
            other = releases(name, arms, flipped, epsilon, seed=11)
            for (v0, scale, mechanism), (v1, scale1, _) in zip(base, other, strict=False):
                if v0.shape != v1.shape or scale != scale1:
                    break  # the transcripts parted before any release changed: not this flip's release
                change = np.abs(v1 - v0)
                if not change.any():
                    continue
                if mechanism == "laplace":
                    needed = change.sum() / epsilon
                else:
                    # Dwork & Roth (2014), Theorem A.1: sigma = sqrt(2 ln(1.25 / delta)) * Delta_2 / epsilon
                    needed = math.sqrt(2.0 * math.log(1.25 / delta)) * float(np.sqrt((change**2).sum())) / epsilon
                assert scale >= needed * (1 - 1e-9), (
                    f"{name}: flipping reward ({arm}, {pull}) changes a {mechanism} release by {change.sum():.4g}, "
                    f"which needs noise scale {needed:.4g} at epsilon {epsilon}; it got {scale:.4g}"
                )
                worst = max(worst, needed / scale)
                break
    assert worst > 0.5, (
        f"{name} on {arms.shape[0]} arms: no flip needs half the noise used ({worst:.3g}): this "
        "check cannot see a halving"
    )


REPLAYED = [(name, p) for name in REGRET if ALGORITHMS[name].replay is not None for p in readings(name)]


@pytest.mark.parametrize(("name", "params"), REPLAYED, ids=_ids(REPLAYED))
def test_fast_loop_on_the_twin_draws_reproduces_the_twin(name, params, monkeypatch):
    # the fast kernel draws in blocks, in another order than the twin; its step loop fed the twin's own
    # draws (reward uniforms, standard Laplace values, tie picks, recorded in order) must reproduce the
    # twin's run pull for pull; equal means make ties happen
    horizon, runs, eps = 1200, 2, 0.5
    ckpts = np.arange(1, horizon + 1)
    replay = ALGORITHMS[name].replay_function()
    for means in ([0.9, 0.6], [0.5, 0.5, 0.4]):
        ref, recorders = recorded_reference(monkeypatch, name, means, horizon, eps, runs, ckpts, params)
        for i, draws in enumerate(recorders):
            out, pulls, total = replay(
                np.asarray(means), eps, ckpts, ref.meta["params"], draws.u, draws.eta, draws.picks
            )
            np.testing.assert_array_equal(pulls, ref.pulls[i])
            assert total == ref.reward_sum[i]
            np.testing.assert_allclose(out, ref.regret[i], rtol=1e-12)


# ------------------------------------------------------------------------------------------- bad input


def bad_values(spec: Param) -> list:
    """Values ``spec`` must refuse: outside its choices, of the wrong type, non-finite, at or below ``low``."""
    if isinstance(spec, OptionalProbability):
        return [1.5, 0.0, "0.1"]
    if spec.choices is not None:
        return ["not-a-reading", None]
    if isinstance(spec.default, bool):
        return ["yes", 1]
    if isinstance(spec.default, (int, float)):
        out = [float("nan"), "1", True]
        if spec.low is not None:
            out.append(spec.low)
        return out
    return []


REGRET_ARGUMENTS = {
    "means": {"means": [0.5, 1.5]},
    "horizon": {"horizon": 0},
    "runs": {"runs": 0},
    "seed": {"seed": -1},
    "checkpoints": {"checkpoints": [5, 3]},
    "first_run": {"first_run": -1},
}
PARAMS = [(name, key) for name in ALGORITHMS for key in ALGORITHMS[name].params]


@pytest.mark.parametrize("name", REGRET)
@pytest.mark.parametrize("engine", ["fast", "reference"])
def test_regret_bad_arguments_are_named(name, engine):
    simulate = dpbandits.simulate if engine == "fast" else reference.simulate
    cases = dict(REGRET_ARGUMENTS)
    if ALGORITHMS[name].private:
        cases["epsilon"] = {"epsilon": -1.0}
    base = {"means": MEANS, "horizon": 50, "epsilon": 1.0, "runs": 2, "seed": 0}
    for argument, change in cases.items():
        with pytest.raises(ValueError, match=argument) as err:
            simulate(name, **{**base, **change})
        assert "\n" not in str(err.value), err.value
    with pytest.raises(ValueError, match=r"unknown parameter.*colour"):
        simulate(name, MEANS, 50, 1.0, 2, 0, colour=1)


@pytest.mark.parametrize("name", BAI)
def test_bai_bad_arguments_are_named(name):
    arms, theta = dpbandits.bai.two_arm_instance(2.0)
    base = {"algorithm": name, "arms": arms, "theta": theta, "budget": 1000, "epsilon": 0.5, "runs": 2, "seed": 0}
    cases = {
        "arms": {"arms": np.ones(3)},
        "theta": {"theta": [0.1, 0.2, 0.3]},
        "budget": {"budget": 0},
        "runs": {"runs": 0},
        "seed": {"seed": -1},
    }
    if ALGORITHMS[name].private:
        cases["epsilon"] = {"epsilon": -1.0}
    for argument, change in cases.items():
        with pytest.raises(ValueError, match=argument) as err:
            dpbandits.simulate_bai(**{**base, **change})
        assert "\n" not in str(err.value), err.value
    with pytest.raises(ValueError, match=r"unknown parameter.*colour"):
        dpbandits.simulate_bai(**base, colour=1)


def test_noise_factor_and_contract_settings_refuse_bad_values():
    for value in (0, -1.0, float("nan"), "0.5", True):
        with pytest.raises(ValueError, match="noise_factor") as err:
            reference.simulate("dp_ucb_int", MEANS, 50, 1.0, 2, 0, noise_factor=value)
        assert "\n" not in str(err.value), err.value
    bad = {
        "means": lambda: Setting((0.5, 2.0), 10, 1.0),
        "horizon": lambda: Setting((0.5, 0.2), 1, 1.0),
        "epsilon": lambda: Setting((0.5, 0.2), 10, -1.0),
        "deterministic means": lambda: Contract(deterministic=Setting((0.5, 0.0), 10, 1.0)),
        "bernoulli": lambda: Contract(bernoulli=(0.5, 0.2)),
        "runs": lambda: Contract(runs=1),
    }
    for what, make in bad.items():
        with pytest.raises(ValueError, match=what):
            make()


@pytest.mark.parametrize(("name", "key"), PARAMS, ids=[f"{n}-{k}" for n, k in PARAMS])
def test_bad_parameter_values_are_named(name, key):
    spec = ALGORITHMS[name].params[key]
    values = bad_values(spec)
    assert values, f"{name}: parameter {key} accepts anything (give it choices or a numeric default)"
    for value in values:
        with pytest.raises(ValueError, match=rf"{name}: parameter {key}\b") as err:
            ALGORITHMS[name].resolve({key: value})
        assert "\n" not in str(err.value), err.value


# --------------------------------------------------------------------------------------------- privacy


# Trials per algorithm where the default of 1000 is not enough (or more than needed).
TRIALS = {"adap_klucb": 2000, "dp_se": 300, "dp_se2_modified": 500, "dp_bai": 400}


@pytest.mark.parametrize("name", PRIVATE)
def test_private_algorithm_passes_its_audit_and_its_control_is_flagged(name):
    # at the audit plan's epsilon: the real algorithm is consistent and the under-noised control's lower
    # bound exceeds epsilon by > 1, unless the plan states why the control cannot be flagged
    plan = ALGORITHMS[name].audit
    epsilon = plan.epsilon or 1.0
    trials = TRIALS.get(name, 1000)
    real = audit_algorithm(name, epsilon, trials, seed=4)
    control = audit_algorithm(name, epsilon, trials, seed=4, noise_factor=CONTROL_NOISE_FACTOR)
    assert real.verdict == "consistent", real
    assert NO_RELEASE.format(control.horizon) not in control.notes, f"{name}: {control.notes}"
    if plan.control:
        assert control.verdict == "consistent" and plan.control in control.notes, control
    else:
        assert control.verdict == "violation" and control.loss_lower > epsilon + 1.0, control
        assert math.isfinite(control.loss_estimate)


@pytest.mark.parametrize("name", PRIVATE)
def test_private_algorithm_records_its_releases_and_spends_at_most_its_promise(name):
    # dpbandits.privacy at the contract's setting: a plugin without Algorithm.releases is told what to add
    spent = privacy.spent(name, runs=5)
    assert spent.releases > 0, f"{name}: no release recorded at the contract's setting"
    assert spent.problems == [], spent.text()
    assert not spent.exceeds or (name, None, None) in OVERSPEND, spent.text()


BUILT_IN_PRIVATE = [n for n in PRIVATE if n not in dpbandits.plugins.PLUGINS]


@pytest.mark.parametrize("name", BUILT_IN_PRIVATE)
def test_private_algorithm_has_a_noise_mutant(name):
    # tests/noise_mutants.py (run by CI) halves each noise draw site of the package's fast kernels; every
    # private built-in algorithm must run the code of at least one of them, so a new one needs its mutants.
    # A plugin's code is not mutated: its privacy rests on its twin's audit (and a per_step plugin's run is
    # its twin, whose noise the audit's control scales at run time).
    from noise_mutants import MUTANTS

    mutated = {str(Path(sources.PACKAGE) / file) for _, file, *_ in MUTANTS}
    assert mutated & set(sources.algorithm_files(name)), f"{name}: no noise mutant in tests/noise_mutants.py"


def test_noise_mutant_sites_exist():
    # each mutant's original text occurs exactly once in its file (the harness stops on one that does not, so a
    # kernel's rewrite that moves a noise site must move its mutant too)
    from noise_mutants import MUTANTS, PKG

    package = Path(__file__).parents[1] / PKG
    for site, file, old, *_ in MUTANTS:
        assert (package / file).is_file(), f"{site}: no file {file}"
        assert (package / file).read_text().count(old) == 1, f"{site}: {old!r} does not occur once in {file}"


def test_noise_mutant_harness_reads_the_compiled_key(tmp_path):
    # the harness asks a fresh interpreter for the numba cache key and the files compiled code reaches, so a
    # mutant of a compiled file cannot run stale kernels; that snippet must import the package as it is laid out now
    from noise_mutants import MUTANTS, compiled

    (tmp_path / "src").symlink_to(Path(__file__).parents[1] / "src")  # the harness's copy, without copying
    key, files = compiled(tmp_path)
    assert key and files
    assert all((Path(sources.PACKAGE) / f).is_file() for f in files)
    assert {file for _, file, *_ in MUTANTS} & files, "no mutated file is among those compiled code reaches"
