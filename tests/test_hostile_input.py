"""Input handling of the public API (``dpbandits.simulate``, ``reference.simulate``, ``simulate_bai``, the
instance and checkpoint helpers), property-based (hypothesis), in two halves that never mix:

- valid calls: arguments drawn from their documented ranges (algorithms from the registry, parameter values
  from their ``Param`` specs) always run, and the result keeps its invariants (shapes, pulls summing to the
  horizon, non-negative non-decreasing regret equal to pulls times gaps at the horizon, same seed same result);
- hostile calls: a valid argument set with exactly ONE argument spoiled (wrong type, NaN/inf, out of range,
  empty, unknown key) always raises a one-line ``ValueError`` that names that argument as a word, before any
  other argument's name.

Each hostile test is parametrised by the argument it spoils (parameters: by algorithm), so every argument
and every algorithm's parameters are spoiled in every run; ``hypothesis.event`` labels the algorithm or the
kind of spoil (``--hypothesis-show-statistics``). Config mutations of ``config/smoke.yaml`` either plan or
fail with one line naming the key. Valid values that would make a call slow (a horizon of 10**9 is legal)
are left out: these properties are about input handling; the cost estimate has its own test.
``HYPOTHESIS_PROFILE=long`` runs many more examples (tests/conftest.py).
"""

from __future__ import annotations

import copy
import re
import sys
import warnings
from datetime import timedelta
from pathlib import Path

import numpy as np
import pytest
import yaml
from hypothesis import event, given, settings
from hypothesis import strategies as st

import dpbandits
from dpbandits import ALGORITHMS, reference
from dpbandits.bai import simulate_bai
from dpbandits.bai.linear_instances import instance_for, section5_instance, two_arm_instance
from dpbandits.core.checkpoints import check_checkpoints, default_checkpoints
from dpbandits.core.instances import NAMED, means_for, sajed_instance
from dpbandits.core.laws import LAWS
from dpbandits.core.registry import OptionalProbability
from dpbandits.core.validation import MAX_ARMS, MAX_BUDGET, MAX_HORIZON, MAX_RUN_INDEX, MAX_RUNS, MIN_EPSILON
from dpbandits.pipeline import planning
from dpbandits.pipeline.catalogue.model import ConfigError

ROOT = Path(__file__).resolve().parents[1]
SCHEMA = str(ROOT / "workflow" / "schemas" / "config.schema.yaml")
REGRET = [name for name, alg in ALGORITHMS.items() if alg.kind == "regret"]
BAI = [name for name, alg in ALGORITHMS.items() if alg.kind == "bai"]
TWINS = [name for name in REGRET if ALGORITHMS[name].reference]
UNKNOWN_PARAM = "bogus"


def labelled(label: str, strategy):
    """``strategy`` drawing (label, value) pairs; the label becomes the example's event."""
    return strategy.map(lambda value: (label, value))


# --- valid arguments ---------------------------------------------------------------------------------


def valid_param(spec):
    """Values ``spec`` accepts: a choice, a boolean, a probability or None, or a number above its lower bound
    between a tenth and ten times the default's distance from it (a tolerance of 1e-300 would be valid, but
    slow)."""
    if isinstance(spec, OptionalProbability):
        return st.one_of(st.none(), st.floats(1e-6, 1 - 1e-6))
    if spec.choices is not None:
        return st.sampled_from(spec.choices)
    if isinstance(spec.default, bool):
        return st.booleans()
    low = 0 if spec.low is None else spec.low
    distance = spec.default - low
    if isinstance(spec.default, int):
        return st.integers(int(low + distance / 10) + 1, int(low + 10 * distance))
    # (dp_ucb_int's delta = 5e-324 is > 0 yet 1/delta overflows, and both engines fail with "cannot convert
    # float NaN to integer": left to its owner)
    return st.floats(low + distance / 10, low + 10 * distance)


def valid_params(name: str, extra: dict | None = None):
    """A dict of some of algorithm ``name``'s parameters, each a valid value (``extra``: per-key overrides)."""
    strategies = {key: valid_param(spec) for key, spec in ALGORITHMS[name].params.items()}
    return st.fixed_dictionaries({}, optional={**strategies, **(extra or {})})


def unit_means(k_min=2, k_max=5):
    """Bernoulli means: a list, tuple or array of K numbers in [0, 1] (some exactly 0 or 1)."""
    values = st.one_of(st.floats(0, 1), st.sampled_from([0, 1, 0.5]))
    return st.lists(values, min_size=k_min, max_size=k_max).flatmap(
        lambda m: st.sampled_from([m, tuple(m), np.asarray(m, dtype=float)])
    )


def integer_like(low, high):
    """An integer in [low, high] as int, numpy int64 or an integral float."""
    return st.integers(low, high).flatmap(lambda v: st.sampled_from([v, np.int64(v), float(v)]))


@st.composite
def regret_arguments(draw, algorithm, max_horizon=300, max_runs=3):
    """Valid keyword arguments of ``dpbandits.simulate`` for ``algorithm`` (parameters included)."""
    means = draw(unit_means())
    k = len(means)
    horizon = draw(integer_like(k, max_horizon))
    private = ALGORITHMS[algorithm].private
    epsilon = draw(
        st.one_of(st.floats(1e-3, 100), st.integers(1, 10), st.just(np.float64(0.5)), *([] if private else [st.none()]))
    )
    checkpoints = draw(
        st.one_of(st.none(), st.lists(st.integers(1, int(horizon)), min_size=1, max_size=6, unique=True).map(sorted))
    )
    return dict(
        algorithm=algorithm,
        means=means,
        horizon=horizon,
        epsilon=epsilon,
        runs=draw(integer_like(1, max_runs)),
        seed=draw(st.integers(0, 2**64)),
        first_run=draw(st.integers(0, 10**6)),
        checkpoints=checkpoints,
        rewards=draw(st.sampled_from(ALGORITHMS[algorithm].laws)),
        **draw(valid_params(algorithm)),
    )


