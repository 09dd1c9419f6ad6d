"""Hostile input, property-based (hypothesis): every call either works or raises ``ValueError`` naming the
argument, quickly, with no warning; every config either plans or fails with one line naming the key.

Each argument is drawn from a small valid range or from hostile values (wrong types, booleans, strings,
NaN/inf, negative, beyond the stated limits). Valid values that would make a call slow (a horizon of
10**9 is legal) are left out, since the property is about input handling, not speed; the cost estimate
has its own test. ``HYPOTHESIS_PROFILE=long`` runs many more examples (tests/conftest.py).
"""

from __future__ import annotations

import copy
import math
import re
import sys
import warnings
from datetime import timedelta
from numbers import Real
from pathlib import Path

import numpy as np
import pytest
import yaml
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import dpbandits
from dpbandits import ALGORITHMS, catalogue, planning, reference
from dpbandits.bai import simulate_bai
from dpbandits.bai.linear_instances import instance_for, section5_instance, two_arm_instance
from dpbandits.checkpoints import check_checkpoints, default_checkpoints
from dpbandits.instances import means_for, sajed_instance
from dpbandits.validation import MAX_ARMS, MAX_BUDGET, MAX_HORIZON, MAX_RUNS

ROOT = Path(__file__).resolve().parents[1]
SCHEMA = str(ROOT / "workflow" / "schemas" / "config.schema.yaml")
REGRET = [name for name, alg in ALGORITHMS.items() if alg.kind == "regret"]
BAI = [name for name, alg in ALGORITHMS.items() if alg.kind == "bai"]
TWINS = [name for name in REGRET if ALGORITHMS[name].reference]

# --- strategies --------------------------------------------------------------------------------------

JUNK = st.one_of(
    st.none(), st.booleans(), st.text(max_size=6), st.just("1000"), st.just([1]), st.just({"a": 1}),
    st.sampled_from([np.bool_(True), np.float64("nan"), float("inf"), float("-inf"), complex(1, 1)]),
)
HUGE_INT = st.one_of(st.integers(min_value=2**40 + 1, max_value=2**80), st.sampled_from([2**63, 10**19, 2**64]))
ANY_FLOAT = st.floats(allow_nan=True, allow_infinity=True)


def number_or_junk(valid):
    """``valid`` values, hostile numbers (negative, huge, NaN/inf, fractional) or junk of other types."""
    return st.one_of(valid, valid, JUNK, HUGE_INT, st.integers(min_value=-(2**70), max_value=0), ANY_FLOAT)


def _integral(value) -> bool:
    return isinstance(value, Real) and not isinstance(value, bool | np.bool_) and math.isfinite(value) \
        and float(value).is_integer()


def costly(value, cheap: int, limit: int) -> bool:
    """A legal but slow value (an integer in (cheap, limit]): left out of the draws."""
    return _integral(value) and cheap < value <= limit


means_strategy = st.one_of(
    st.lists(st.floats(0, 1), min_size=2, max_size=5),
    st.lists(st.floats(0, 1), min_size=2, max_size=5),
    st.lists(ANY_FLOAT, min_size=0, max_size=4),
    st.lists(st.booleans(), min_size=2, max_size=3),
    st.lists(st.text(max_size=3), min_size=2, max_size=3),
    st.lists(st.lists(st.floats(0, 1), min_size=2, max_size=2), min_size=1, max_size=2),
    st.just(np.full(MAX_ARMS + 1, 0.5)),
    JUNK,
)


def param_strategy(name: str):
    keys = [*ALGORITHMS[name].params, "bogus"]
    return st.dictionaries(st.sampled_from(keys), st.one_of(JUNK, ANY_FLOAT, st.integers(-3, 3)), max_size=2)


@st.composite
def regret_calls(draw, algorithms=REGRET, cheap_horizon=400):
    algorithm = draw(st.one_of(st.sampled_from(algorithms), st.sampled_from(algorithms), JUNK))
    kwargs = dict(
        means=draw(means_strategy),
        horizon=draw(number_or_junk(st.integers(1, cheap_horizon))),
        epsilon=draw(number_or_junk(st.floats(1e-3, 100))),
        runs=draw(number_or_junk(st.integers(1, 3))),
        seed=draw(number_or_junk(st.integers(0, 2**64))),
        first_run=draw(number_or_junk(st.integers(0, 10**6))),
        checkpoints=draw(st.one_of(st.none(), st.none(), st.lists(st.integers(-5, 500), max_size=4), JUNK)),
    )
    assume(not costly(kwargs["horizon"], cheap_horizon, MAX_HORIZON))
    assume(not costly(kwargs["runs"], 3, MAX_RUNS))
    params = draw(param_strategy(algorithm)) if isinstance(algorithm, str) and algorithm in ALGORITHMS else {}
    return algorithm, kwargs, params


