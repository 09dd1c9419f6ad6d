"""The registry is the one source of truth per algorithm: twins, audit plans, bounds, collapsed kernels."""

import importlib
import inspect
import pkgutil
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from dpbandits import ALGORITHMS, reference
from dpbandits.bench.timing import bench
from dpbandits.core.registry import Algorithm, Audit, Bound, Param
from dpbandits.drawing import theory

REGRET = [n for n, a in ALGORITHMS.items() if a.kind == "regret"]


def _twin_classes() -> set:
    """Every class with select and update defined in the modules of ``dpbandits.reference``."""
    out = set()
    for mod in pkgutil.iter_modules(reference.__path__):
        module = importlib.import_module(f"dpbandits.reference.{mod.name}")
        for _, cls in inspect.getmembers(module, inspect.isclass):
            if cls.__module__ == module.__name__ and hasattr(cls, "select") and hasattr(cls, "update"):
                out.add(cls)
    return out


def test_every_regret_algorithm_names_its_twin_and_every_twin_serves_one():
    twins = {name: ALGORITHMS[name].reference_class() for name in REGRET}
    assert all(t is not None for t in twins.values()), twins
    assert len(set(twins.values())) == len(twins)  # no twin serves two algorithms
    # the base classes (_Counts, _LazyEpochs) are not twins; every other class is one algorithm's
    assert {c for c in _twin_classes() if not c.__name__.startswith("_")} == set(twins.values())


def test_bench_and_theory_read_the_registry():
    assert [n for n in REGRET if ALGORITHMS[n].collapsed] == [
        "adap_klucb",
        "adap_ucb",
        "anytime_lazy_ucb",
        "dp_imed",
        "dp_klucb",
        "dp_se",
        "dp_se2",
        "dp_se2_modified",
    ]
    row = bench(["dp_se"], [3], 2000, 100, 1, 1)[0]
    assert row["collapsed"] and row["reference_ns_per_pull"] > 0
    t = np.array([10, 100, 1000])
    for name in REGRET:
        got = theory.bound_for(name, [0.9, 0.6], t, 0.5, ALGORITHMS[name].resolve({}), 1000)
        bound = ALGORITHMS[name].bound
        assert (got is None) == (bound is None), name
        if bound is not None:
            assert got.shape == (3,) and np.all(np.diff(got) > 0), name
            assert isinstance(bound.formula, str), name  # a path: the algorithm's module does not import theory
    assert {n for n in REGRET if ALGORITHMS[n].bound} == {
        "ucb",
        "dp_ucb_int",
        "dp_ucb_tossou",
        "dp_ucb_bound",
        "dp_se",
        "adap_ucb",
    }


def test_lazy_twin_paths_resolve_on_first_use():
    alg = ALGORITHMS["dp_ucb_int"]
    assert isinstance(alg.reference, str) and alg.reference_class() is reference.tossou.DPUCBInt
    broken = replace(alg, name="broken", reference="dpbandits.reference.tossou:NoSuchTwin")
    with pytest.raises(ValueError, match="'broken': reference 'dpbandits.reference.tossou:NoSuchTwin'"):
        broken.reference_class()


def _run(*args):
    return None


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"name": "Bad Name"}, "name must be lower case"),
        ({"kind": "bandit"}, "kind 'bandit'"),
        ({"run": None}, "run .* must be callable"),
        ({"params": {"x": 1.0}}, "parameter 'x' is a float, not a Param"),
        ({"params": {"x": Param(0.0, low=0.0)}}, "parameter x must be > 0"),
        ({"cost_ns": 0}, "cost_ns must be a number > 0"),
        ({"reference": None}, "private regret algorithm needs a reference twin"),
        ({"reference": "no colon"}, "must look like 'package.module:Class'"),
        ({"reference": int}, "not a class with select"),
        ({"audit": {"epsilon": 2.0}}, "audit must be an Audit"),
        ({"bound": (lambda *a: None)}, "bound must be a Bound"),
        ({"bound": Bound("Thm 1", "no path")}, "bound formula 'no path' must be callable or look like"),
        ({"kind": "bai", "reference": None, "collapsed": True}, "for regret algorithms"),
        ({"kind": "bai", "reference": None, "bound": None, "replay": _run}, "for regret algorithms"),
        ({"replay": "no path"}, "replay 'no path' must be callable or look like"),
    ],
)
def test_bad_definitions_fail_naming_the_algorithm(changes, message):
    good = {
        "name": "mine",
        "kind": "regret",
        "label": "Mine",
        "private": True,
        "run": _run,
        "reference": "dpbandits.reference.tossou:UCB",
        "audit": Audit(),
        "bound": Bound("Thm 1", _run),
    }
    Algorithm(**good)
    with pytest.raises(ValueError, match=f"{changes.get('name', 'mine')}'?: .*{message}"):
        Algorithm(**{**good, **changes})


def test_reference_twins_share_no_code_with_the_fast_code():
    """A twin reaches neither dpbandits.bandits nor dpbandits.bai (constants named in a paper are written out
    again), so a bug in the fast side's formulas cannot pass the parity tests by being shared."""
    from dpbandits.pipeline import sources

    fast = (str(Path(sources.PACKAGE) / "bandits"), str(Path(sources.PACKAGE) / "bai"))
    for mod in pkgutil.iter_modules(reference.__path__):
        reached = sources.closure(f"dpbandits.reference.{mod.name}")
        assert not [f for f in reached if f.startswith(fast)], mod.name


def test_ucb_leads_the_registered_regret_algorithms():
    # the registry's order is that of the tables listing algorithms (crosspaper): UCB, then module name order
    regret = [n for n, a in ALGORITHMS.items() if a.kind == "regret" and a.module.startswith("dpbandits.bandits.")]
    assert regret[0] == "ucb" and regret[1:] == sorted(regret[1:])