@st.composite
def bai_arguments(draw, algorithm):
    """Valid keyword arguments of ``simulate_bai``: a Section 5 instance, a two-arm instance or random arms
    in [0, 1]^d with theta scaled so that every mean lies in [0, 1/2] (rewards U[0, 2 mu] stay in [0, 1])."""
    kind = draw(st.sampled_from(["section5", "two_arm", "random"]))
    if kind == "section5":
        arms, theta = section5_instance(draw(st.integers(4, 8)), seed=draw(st.integers(0, 100)))
    elif kind == "two_arm":
        arms, theta = two_arm_instance(draw(st.floats(0.1, 100)))
    else:
        k, d = draw(st.integers(2, 6)), draw(st.integers(1, 3))
        # entries 0 or >= 1e-3: OD-LinBAI's design divides by zero on arms scaled like 1e-300 (left to its owner)
        entry = st.one_of(st.just(0.0), st.floats(1e-3, 1))
        arms = np.asarray(draw(st.lists(st.lists(entry, min_size=d, max_size=d), min_size=k, max_size=k)))
        theta = np.asarray(draw(st.lists(st.floats(0, 1), min_size=d, max_size=d)))
        top = (arms @ theta).max()
        theta = theta * (draw(st.floats(0, 0.5)) / top) if top > 0.5 else theta
    event(f"instance: {kind}")
    gauss = algorithm == "dp_bai_gauss"  # the classical Gaussian mechanism needs epsilon, delta < 1
    epsilon = draw(st.floats(1e-2, 0.99) if gauss else st.one_of(st.floats(1e-2, 100), st.integers(1, 10)))
    out = dict(
        algorithm=algorithm,
        arms=arms,
        theta=theta,
        budget=draw(integer_like(200, 3000)),
        epsilon=epsilon,
        runs=draw(integer_like(1, 3)),
        seed=draw(st.integers(0, 2**64)),
        first_run=draw(st.integers(0, 10**6)),
    )
    if draw(st.booleans()):
        out.update(reward="uniform_centered", reward_width=draw(st.floats(0, 0.5)))
        means = arms @ theta
        width = out["reward_width"]
        if np.any(means - width < 0) or np.any(means + width > 1):  # keep the supports in [0, 1]
            out["reward_width"] = float(min(means.min(), 1 - means.max(), width))
    extra = {"delta": st.floats(1e-12, 0.99)} if gauss else None
    return {**out, **draw(valid_params(algorithm, extra))}


# --- spoiled arguments -------------------------------------------------------------------------------

NOT_A_NUMBER = labelled(
    "not a number",
    st.sampled_from(
        [None, True, False, np.bool_(True), "1", "1000", b"1", [1], (1,), {"a": 1}, complex(1, 1), object()]
    ),
)
NON_FINITE = labelled("non-finite", st.sampled_from([float("nan"), float("inf"), float("-inf"), np.float64("nan")]))
FRACTIONAL = labelled("fractional", st.floats(0.01, 1e6).filter(lambda v: not v.is_integer()))


def bad_integer(low: int, high: int | None = None):
    """(label, value) pairs an integer argument with ``low <= value <= high`` must refuse."""
    out = [NOT_A_NUMBER, NON_FINITE, FRACTIONAL, labelled("below range", st.integers(low - 2**70, low - 1))]
    if high is not None:
        out.append(labelled("above range", st.one_of(st.integers(high + 1, 2**80), st.sampled_from([2**63, 2**64]))))
    return st.one_of(out)


def bad_epsilon(private: bool):
    out = [
        NON_FINITE,
        labelled("below 1e-9", st.floats(-1e9, MIN_EPSILON, exclude_max=True)),
        NOT_A_NUMBER.filter(lambda pair: pair[1] is not None),
    ]
    if private:
        out.append(labelled("None for a private algorithm", st.none()))
    return st.one_of(out)


def one_entry_replaced(values: list, bad):
    """``values`` with one entry replaced by a draw of ``bad``."""
    return st.tuples(st.integers(0, len(values) - 1), bad).map(
        lambda pair: [*values[: pair[0]], pair[1], *values[pair[0] + 1 :]]
    )


def bad_vector(name: str, valid: list, low=None, high=None):
    """(label, value) pairs a 1-d argument (means, theta) must refuse (``low``/``high``: its entries' range)."""
    out = [
        labelled("non-finite entry", one_entry_replaced(valid, st.sampled_from([float("nan"), float("inf")]))),
        labelled("boolean entries", st.lists(st.booleans(), min_size=2, max_size=3)),
        labelled("string entries", st.lists(st.sampled_from(["0.5", "a"]), min_size=2, max_size=3)),
        labelled("2-d", st.just([valid, valid])),
        labelled("ragged", st.just([valid, valid[:1]])),
        labelled("scalar or junk", st.sampled_from([None, 0.5, "0.5", {"a": 1}])),
    ]
    if low is not None:
        out.append(
            labelled(
                "entry out of range",
                one_entry_replaced(
                    valid, st.one_of(st.floats(high, 1e6, exclude_min=True), st.floats(-1e6, low, exclude_max=True))
                ),
            )
        )
    return st.one_of(out)