@st.composite
def bai_calls(draw):
    algorithm = draw(st.one_of(st.sampled_from(BAI), st.sampled_from(BAI), JUNK))
    k = draw(st.integers(4, 8))
    arms, theta = section5_instance(k)
    arms = draw(st.one_of(
        st.just(arms), st.just(arms), st.just(arms[:, :1]), st.just(np.where(arms > 5, np.nan, arms)),
        st.just(arms > 0), st.just(arms.tolist()[:1]), st.lists(st.text(max_size=2), max_size=2), JUNK,
    ))
    theta = draw(st.one_of(st.just(theta), st.just(theta), st.just(theta[:1]), st.just(-theta),
                           st.just(np.array([np.inf, 0.5])), JUNK))
    kwargs = dict(
        budget=draw(number_or_junk(st.integers(1, 3000))),
        epsilon=draw(number_or_junk(st.floats(1e-2, 100))),
        runs=draw(number_or_junk(st.integers(1, 3))),
        seed=draw(number_or_junk(st.integers(0, 2**40))),
        reward=draw(st.one_of(st.just("uniform"), st.just("uniform"), st.just("uniform_centered"), JUNK)),
    )
    if kwargs["reward"] == "uniform_centered":
        kwargs["reward_width"] = draw(number_or_junk(st.floats(0, 0.2)))
    assume(not costly(kwargs["budget"], 3000, MAX_BUDGET))
    assume(not costly(kwargs["runs"], 3, MAX_RUNS))
    params = draw(param_strategy(algorithm)) if isinstance(algorithm, str) and algorithm in ALGORITHMS else {}
    return algorithm, arms, theta, kwargs, params


def call_cleanly(fn, *args, **kwargs):
    """``fn(*args, **kwargs)``, or the ``ValueError`` it raised; any warning or other exception fails."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        try:
            return fn(*args, **kwargs)
        except ValueError as err:
            message = str(err)
            assert message and "\n" not in message, f"not a one-line message: {message!r}"
            return err


@pytest.fixture(scope="module", autouse=True)
def compiled():
    """Compile every kernel once, so the 5 s deadline measures input handling, not numba's compiler."""
    for name in REGRET:
        dpbandits.simulate(name, [0.9, 0.6], 50, 1.0, runs=1, seed=0)
    arms, theta = section5_instance(5)
    for name in BAI:
        call_cleanly(simulate_bai, name, arms, theta, 600, 1.0, runs=1, seed=0)


# --- the public API ----------------------------------------------------------------------------------


@given(regret_calls())
def test_simulate_runs_or_names_the_bad_argument(call):
    algorithm, kwargs, params = call
    out = call_cleanly(dpbandits.simulate, algorithm, **kwargs, **params)
    if isinstance(out, ValueError):
        named = ["algorithm", "means", "K", "horizon", "epsilon", "runs", "seed", "first_run", "checkpoints",
                 *params]
        assert any(word in str(out) for word in named), str(out)
        return
    runs, horizon = int(kwargs["runs"]), int(kwargs["horizon"])
    assert out.regret.shape == (runs, out.checkpoints.size) and out.pulls.shape == (runs, len(kwargs["means"]))
    assert np.all(np.isfinite(out.regret)) and np.all(np.diff(out.regret, axis=1) >= -1e-9)
    assert np.all(out.pulls.sum(axis=1) == horizon) and out.checkpoints[-1] <= horizon


@given(regret_calls(algorithms=TWINS, cheap_horizon=60))
def test_reference_simulate_runs_or_names_the_bad_argument(call):
    algorithm, kwargs, params = call
    out = call_cleanly(reference.simulate, algorithm, **kwargs, **params)
    if not isinstance(out, ValueError):
        assert np.all(out.pulls.sum(axis=1) == int(kwargs["horizon"]))


@given(bai_calls())
def test_simulate_bai_runs_or_names_the_bad_argument(call):
    algorithm, arms, theta, kwargs, params = call
    out = call_cleanly(simulate_bai, algorithm, arms, theta, **kwargs, **params)
    if isinstance(out, ValueError):
        named = ["algorithm", "arms", "theta", "K", "budget", "epsilon", "runs", "seed", "reward", "T=", "means",
                 *params]
        assert any(word in str(out) for word in named), str(out)
        return
    assert out.recommended.shape == (int(kwargs["runs"]),)
    assert np.all((out.recommended >= 0) & (out.recommended < np.asarray(arms).shape[0]))


@given(
    st.fixed_dictionaries(
        {},
        optional={
            "name": st.one_of(st.sampled_from(["C1", "C2", "C3", "C4", "tossou_2arm", "hu_setting1", "nope"]), JUNK),
            "k": number_or_junk(st.integers(2, 50)),
            "means": means_strategy,
        },
    )
)
def test_regret_instances_are_valid_or_refused(spec):
    assume(not costly(spec.get("k"), 50, MAX_ARMS))
    out = call_cleanly(means_for, spec)
    if not isinstance(out, ValueError):
        assert out.ndim == 1 and out.size >= 2 and np.all((out >= 0) & (out <= 1))


