"""Tossou & Dimitrakakis 2016 diagnoses (dpbandits.diagnoses.tossou2016): each driven to both outcomes on synthetic
tables; the same-draws ablation on tiny real runs."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from _tables import Tables, context, pulls, write_claims

from dpbandits.core.instances import NAMED
from dpbandits.diagnoses import PUBLISHED, RECONSTRUCTION, TEXT_OPEN, _tossou_starving, tossou2016
from dpbandits.diagnoses._core import UNEXPLAINED
from dpbandits.diagnoses._starving import NO_NOISE, ablation

T = 100_000
TS = [1_000, 10_000, T]
PANELS = {"fig2a": ("tossou_2arm", 1.0), "fig2b": ("tossou_2arm", 0.1), "fig2c": ("tossou_10arm", 1.0)}
PANELS["fig2d"] = ("tossou_10arm", 0.1)
LABELS = {"ucb": "UCB", "dp_ucb_int": "DP-UCB-INT", "dp_ucb_tossou": "DP-UCB", "dp_ucb_bound": "DP-UCB-BOUND"}
LABELS["private_ucb"] = "Private-UCB"


def _normal(rng, centre, sd, n=100):
    return centre + sd * rng.standard_normal(n)


def build(
    results,
    reading=None,
    starved=(16, 32, 48),
    dpucb_sd=5.0,
    pucb_sd=50.0,
    bound_shift=0.0,
    dpucb_shift=0.0,
    wide=PANELS,
    literal=None,
    early=None,
):
    """Figure 2's four tables in ``results`` (in ``reading``'s folder, if given): DP-UCB-INT with runs starving the
    best arm in fig2a at ``starved`` best-arm pulls, the other curves normal around fixed levels (DP-UCB's s.d.
    ``dpucb_sd`` in the figures ``wide``); ``literal``: (final regret, best-arm pulls) of an extra DP-UCB-INT curve,
    variant "A literal"; ``early``: {algorithm: mean regret at the first checkpoint of fig2d}."""
    rng = np.random.default_rng(0)
    levels = {"ucb": 70.0, "dp_ucb_int": 50.0, "dp_ucb_tossou": 500.0 + dpucb_shift, "dp_ucb_bound": 300.0}
    levels["dp_ucb_bound"] += bound_shift
    levels["private_ucb"] = 9000.0
    tables = Tables("tossou2016")
    for fig, (inst, eps) in PANELS.items():
        sd = dpucb_sd if fig in wide else 5.0
        sds = {"ucb": 5.0, "dp_ucb_int": 5.0, "dp_ucb_tossou": sd, "dp_ucb_bound": 5.0, "private_ucb": pucb_sd}
        means = NAMED[inst]
        k, best = len(means), int(np.argmax(means))
        for alg, label in LABELS.items():
            finals = _normal(rng, levels[alg], sds[alg])
            best_pulls = np.full(100, T - 1000)
            if alg == "private_ucb":
                best_pulls[:] = T // 2 + 200
            if alg == "dp_ucb_int" and fig == "fig2a":
                finals[: len(starved)] = 0.3 * (T - np.asarray(starved))
                best_pulls[: len(starved)] = starved
            e = np.nan if alg == "ucb" else eps  # UCB does not depend on epsilon (the pipeline writes NaN)
            bound = 315.0 if alg == "dp_ucb_int" else np.nan
            m, s = finals.mean(), finals.std(ddof=1) / 10
            first = (early or {}).get(alg, m / 10) if fig == "fig2d" else m / 10
            tables.add(
                fig,
                alg,
                e,
                TS,
                [first, m / 2, m],
                instance=inst,
                curve=label,
                sem=s,
                bound=bound,
                runs=100,
                finals=finals,
                pulls=pulls(best_pulls, k, best, T),
            )
        if literal:
            finals, bp = _normal(rng, literal[0], 5.0), np.full(100, literal[1])
            m = finals.mean()
            tables.add(
                fig,
                "dp_ucb_int",
                eps,
                TS,
                [m / 10, m / 2, m],
                instance=inst,
                variant="A literal",
                curve="DP-UCB-INT A literal",
                sem=1.0,
                bound=315.0,
                runs=100,
                finals=finals,
                pulls=pulls(bp, k, best, T),
            )
    tables.write(results, reading=reading)


def fake_ablation(rates):
    """An ``ablation`` stand-in: ``rates[factor]`` of the runs starve."""

    def run(means, epsilon, horizon, runs, factors, seed, tag, update="frozen"):
        out = {}
        for c in factors:
            n = round(rates[c] * runs)
            out[c] = pd.DataFrame(
                {"final_regret": [30000.0] * n + [50.0] * (runs - n), "best_pulls": [16] * n + [T] * (runs - n)}
            ).assign(starving=lambda d: d["best_pulls"] < T / 2)
        return out

    return run


NOISE_DRIVEN = {NO_NOISE: 0.0, 0.5: 0.004, 1.0: 0.04, 2.0: 0.15}


def reading_table(starving=None, over=()):
    """A :func:`reading_table` stand-in: 500 runs per reading at T = 1e5 and 1e6; ``starving``: {reading: starving
    runs with the noise} (none without it; default 20 under every reading); ``over``: the readings whose mean final
    regret (1000 ± 10) exceeds the bound 600 (the others: 300 ± 10)."""
    starving = starving or {}
    rows = []
    for r in ("frozen", "literal", "live_bonus", "scheduled"):
        for h in (T, 10 * T):
            k, m = starving.get(r, 20), 1000.0 if r in over else 300.0
            rows.append(
                {"reading": r, "horizon": h, "runs": 500, "starving": k, "lo": 0.0, "hi": 0.1, "quiet": 0}
                | {"mean": m, "hw": 10.0, "bound": 600.0, "ratio": m / 600.0, "per_interval": 1.0}
                | {"eps_spent": 10.0, "eps_multiple": 1.0}
            )
    return lambda means, eps, seed, cap_runs, cap_horizon: pd.DataFrame(rows)


@pytest.fixture(autouse=True)
def fresh_readings(monkeypatch):
    """Every test its own readings table (the diagnosis caches it per caps)."""
    monkeypatch.setattr(_tossou_starving, "reading_table", reading_table())
    _tossou_starving._readings.cache_clear()
    yield
    _tossou_starving._readings.cache_clear()


@pytest.fixture
def results(tmp_path):
    build(tmp_path)
    write_claims(tmp_path, "tossou2016", [{"claim_id": "C3", "reading": "default", "verdict": "holds"}])
    return tmp_path


def test_starving_confirmed_when_the_noise_starves_runs_at_releases(results, tmp_path, monkeypatch):
    monkeypatch.setattr(_tossou_starving, "ablation", fake_ablation(NOISE_DRIVEN))
    f = tossou2016.starving(context(results, "tossou2016", tmp_path))
    assert f.confirmed, f.result
    assert f.conclusion == PUBLISHED
    assert f.numbers["starving runs at a multiple of f"] == "3 of 3"
    assert f.numbers["C1 holds at T without starving runs"]
    assert (tmp_path / "png" / f.figure).exists()


def test_starving_not_confirmed_when_the_ablation_keeps_them(results, tmp_path, monkeypatch):
    monkeypatch.setattr(_tossou_starving, "ablation", fake_ablation(dict.fromkeys(NOISE_DRIVEN, 0.04)))
    f = tossou2016.starving(context(results, "tossou2016", tmp_path))
    assert not f.confirmed
    assert f.conclusion == TEXT_OPEN  # the other readings' table still starves


def test_starving_text_open_when_the_box_read_literally_does_not_starve(results, tmp_path, monkeypatch):
    monkeypatch.setattr(_tossou_starving, "ablation", fake_ablation(NOISE_DRIVEN))
    monkeypatch.setattr(_tossou_starving, "reading_table", reading_table({"literal": 1, "scheduled": 0}))
    f = tossou2016.starving(context(results, "tossou2016", tmp_path))
    assert f.confirmed
    assert f.conclusion == TEXT_OPEN
    assert f.numbers["starving shown under"] == "frozen, live_bonus"
    assert "one release per interval: `frozen` starves 20/500" in f.summary


def test_starving_not_explained_when_no_reading_starves(results, tmp_path, monkeypatch):
    monkeypatch.setattr(_tossou_starving, "ablation", fake_ablation(dict.fromkeys(NOISE_DRIVEN, 0.04)))
    monkeypatch.setattr(
        _tossou_starving, "reading_table", reading_table(dict.fromkeys(("literal", "live_bonus", "scheduled"), 2))
    )
    f = tossou2016.starving(context(results, "tossou2016", tmp_path))
    assert f.conclusion == UNEXPLAINED
    assert f.numbers["starving shown under"] == "none"


def test_starving_not_confirmed_when_runs_stop_between_releases(tmp_path, monkeypatch):
    build(tmp_path, starved=(16, 37))
    write_claims(tmp_path, "tossou2016", [{"claim_id": "C3", "reading": "default", "verdict": "holds"}])
    monkeypatch.setattr(_tossou_starving, "ablation", fake_ablation(NOISE_DRIVEN))
    f = tossou2016.starving(context(tmp_path, "tossou2016", tmp_path))
    assert not f.confirmed
    assert f.numbers["starving runs at a multiple of f"] == "1 of 2"


def test_ablation_same_draws_noise_starves_and_no_noise_does_not():
    """Tiny real runs of the replayed kernel: without the noise no run starves; doubled noise starves some."""
    out = ablation([0.9, 0.6], 1.0, 1500, 60, (NO_NOISE, 2.0), 0, "test")
    assert out[NO_NOISE]["starving"].sum() == 0
    assert out[2.0]["starving"].sum() > 0
    assert (out[2.0].loc[out[2.0]["starving"], "best_pulls"] % 16 == 0).all()


def test_spreads_confirmed_when_outliers_carry_them(results, tmp_path):
    f = tossou2016.spreads(context(results, "tossou2016", tmp_path))
    assert f.confirmed, f.result
    assert f.conclusion == PUBLISHED
    assert f.numbers["spreads reaching 664.5"] == 2  # fig2a DP-UCB-INT, pseudo and realised


def test_spreads_text_open_when_only_the_small_epsilon_scatters(tmp_path):
    build(tmp_path, dpucb_sd=300.0, wide=("fig2b",))
    f = tossou2016.spreads(context(tmp_path, "tossou2016", tmp_path))
    assert not f.confirmed
    assert f.conclusion == TEXT_OPEN


def test_spreads_not_confirmed_when_scatter_carries_them(tmp_path):
    build(tmp_path, dpucb_sd=300.0)
    f = tossou2016.spreads(context(tmp_path, "tossou2016", tmp_path))
    assert not f.confirmed
    assert f.conclusion == RECONSTRUCTION
    assert "dp_ucb_tossou" in f.result.split("Still above")[1]


def test_spreads_not_explained_when_no_spread_reaches_the_threshold(tmp_path):
    build(tmp_path, starved=())
    f = tossou2016.spreads(context(tmp_path, "tossou2016", tmp_path))
    assert not f.confirmed and f.conclusion == UNEXPLAINED, f.rule


def _readings(results, pucb_sd=50.0):
    build(results, "nu_form=tr_ln_n", bound_shift=400.0, pucb_sd=pucb_sd)
    build(results, "hybrid_split=none", dpucb_shift=-300.0)
    build(results, "bound_sqrt=False")


def test_private_ucb_spread_confirmed_when_every_run_explores(results, tmp_path):
    _readings(results)
    f = tossou2016.private_ucb_spread(context(results, "tossou2016", tmp_path))
    assert f.confirmed, f.result
    assert f.conclusion == RECONSTRUCTION


def test_private_ucb_spread_not_confirmed_when_a_reading_reaches_the_spread(results, tmp_path):
    _readings(results, pucb_sd=4000.0)  # a range of about 5 x 4000 under nu_form
    f = tossou2016.private_ucb_spread(context(results, "tossou2016", tmp_path))
    assert not f.confirmed and f.conclusion == TEXT_OPEN, f.rule


def test_private_ucb_spread_not_explained_when_every_reading_reaches_it(tmp_path):
    build(tmp_path, pucb_sd=4000.0)
    build(tmp_path, "nu_form=tr_ln_n", pucb_sd=4000.0)
    f = tossou2016.private_ucb_spread(context(tmp_path, "tossou2016", tmp_path))
    assert not f.confirmed and f.conclusion == UNEXPLAINED, f.rule


def _c3_ledger(results, flips):
    rows = [{"claim_id": "C3", "reading": "default", "verdict": "holds"}]
    rows += [{"claim_id": "C3", "reading": r, "verdict": "fails" if r in flips else "holds"} for r in flips]
    if "bound_sqrt=False" not in flips:
        rows += [{"claim_id": "C3", "reading": "bound_sqrt=False", "verdict": "holds"}]
    write_claims(results, "tossou2016", rows)


def test_bound_catches_text_open_when_bound_catches_under_the_default_only(results, tmp_path):
    _readings(results)  # BOUND 300 < DP-UCB 500 by default; behind under nu_form (700) and hybrid_split (DP-UCB 200)
    _c3_ledger(results, ["nu_form=tr_ln_n", "hybrid_split=none"])
    f = tossou2016.bound_catches(context(results, "tossou2016", tmp_path))
    assert f.conclusion == TEXT_OPEN, f.rule
    assert set(f.numbers["BOUND behind at T under"].split("; ")) == {"nu_form=tr_ln_n", "hybrid_split=none"}
    assert set(f.numbers["BOUND caught up under"].split("; ")) == {"default", "bound_sqrt=False"}


@pytest.mark.parametrize("shift, expected", [(400.0, PUBLISHED), (0.0, UNEXPLAINED)])
def test_bound_catches_published_or_not_explained(tmp_path, shift, expected):
    build(tmp_path, bound_shift=shift)
    build(tmp_path, "nu_form=tr_ln_n", bound_shift=shift)
    _c3_ledger(tmp_path, ["nu_form=tr_ln_n"])
    f = tossou2016.bound_catches(context(tmp_path, "tossou2016", tmp_path))
    assert f.conclusion == expected, f.rule


def _literal_world(tmp_path, best_pulls):
    build(tmp_path, starved=(), literal=(900.0, best_pulls))
    rows = [{"claim_id": "theory", "reading": "default", "verdict": "fails", "numbers": "violations=fig2a X (ε=1)"}]
    write_claims(tmp_path, "tossou2016", rows)
    return context(tmp_path, "tossou2016", tmp_path)


@pytest.mark.parametrize(
    ("over", "conclusion"),
    [(("frozen", "literal", "live_bonus", "scheduled"), PUBLISHED), (("literal",), TEXT_OPEN), ((), UNEXPLAINED)],
)
def test_literal_bound_weighs_the_readings_above_the_bound(tmp_path, monkeypatch, over, conclusion):
    monkeypatch.setattr(_tossou_starving, "reading_table", reading_table(over=over))
    f = tossou2016.literal_bound(_literal_world(tmp_path, T - 3000))
    assert f.confirmed == ("literal" in over), f.result
    assert f.conclusion == conclusion
    assert f.numbers["above the bound under"] == (", ".join(over) or "none")
    assert f.numbers["curves above the bound at T"] == 4
    assert f.numbers["theory check's violations"] == "fig2a X (ε=1)"


def test_reading_table_counts_starving_runs_and_releases_on_a_tiny_instance():
    """The real table, tiny: 2 readings' rows at each capped T, exact intervals that hold the share, and the
    releases of `frozen` one per interval, of `literal` more."""
    from dpbandits.diagnoses._starving import reading_table as real

    df = real([0.9, 0.6], 1.0, 0, lambda n: min(n, 6), lambda h: min(h, 2000))
    assert set(df["horizon"]) == {2000} and len(df) == 4
    assert ((df["lo"] <= df["starving"] / df["runs"]) & (df["starving"] / df["runs"] <= df["hi"])).all()
    per = df.set_index("reading")["per_interval"]
    assert per["frozen"] == 1.0 and per["live_bonus"] == 1.0 and per["literal"] > 1.0


UNIFORM_10ARM = 1_000 * 0.395  # uniform play's regret at t = 1000 in the 10-arm instance (mean gap 0.395)


def test_round_robin_text_open_while_everyone_explores_uniformly(tmp_path):
    early = {"dp_ucb_bound": UNIFORM_10ARM, "private_ucb": UNIFORM_10ARM}
    build(tmp_path, starved=(), early=early)
    f = tossou2016.round_robin(context(tmp_path, "tossou2016", tmp_path))
    assert f.confirmed, f.result
    assert f.conclusion == PUBLISHED
    assert f.numbers["not below Private-UCB"] == "fig2d dp_ucb_bound t=1000-1000"


def test_round_robin_not_confirmed_when_an_exploiting_algorithm_is_not_below(tmp_path):
    build(tmp_path, starved=(), early={"dp_ucb_bound": 200.0, "private_ucb": 200.0})
    f = tossou2016.round_robin(context(tmp_path, "tossou2016", tmp_path))
    assert not f.confirmed
    assert f.conclusion == RECONSTRUCTION


def test_round_robin_not_confirmed_when_private_ucb_is_worst_everywhere(tmp_path):
    build(tmp_path, starved=())
    f = tossou2016.round_robin(context(tmp_path, "tossou2016", tmp_path))
    assert not f.confirmed and f.conclusion == UNEXPLAINED