def bad_checkpoints(horizon: int):
    return st.one_of(
        labelled("empty", st.just([])),
        labelled(
            "below 1",
            st.lists(st.integers(-5, horizon), min_size=1, max_size=3, unique=True).map(lambda c: sorted({*c, 0})),
        ),
        labelled("beyond the horizon", st.integers(horizon + 1, horizon + 10**6).map(lambda t: [1, t])),
        labelled(
            "not increasing",
            st.lists(st.integers(1, horizon), min_size=2, max_size=4).filter(
                lambda c: any(b <= a for a, b in zip(c, c[1:], strict=False))
            ),
        ),
        labelled("not integers", st.sampled_from([[1.0, 2.0], ["1", "2"], [True], [[1, 2]], "1", 5, {"a": 1}])),
    )


def bad_param(name: str):
    """(parameter, (label, value)): one parameter of algorithm ``name`` spoiled, or an unknown one given."""
    out = [st.tuples(st.just(UNKNOWN_PARAM), labelled("unknown parameter", st.sampled_from([1, None, "x"])))]
    for key, spec in ALGORITHMS[name].params.items():
        if isinstance(spec, OptionalProbability):
            bad = st.one_of(
                labelled("outside (0, 1)", st.sampled_from([0, 0.0, 1, 1.5, -0.1])),
                NON_FINITE,
                NOT_A_NUMBER.filter(lambda pair: pair[1] is not None),
            )
        elif spec.choices is not None:
            other = st.text(max_size=8).filter(lambda v, choices=spec.choices: v not in choices)
            bad = labelled("not a choice", st.one_of(other, st.sampled_from([None, 1, 2.5])))
        elif isinstance(spec.default, bool):
            bad = labelled("not a boolean", st.sampled_from(["yes", "true", 1, 0, None, np.bool_(True)]))
        else:
            bad = st.one_of(NON_FINITE, NOT_A_NUMBER, labelled("at or below its bound", st.floats(-1e6, spec.low)))
            if isinstance(spec.default, int):
                bad = st.one_of(bad, FRACTIONAL)
        out.append(st.tuples(st.just(key), bad))
    return st.one_of(out)


# --- checking a refusal ------------------------------------------------------------------------------


def refusal(fn, *args, **kwargs) -> str:
    """The one-line ``ValueError`` message of ``fn(*args, **kwargs)``; returning, warning or raising anything
    else fails."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(ValueError) as err:
            fn(*args, **kwargs)
    message = str(err.value)
    assert message and "\n" not in message, f"not a one-line message: {message!r}"
    return message


def word_at(message: str, name: str) -> int | None:
    """Where ``name`` first occurs in ``message`` as a whole word (not inside first_run, dp_se...), or None."""
    found = re.search(rf"(?<!\w){re.escape(name)}(?!\w)", message)
    return found.start() if found else None


def assert_names_first(message: str, culprit: str, names) -> None:
    """``message`` names ``culprit`` as a word, and no other of ``names`` before it."""
    at = word_at(message, culprit)
    assert at is not None, f"the error does not name {culprit!r}: {message}"
    earlier = [n for n in names if n != culprit and (word_at(message, n) or len(message)) < at]
    assert not earlier, f"the error names {earlier} before {culprit!r}: {message}"


@pytest.fixture(scope="module", autouse=True)
def compiled():
    """Compile every kernel once, so the 5 s deadline measures input handling, not numba's compiler."""
    for name in REGRET:
        for law in ALGORITHMS[name].laws:
            dpbandits.simulate(name, [0.9, 0.6], 50, 1.0, runs=1, seed=0, rewards=law)
    arms, theta = section5_instance(5)
    for name in BAI:
        simulate_bai(name, arms, theta, 600, 0.5, runs=1, seed=0)


# --- regret: dpbandits.simulate and its twin reference.simulate --------------------------------------

SIMULATORS = {"fast": dpbandits.simulate, "reference": reference.simulate}
SIZES = {"fast": dict(max_horizon=300, max_runs=3), "reference": dict(max_horizon=40, max_runs=2)}


def check_regret_result(out, args: dict) -> None:
    """The invariants of a ``SimulationResult`` of ``simulate(**args)``."""
    alg = ALGORITHMS[args["algorithm"]]
    means = np.asarray(args["means"], dtype=float)
    horizon, runs, k = int(args["horizon"]), int(args["runs"]), means.size
    ckpts = default_checkpoints(horizon) if args["checkpoints"] is None else np.asarray(args["checkpoints"])
    np.testing.assert_array_equal(out.checkpoints, ckpts)
    assert out.regret.shape == (runs, ckpts.size) and out.regret.dtype == np.float64
    assert out.pulls.shape == (runs, k) and out.pulls.dtype == np.int64 and out.reward_sum.shape == (runs,)
    assert np.all(out.pulls >= 0) and np.all(out.pulls.sum(axis=1) == horizon)
    gaps = means.max() - means
    roundoff = 8 * np.finfo(float).eps * horizon * gaps.max()  # the kernels sum up to T gaps in their own order
    assert np.all(np.isfinite(out.regret)) and np.all(out.regret >= -roundoff)
    assert np.all(np.diff(out.regret, axis=1) >= -roundoff), "regret decreases along the checkpoints"
    assert np.all(out.regret <= ckpts * gaps.max() * (1 + 1e-12))  # at most the worst gap per step
    if ckpts[-1] == horizon:  # pseudo-regret at the horizon: the pulls times the gaps (sums in any order)
        np.testing.assert_allclose(out.regret[:, -1], out.pulls @ gaps, rtol=1e-9, atol=1e-9)
    assert np.all((out.reward_sum >= 0) & (out.reward_sum <= horizon))
    if args["rewards"] == "bernoulli":
        assert np.all(out.reward_sum == np.round(out.reward_sum))
    assert out.meta["rewards"] == args["rewards"]
    given_params = {key: value for key, value in args.items() if key in alg.params}
    assert out.meta["params"] == {key: given_params.get(key, spec.default) for key, spec in alg.params.items()}
    assert out.meta["epsilon"] == (float(args["epsilon"]) if alg.private else None)
    assert out.meta["run_ids"] == list(range(args["first_run"], args["first_run"] + runs))