@given(
    k=number_or_junk(st.integers(2, 40)),
    omega=st.tuples(number_or_junk(st.floats(0, 0.8)), number_or_junk(st.floats(0, 0.8))),
    ratio=number_or_junk(st.floats(0.01, 1000)),
    mu=number_or_junk(st.floats(0, 0.5)),
)
def test_bai_instances_are_valid_or_refused(k, omega, ratio, mu):
    assume(not costly(k, 40, MAX_ARMS))
    for fn, args in [(section5_instance, (k, *omega)), (two_arm_instance, (ratio, 0.5, mu)),
                     (instance_for, ({"name": "section5", "k": k},)), (sajed_instance, ("C2", k))]:
        out = call_cleanly(fn, *args)
        if not isinstance(out, ValueError):
            values = np.concatenate([np.ravel(np.asarray(a, dtype=float)) for a in out[:2]])
            assert np.all(np.isfinite(values))


@given(horizon=number_or_junk(st.integers(1, 10**6)), n=number_or_junk(st.integers(2, 400)),
       given_points=st.one_of(st.lists(st.integers(-3, 2000), max_size=5), JUNK))
def test_checkpoint_helpers_are_valid_or_refused(horizon, n, given_points):
    assume(not costly(n, 400, 10**9))
    out = call_cleanly(default_checkpoints, horizon, n)
    if not isinstance(out, ValueError):
        assert out[-1] == int(horizon) and np.all(np.diff(out) > 0) and out[0] >= 1
        checked = call_cleanly(check_checkpoints, given_points, int(horizon))
        if not isinstance(checked, ValueError):
            assert np.all(np.diff(checked) > 0) and checked[0] >= 1 and checked[-1] <= int(horizon)


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
    simulate_module = sys.modules["dpbandits.simulate"]  # the module, shadowed by the function in dpbandits
    monkeypatch.setattr(simulate_module, "COST_WARNING_S", 1e-7)
    with caplog.at_level("WARNING", logger="dpbandits"):
        dpbandits.simulate("ucb", [0.9, 0.6], 100, None, runs=1, seed=0)
    assert "estimated to take about" in caplog.text and "ucb" in caplog.text
    caplog.clear()
    monkeypatch.setattr(simulate_module, "COST_WARNING_S", 600.0)
    with caplog.at_level("WARNING", logger="dpbandits"):
        dpbandits.simulate("ucb", [0.9, 0.6], 100, None, runs=1, seed=0)
    assert caplog.text == ""


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
    st.none(), st.booleans(), st.text(max_size=6), st.just("1000"), st.just([1]), st.just({"a": 1}),
    st.sampled_from([float("nan"), float("inf"), float("-inf")]),
)
MUTATIONS = st.one_of(
    YAML_JUNK, ANY_FLOAT, HUGE_INT, st.integers(-5, 5), st.just([]), st.just({}), st.just("no_such_algorithm"),
    st.just(10**30), st.just(-1), st.just(float("nan")), st.just([float("inf")]),
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
    descendants, or the message names the culprit."""
    key = message.split(": ", 1)[0]
    tokens = [t for t in re.split(r"[.\[\]]", key) if t]
    dotted = [str(p) for p in path]
    related = tokens == dotted[: len(tokens)] or dotted == tokens[: len(dotted)]
    return related or culprit in message


def plan_or_refuse(config: dict, path: tuple, culprit: str, tmp_path: Path):
    """Plan ``config``; an error must be one line naming the key; an unknown key must be refused."""
    config["results"] = str(tmp_path / "results")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        try:
            planning.plan(config, SCHEMA)
        except catalogue.ConfigError as err:
            message = str(err)
            assert "\n" not in message, message
            assert names_the_key(message, path, culprit), (path, message)
        else:
            assert culprit != "no_such_key", f"an unknown key beside {'.'.join(map(str, path))} was accepted"
    assert not (tmp_path / "results").exists()


@given(path=st.sampled_from(FAST_PATHS), action=st.sampled_from(["replace", "replace", "add", "delete"]),
       value=MUTATIONS)
def test_config_mutations_plan_or_fail_naming_the_key(path, action, value, tmp_path_factory):
    config, culprit = mutate(FAST, path, action, value)
    plan_or_refuse(config, path, culprit, tmp_path_factory.mktemp("cfg"))


@settings(max_examples=12, deadline=timedelta(seconds=30))  # plans with readings take a few seconds each
@given(path=st.sampled_from(READING_PATHS), action=st.sampled_from(["replace", "add", "delete"]), value=MUTATIONS)
def test_reading_config_mutations_plan_or_fail_naming_the_key(path, action, value, tmp_path_factory):
    config, culprit = mutate(BASE, path, action, value)
    plan_or_refuse(config, path, culprit, tmp_path_factory.mktemp("cfg"))