@pytest.mark.parametrize("engine", ["fast", "reference"])
@pytest.mark.parametrize("algorithm", REGRET)
@given(data=st.data())
def test_valid_regret_calls_keep_the_invariants(engine, algorithm, data):
    simulate = SIMULATORS[engine]
    args = data.draw(regret_arguments(algorithm, **SIZES[engine]))
    event("checkpoints: " + ("default" if args["checkpoints"] is None else "given"))
    event("parameters given: " + (", ".join(sorted(set(args) & set(ALGORITHMS[algorithm].params))) or "none"))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        out = simulate(**args)
    check_regret_result(out, args)
    again = simulate(**args)
    for field in ("checkpoints", "regret", "pulls", "reward_sum"):
        np.testing.assert_array_equal(getattr(again, field), getattr(out, field), err_msg=f"same seed, other {field}")
    # run i's draws depend on (seed, configuration, i) only: the last run alone is the last row
    last = simulate(**{**args, "runs": 1, "first_run": args["first_run"] + int(args["runs"]) - 1})
    np.testing.assert_array_equal(last.regret[0], out.regret[-1])
    np.testing.assert_array_equal(last.pulls[0], out.pulls[-1])


REGRET_ARGUMENTS = ["algorithm", "means", "horizon", "epsilon", "runs", "seed", "first_run", "checkpoints", "rewards"]


def spoil_regret(data, args: dict, argument: str) -> tuple[dict, str]:
    """``args`` with ``argument`` spoiled; returns (spoiled args, the name the error must give)."""
    k, horizon = len(args["means"]), int(args["horizon"])
    private = ALGORITHMS[args["algorithm"]].private
    bad = {
        "algorithm": st.one_of(
            labelled("unknown name", st.text(max_size=12).filter(lambda v: v not in ALGORITHMS)),
            labelled("a BAI algorithm", st.sampled_from(BAI)),
            labelled("not a string", st.sampled_from([None, 3, True, ["ucb"], b"ucb"])),
        ),
        "means": st.one_of(
            bad_vector("means", list(args["means"]), low=0.0, high=1.0),
            labelled("fewer than 2 arms", st.lists(st.floats(0, 1), max_size=1)),
            labelled("more than 2**16 arms", st.just(np.full(MAX_ARMS + 1, 0.5))),
        ),
        "horizon": st.one_of(bad_integer(k, MAX_HORIZON), labelled("below K", st.integers(0, k - 1))),
        "epsilon": bad_epsilon(private),
        "runs": bad_integer(1, MAX_RUNS),
        "seed": bad_integer(0),
        "first_run": st.one_of(
            bad_integer(0),
            labelled("last run index beyond 2**62", st.integers(MAX_RUN_INDEX - int(args["runs"]) + 1, 2**70)),
        ),
        "checkpoints": bad_checkpoints(horizon),
        "rewards": st.one_of(
            labelled("unknown law", st.text(max_size=12).filter(lambda v: v not in LAWS)),
            labelled("a law's name in capitals or padded", st.sampled_from(["Beta", "BERNOULLI", " uniform", "gauss"])),
            labelled("not a string", st.sampled_from([None, 0, 1.0, True, ["beta"], b"beta", {"beta": 1}])),
        ),
    }
    if argument == "parameter":
        culprit, (label, value) = data.draw(bad_param(args["algorithm"]), label="parameter")
    else:
        culprit, (label, value) = argument, data.draw(bad[argument], label=argument)
    event(f"{culprit}: {label}")
    return {**args, culprit: value}, culprit


def spoil_cases(arguments: list, algorithms: list) -> list:
    """(argument, algorithm): each argument with a drawn algorithm (None), then each algorithm's parameters."""
    return [(argument, None) for argument in arguments] + [("parameter", name) for name in algorithms]


def case_ids(cases: list) -> list:
    return [argument if name is None else f"{argument}-{name}" for argument, name in cases]


REGRET_CASES = spoil_cases(REGRET_ARGUMENTS, REGRET)


@pytest.mark.parametrize("engine", ["fast", "reference"])
@pytest.mark.parametrize(("argument", "algorithm"), REGRET_CASES, ids=case_ids(REGRET_CASES))
@given(data=st.data())
def test_one_spoiled_regret_argument_is_named(engine, argument, algorithm, data):
    algorithm = algorithm or data.draw(st.sampled_from(REGRET), label="algorithm")
    args = data.draw(regret_arguments(algorithm, max_horizon=40, max_runs=2))
    spoiled, culprit = spoil_regret(data, args, argument)
    message = refusal(SIMULATORS[engine], **spoiled)
    assert_names_first(message, culprit, [*REGRET_ARGUMENTS, *ALGORITHMS[algorithm].params, UNKNOWN_PARAM])


@pytest.mark.parametrize(
    ("kwargs", "expected"),
    [
        ({"horizon": 2**63}, r"horizon must be <= 1,099,511,627,776 \(2\*\*40"),
        ({"horizon": 10**19}, r"horizon must be <= "),
        ({"horizon": "1000"}, r"horizon must be an integer, got str '1000'"),
        ({"epsilon": float("inf")}, r"epsilon must be finite: epsilon=inf means no privacy"),
        ({"means": [True, False]}, r"means must hold numbers only"),
        ({"means": ["0.9", "0.6"]}, r"means must hold numbers only"),
        ({"runs": MAX_RUNS + 1}, r"runs must be <= "),
        ({"first_run": 2**62}, r"first_run \+ runs must be <= 2\*\*62"),
    ],
)
def test_the_reported_cases_get_clear_errors(kwargs, expected):
    args = {"algorithm": "dp_se", "means": [0.9, 0.6], "horizon": 100, "epsilon": 1.0, "runs": 1, "seed": 0}
    with pytest.raises(ValueError, match=expected):
        dpbandits.simulate(**{**args, **kwargs})


def test_a_costly_call_says_so_before_it_starts(caplog, monkeypatch):
    simulate_module = sys.modules["dpbandits.core.simulate"]  # the module, shadowed by the function in dpbandits
    monkeypatch.setattr(simulate_module, "COST_WARNING_S", 1e-7)
    with caplog.at_level("WARNING", logger="dpbandits"):
        dpbandits.simulate("ucb", [0.9, 0.6], 100, None, runs=1, seed=0)
    assert "estimated to take about" in caplog.text and "ucb" in caplog.text
    caplog.clear()
    monkeypatch.setattr(simulate_module, "COST_WARNING_S", 600.0)
    with caplog.at_level("WARNING", logger="dpbandits"):
        dpbandits.simulate("ucb", [0.9, 0.6], 100, None, runs=1, seed=0)
    assert caplog.text == ""


# --- best-arm identification: simulate_bai -----------------------------------------------------------


@pytest.mark.parametrize("algorithm", BAI)
@given(data=st.data())
def test_valid_bai_calls_keep_the_invariants(algorithm, data):
    args = data.draw(bai_arguments(algorithm))
    event("reward: " + args.get("reward", "uniform"))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        out = simulate_bai(**args)
    runs, k = int(args["runs"]), len(args["arms"])
    means = np.asarray(args["arms"]) @ np.asarray(args["theta"])
    assert out.recommended.shape == (runs,) and out.recommended.dtype.kind == "i"
    assert np.all((out.recommended >= 0) & (out.recommended < k))
    assert out.meta["best_arm"] == int(np.argmax(means))
    np.testing.assert_array_equal(out.success, out.recommended == np.argmax(means))
    assert out.meta["run_ids"] == list(range(args["first_run"], args["first_run"] + runs))
    np.testing.assert_array_equal(simulate_bai(**args).recommended, out.recommended, err_msg="same seed, other result")
    last = simulate_bai(**{**args, "runs": 1, "first_run": args["first_run"] + runs - 1})
    assert last.recommended[0] == out.recommended[-1]


BAI_ARGUMENTS = [
    "algorithm",
    "arms",
    "theta",
    "budget",
    "epsilon",
    "runs",
    "seed",
    "first_run",
    "reward",
    "reward_width",
]


def spoil_bai(data, args: dict, argument: str) -> tuple[dict, str]:
    """``args`` with ``argument`` spoiled; returns (spoiled args, the name the error must give)."""
    arms, theta = np.asarray(args["arms"]), np.asarray(args["theta"])
    bad = {
        "algorithm": st.one_of(
            labelled("unknown name", st.text(max_size=12).filter(lambda v: v not in ALGORITHMS)),
            labelled("a regret algorithm", st.sampled_from(REGRET)),
            labelled("not a string", st.sampled_from([None, 3, True, ["dp_bai"]])),
        ),
        "arms": st.one_of(
            labelled("non-finite entry", st.just(np.where(arms == arms.max(), np.nan, arms))),
            labelled("booleans", st.just(arms > 0.5)),
            labelled("1-d", st.just(arms[:, 0])),
            labelled("one arm", st.just(arms[:1])),
            labelled("no features", st.just(arms[:, :0])),
            labelled("strings", st.just(arms.astype(str))),
            labelled("junk", st.sampled_from([None, 1.0, "arms", {"a": 1}])),
        ),
        "theta": st.one_of(
            bad_vector("theta", theta.tolist()),
            labelled("wrong length", st.just([*theta.tolist(), 0.1])),
            *means_out_of_range(arms),
        ),
        "budget": bad_integer(1, MAX_BUDGET),
        "epsilon": bad_epsilon(ALGORITHMS[args["algorithm"]].private),
        "runs": bad_integer(1, MAX_RUNS),
        "seed": bad_integer(0),
        "first_run": bad_integer(0),
        "reward": labelled(
            "unknown law",
            st.one_of(st.text(max_size=10), st.sampled_from([None, 1, "Uniform"])).filter(
                lambda v: v not in ("uniform", "uniform_centered")
            ),
        ),
    }
    if argument == "reward_width":
        if "reward_width" in args:
            label, value = data.draw(
                st.one_of(
                    NON_FINITE,
                    NOT_A_NUMBER.filter(lambda p: p[1] is not None),
                    labelled("outside [0, 1/2]", st.floats(0.5, 10, exclude_min=True)),
                    labelled("negative", st.floats(-10, 0, exclude_max=True)),
                    labelled("missing", st.just(None)),
                )
            )
        else:
            label, value = data.draw(labelled("given with reward='uniform'", st.floats(0, 0.5)))
        culprit = argument
    elif argument == "parameter":
        culprit, (label, value) = data.draw(bad_param(args["algorithm"]), label="parameter")
    else:
        culprit, (label, value) = argument, data.draw(bad[argument], label=argument)
    event(f"{culprit}: {label}")
    spoiled = {**args, culprit: value}
    if label.startswith("a mean"):  # under the default reward law U[0, 2 mu], which needs 0 <= mu <= 1/2
        spoiled.pop("reward", None), spoiled.pop("reward_width", None)
    return spoiled, culprit


def means_out_of_range(arms: np.ndarray) -> list:
    """theta spoils giving some mean arms @ theta above 1/2 or below 0 (none if every arm is 0)."""
    top = arms.sum(axis=1).max()
    if top <= 0:
        return []
    theta = np.full(arms.shape[1], 0.75 / top)  # the arm of largest sum gets mean 0.75
    return [labelled("a mean above 1/2", st.just(theta)), labelled("a mean below 0", st.just(-theta))]


BAI_CASES = spoil_cases(BAI_ARGUMENTS, BAI)


@pytest.mark.parametrize(("argument", "algorithm"), BAI_CASES, ids=case_ids(BAI_CASES))
@given(data=st.data())
def test_one_spoiled_bai_argument_is_named(argument, algorithm, data):
    algorithm = algorithm or data.draw(st.sampled_from(BAI), label="algorithm")
    args = data.draw(bai_arguments(algorithm))
    spoiled, culprit = spoil_bai(data, args, argument)
    message = refusal(simulate_bai, **spoiled)
    assert_names_first(message, culprit, [*BAI_ARGUMENTS, *ALGORITHMS[algorithm].params, UNKNOWN_PARAM])


# --- instance and checkpoint helpers -----------------------------------------------------------------


def call_quietly(fn, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        return fn(*args, **kwargs)


@given(k=integer_like(2, 50), name=st.sampled_from(["C1", "C2", "C3", "C4"]))
def test_valid_sajed_instances_are_sorted_means(k, name):
    event(f"instance: {name}")
    means = call_quietly(means_for, {"name": name, "k": k})
    exact = sajed_instance(name, k)
    assert means.shape == (int(k),) and means[0] == 0.75 and np.all((means >= 0.25) & (means <= 0.75))
    assert np.all(np.diff(means) <= 0) and exact == sorted(exact, reverse=True)
    np.testing.assert_array_equal(means, [float(x) for x in exact])


@given(
    spec=st.one_of(st.sampled_from(sorted(NAMED)).map(lambda n: {"name": n}), unit_means().map(lambda m: {"means": m}))
)
def test_valid_named_or_given_means_come_back(spec):
    event("instance: " + ("named" if "name" in spec else "given means"))
    means = call_quietly(means_for, spec)
    np.testing.assert_array_equal(means, NAMED[spec["name"]] if "name" in spec else np.asarray(spec["means"]))


@given(
    k=integer_like(4, 40),
    omega=st.lists(st.floats(0, 0.8), min_size=2, max_size=2).map(sorted),
    seed=st.integers(0, 2**32),
    via_config=st.booleans(),
)
def test_valid_section5_instances_have_arm_1_best(k, omega, seed, via_config):
    event("section5 via " + ("instance_for" if via_config else "section5_instance"))
    kwargs = dict(k=k, omega_low=omega[0], omega_high=omega[1], seed=seed)
    arms, theta = (
        call_quietly(instance_for, {"name": "section5", **kwargs})[:2]
        if via_config
        else call_quietly(section5_instance, **kwargs)
    )
    means = arms @ theta
    assert arms.shape == (int(k), 2) and theta.shape == (2,)
    assert means[0] == 0.5 and np.all(means[1:] <= 0.45 + 1e-12) and np.all(means >= 0)  # rewards U[0, 2 mu]
    np.testing.assert_array_equal(section5_instance(**kwargs)[0], arms)  # the instance seed fixes the omegas


@given(ratio=st.floats(1e-3, 1e3), mu=st.lists(st.floats(0, 1), min_size=2, max_size=2))
def test_valid_two_arm_instances_have_the_given_means(ratio, mu):
    arms, theta = call_quietly(two_arm_instance, ratio, *mu)
    np.testing.assert_allclose(arms @ theta, mu, rtol=1e-12, atol=1e-300)


@given(horizon=integer_like(1, 10**12), n=integer_like(2, 400), data=st.data())
def test_valid_checkpoints_are_increasing_and_end_at_the_horizon(horizon, n, data):
    points = call_quietly(default_checkpoints, horizon, n)
    horizon = int(horizon)
    event("checkpoints: " + ("every step" if points.size == horizon else "a subset"))
    assert points.dtype == np.int64 and points[0] >= 1 and points[-1] == horizon and np.all(np.diff(points) > 0)
    assert min(horizon, n // 2) <= points.size <= n + 1
    given_points = data.draw(st.lists(st.integers(1, horizon), min_size=1, max_size=6, unique=True).map(sorted))
    np.testing.assert_array_equal(call_quietly(check_checkpoints, given_points, horizon), given_points)


# (function, the valid arguments, {argument: (label, value) pairs it must refuse}); the argument named in
# the error is the key, except "spec" (a config entry), which the errors call "instance"
HELPERS = {
    "means_for": (
        means_for,
        lambda: {"spec": {"name": "C2", "k": 5}},
        {
            "spec": st.one_of(labelled("not a mapping", st.sampled_from([None, "C2", ["C2"], 5]))),
            "name": st.one_of(
                labelled("unknown", st.text(max_size=8).filter(lambda v: v not in [*NAMED, "C1", "C2", "C3", "C4"])),
                labelled("not a string", st.sampled_from([None, 2, True, ["C2"]])),
            ),
            "k": st.one_of(bad_integer(2, MAX_ARMS), labelled("missing", st.just(...))),
            "means": st.one_of(
                bad_vector("means", [0.9, 0.6], low=0.0, high=1.0),
                labelled("fewer than 2 arms", st.lists(st.floats(0, 1), max_size=1)),
            ),
        },
    ),
    "sajed_instance": (
        sajed_instance,
        lambda: {"name": "C3", "k": 5},
        {
            "name": labelled(
                "unknown",
                st.one_of(st.text(max_size=4), st.sampled_from([None, 1, "c1"])).filter(
                    lambda v: v not in ("C1", "C2", "C3", "C4")
                ),
            ),
            "k": bad_integer(2, MAX_ARMS),
        },
    ),
    "section5_instance": (
        section5_instance,
        lambda: {"k": 8, "omega_low": 0.1, "omega_high": 0.7, "seed": 3},
        {
            "k": bad_integer(4, MAX_ARMS),
            "omega_low": st.one_of(
                NON_FINITE,
                NOT_A_NUMBER,
                labelled("negative", st.floats(-10, 0, exclude_max=True)),
                labelled("above omega_high", st.floats(0.7, 0.8, exclude_min=True)),
            ),
            "omega_high": st.one_of(
                NON_FINITE,
                NOT_A_NUMBER,
                labelled("above 0.8", st.floats(0.8, 10, exclude_min=True)),
                labelled("negative", st.floats(-10, 0, exclude_max=True)),
            ),
            "seed": bad_integer(0),
        },
    ),
    "two_arm_instance": (
        two_arm_instance,
        lambda: {"ratio": 10.0, "mu1": 0.5, "mu2": 0.45},
        {
            "ratio": st.one_of(
                NON_FINITE, NOT_A_NUMBER, labelled("outside [1e-12, 1e12]", st.sampled_from([0.0, -1.0, 1e-13, 1e13]))
            ),
            "mu1": st.one_of(NON_FINITE, NOT_A_NUMBER, labelled("outside [0, 1]", st.sampled_from([-0.1, 1.5]))),
            "mu2": st.one_of(NON_FINITE, NOT_A_NUMBER, labelled("outside [0, 1]", st.sampled_from([-0.1, 1.5]))),
        },
    ),
    "instance_for": (
        instance_for,
        lambda: {"spec": {"name": "two_arm", "ratio": 2.0}},
        {
            "spec": labelled("not a mapping", st.sampled_from([None, "two_arm", [1], 5])),
            "name": labelled("unknown", st.sampled_from(["section6", None, 3, "C2"])),
            UNKNOWN_PARAM: labelled("unknown key", st.sampled_from([1, None])),
            "ratio": st.one_of(NON_FINITE, NOT_A_NUMBER),
        },
    ),
    "default_checkpoints": (
        default_checkpoints,
        lambda: {"horizon": 1000, "n": 50},
        {
            "horizon": bad_integer(1, MAX_HORIZON),
            "n": bad_integer(2, 100_000),
        },
    ),
    "check_checkpoints": (
        check_checkpoints,
        lambda: {"checkpoints": [1, 5, 9], "horizon": 10},
        {
            "checkpoints": bad_checkpoints(10),
        },
    ),
}
HELPER_CASES = [(fn, argument) for fn, (_, _, bad) in HELPERS.items() for argument in bad]
SPEC_KEYS = {"name", "k", "means", "ratio", UNKNOWN_PARAM}  # keys of the config entry, not arguments


@pytest.mark.parametrize(("helper", "argument"), HELPER_CASES, ids=[f"{f}-{a}" for f, a in HELPER_CASES])
@given(data=st.data())
def test_one_spoiled_helper_argument_is_named(helper, argument, data):
    fn, valid, bad = HELPERS[helper]
    kwargs = valid()
    label, value = data.draw(bad[argument], label=argument)
    event(f"{argument}: {label}")
    if argument in SPEC_KEYS and "spec" in kwargs:  # a key of the config entry
        spec = {**kwargs["spec"], argument: value}
        if value is ...:
            del spec[argument]
        kwargs = {"spec": spec}
    else:
        kwargs[argument] = value
    culprit = "instance" if argument == "spec" else argument
    names = [culprit, *(a for a in bad if a != "spec")]
    assert_names_first(refusal(fn, **kwargs), culprit, names)


# --- the pipeline's config ---------------------------------------------------------------------------


def smoke_config() -> dict:
    """config.yaml with smoke.yaml merged over it (as ``snakemake --configfile config/smoke.yaml``)."""

    def merge(base, extra):
        for key, value in extra.items():
            if isinstance(value, dict) and isinstance(base.get(key), dict):
                merge(base[key], value)
            else:
                base[key] = value
        return base

    config = yaml.safe_load((ROOT / "config" / "config.yaml").read_text())
    return merge(config, yaml.safe_load((ROOT / "config" / "smoke.yaml").read_text()))


BASE = smoke_config()
FAST = {**copy.deepcopy(BASE), "readings": {"enabled": False}}


def paths(tree, prefix=()):
    """Every key path of a config tree (mappings and lists), leaves and inner nodes."""
    yield prefix
    items = tree.items() if isinstance(tree, dict) else enumerate(tree) if isinstance(tree, list) else ()
    for key, value in items:
        yield from paths(value, (*prefix, key))


ALL_PATHS = [p for p in paths(BASE) if p]
FAST_PATHS = [p for p in ALL_PATHS if p[0] != "readings"]
READING_PATHS = [p for p in ALL_PATHS if p[0] == "readings"]
YAML_JUNK = st.one_of(  # what YAML or --config can hold: no numpy scalars or complex numbers
    st.none(),
    st.booleans(),
    st.text(max_size=6),
    st.just("1000"),
    st.just([1]),
    st.just({"a": 1}),
    st.sampled_from([float("nan"), float("inf"), float("-inf")]),
)
MUTATIONS = st.one_of(
    YAML_JUNK,
    st.floats(),
    st.integers(2**40 + 1, 2**80),
    st.integers(-5, 5),
    st.just([]),
    st.just({}),
    st.just("no_such_algorithm"),
    st.just(10**30),
    st.just(-1),
    st.just(float("nan")),
    st.just([float("inf")]),
)


def mutate(config: dict, path: tuple, action: str, value) -> tuple[dict, str]:
    """(mutated copy, the key the error must name). ``action``: replace the value, add an unknown key
    beside it, or delete it."""
    config = copy.deepcopy(config)
    parent = config
    for key in path[:-1]:
        parent = parent[key]
    last = path[-1]
    if action == "add" and isinstance(parent, dict):
        parent["no_such_key"] = value
        return config, "no_such_key"
    if action == "delete":
        del parent[last]
        return config, str(last)
    parent[last] = value
    return config, str(last)


def names_the_key(message: str, path: tuple, culprit: str) -> bool:
    """The error's key (its text before ': ') is the mutated key, an ancestor of it or one of its
    descendants, or the message names the culprit key as a word (a list index does not count; for a list entry,
    the message may name the list instead). A key inside
    a compact ``panels: {axis: [v0, v1, ...]}`` figure is compared with the panel it becomes, ``panels[i]``,
    and a key of a paper's ``defaults`` with the same key in any of its figures (config/README.md)."""
    key = message.split(": ", 1)[0]
    tokens = [t for t in re.split(r"[.\[\]]", key) if t]
    dotted = [str(p) for p in path]
    if "panels" in path[:-2] and isinstance(path[path.index("panels") + 2], int):
        at = path.index("panels") + 1
        panel = dotted[:at] + [dotted[at + 1]]  # panels.<axis>[i]... is panel i: its error may name any key in it
        if tokens[: len(panel)] == panel:
            return True
    if len(path) > 4 and tokens[:4] == dotted[:4] and tokens[4:5] == ["panels"]:
        # a figure's key fills each of its panels: panels[i].<key> (or an ancestor or descendant) is that key
        rest, mine = tokens[6:], dotted[4:]
        if rest == mine[: len(rest)] or mine == rest[: len(mine)]:
            return True
    if len(path) > 3 and path[2] == "defaults" and tokens[:3] == [*dotted[:2], "figures"]:
        return dotted[3] in tokens  # a paper's defaults fill each of its figures: any of them may be named
    related = tokens == dotted[: len(tokens)] or dotted == tokens[: len(dotted)]
    if isinstance(path[-1], int) and ".".join(dotted[:-1]) in message:
        return True  # an entry of a list that other keys name (a frontier's instances): the error names the list
    return related or (not culprit.isdigit() and word_at(message, culprit) is not None)


def plan_or_refuse(config: dict, path: tuple, culprit: str, tmp_path: Path):
    """Plan ``config``; an error must be one line naming the key; an unknown key must be refused."""
    config["results"] = str(tmp_path / "results")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        try:
            planning.plan(config, SCHEMA)
        except ConfigError as err:
            message = str(err)
            event("refused")
            assert "\n" not in message, message
            assert names_the_key(message, path, culprit), (path, message)
        else:
            event("planned")
            assert culprit != "no_such_key", f"an unknown key beside {'.'.join(map(str, path))} was accepted"
    assert not (tmp_path / "results").exists()


@settings(deadline=timedelta(seconds=30))  # a plan takes ~1 s, several on a loaded machine
@given(
    path=st.sampled_from(FAST_PATHS), action=st.sampled_from(["replace", "replace", "add", "delete"]), value=MUTATIONS
)
def test_config_mutations_plan_or_fail_naming_the_key(path, action, value, tmp_path_factory):
    event(f"action: {action}")
    config, culprit = mutate(FAST, path, action, value)
    plan_or_refuse(config, path, culprit, tmp_path_factory.mktemp("cfg"))


@settings(max_examples=12, deadline=timedelta(seconds=30))  # plans with readings take a few seconds each
@given(path=st.sampled_from(READING_PATHS), action=st.sampled_from(["replace", "add", "delete"]), value=MUTATIONS)
def test_reading_config_mutations_plan_or_fail_naming_the_key(path, action, value, tmp_path_factory):
    event(f"action: {action}")
    config, culprit = mutate(BASE, path, action, value)
    plan_or_refuse(config, path, culprit, tmp_path_factory.mktemp("cfg"))
