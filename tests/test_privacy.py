"""The privacy accountant (dpbandits.privacy) and every private algorithm's release ledger.

- the accountant's composition, with each expected value written out from the mechanism's definition: basic
  composition of Laplace releases per entry, the sparse vector's 1/b1 + 2/b2, a Gaussian release's (epsilon, delta)
  from the analytic formula of Balle & Wang (2018, Theorem 8);
- the checks that a book is a ledger of real releases (a reused draw, an entry the run does not hold), driven both
  ways on synthetic rows;
- :func:`dpbandits.privacy.spent` on a toy algorithm written here, correct and with each planted privacy bug (a
  halved scale, a release made twice, a reused draw): each planted bug exceeds the promise;
- for every private algorithm of the registry (plugins included): recording changes nothing, and every reading
  spends at most its promise at the contract's setting unless ``_overspend.OVERSPEND`` lists it (the contract,
  tests/test_contract.py, holds every default reading, and tells a plugin without a ledger what to add).
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from _overspend import OVERSPEND
from scipy.stats import norm

import dpbandits  # noqa: F401  (registers the algorithms)
from dpbandits import privacy
from dpbandits.core import registry
from dpbandits.mechanisms import ledger
from dpbandits.mechanisms.ledger import LAPLACE, SVT_QUERY, SVT_THRESHOLD
from dpbandits.privacy import account

PRIVATE = [n for n, a in registry.ALGORITHMS.items() if a.private]
REGRET_PRIVATE = [n for n in PRIVATE if registry.ALGORITHMS[n].kind == "regret"]


def book_of(rows, lo=1, hi=2**62) -> np.ndarray:
    """The rows (tuples of ledger.note's arguments) written through ``ledger.note`` into a book."""
    book = ledger.new_book(len(rows) + 1, lo, hi)
    for r in rows:
        ledger.note(book, *r)
    return ledger.rows(book)


# --- the accountant -------------------------------------------------------------------------------------------


def test_laplace_releases_compose_by_summing_per_entry():
    # arm 0: a node over entries 1..4 (weight 1, scale 2), one over 1..2 (scale 4), a mean of entry 3 alone
    # (weight 0.5, scale 1); arm 1: one release of entry 1 (scale 10)
    rows = book_of(
        [
            (LAPLACE, 0, 1, 4, 1.0, 2.0, 0, 0.3),
            (LAPLACE, 0, 1, 2, 1.0, 4.0, 1, -0.2),
            (LAPLACE, 0, 3, 3, 0.5, 1.0, 2, 0.7),
            (LAPLACE, 1, 1, 1, 1.0, 10.0, 3, 1.1),
        ]
    )
    win = account.window_sums(rows, np.array([4, 1]), 1, 4)
    expected = [[1 / 2 + 1 / 4, 1 / 2 + 1 / 4, 1 / 2 + 0.5 / 1, 1 / 2], [1 / 10, 0, 0, 0]]
    np.testing.assert_allclose(win.dense("pure", 1, 4), expected, rtol=1e-12)
    assert account.candidates(win)[0] == (0, 3)


def test_a_sparse_vector_costs_one_over_its_threshold_scale_plus_twice_one_over_its_query_scale():
    # threshold Lap(6), two queries Lap(6) reading entries 1..2 then 1..4 of arms 0 and 1 (one statistic each)
    rows = book_of(
        [
            (SVT_THRESHOLD, -1, 0, 0, 1.0, 6.0, 0, 0.4, 0.0, -1.0),
            (SVT_QUERY, 0, 1, 2, 1.0, 6.0, 1, 0.1, 0.0, 0.0),
            (SVT_QUERY, 1, 1, 2, 1.0, 6.0, 1, 0.1, 1.0, 0.0),
            (SVT_QUERY, 0, 1, 4, 1.0, 6.0, 2, -0.5, 0.0, 0.0),
            (SVT_QUERY, 1, 1, 4, 1.0, 6.0, 2, -0.5, 1.0, 0.0),
        ]
    )
    win = account.window_sums(rows, np.array([4, 4]), 1, 4)
    np.testing.assert_allclose(win.dense("pure", 1, 4), np.full((2, 4), 1 / 6 + 2 / 6), rtol=1e-12)
    assert account.events(rows, 1, 3) == ([], [pytest.approx(1 / 6 + 2 / 6)])
    assert account.problems(rows, np.array([4, 4])) == []


def analytic_gaussian_delta(epsilon: float, sigma: float) -> float:
    """delta(epsilon) of the Gaussian mechanism with sensitivity 1 (Balle & Wang 2018, Theorem 8)."""
    return norm.cdf(0.5 / sigma - epsilon * sigma) - math.exp(epsilon) * norm.cdf(-0.5 / sigma - epsilon * sigma)


@pytest.mark.parametrize("sigma", [0.8, 2.0, 5.0])
def test_the_pld_epsilon_of_a_gaussian_release_matches_the_analytic_formula(sigma):
    delta = 1e-5
    eps = account.pld_epsilon([("gauss", sigma)], [], delta)
    # the PLD is pessimistic: at its epsilon the exact delta is at most the target, and not far below (1e-4
    # discretisation of the loss and the 1.01 grid on sigma move epsilon by about 1 %)
    assert analytic_gaussian_delta(eps, sigma) <= delta
    assert analytic_gaussian_delta(eps * 0.98, sigma) > delta


def test_the_pld_never_reports_less_than_the_pure_sum_allows_and_composes_laplace_releases():
    b = [1.0, 2.0, 4.0]  # pure epsilon 1 + 1/2 + 1/4; each multiplier is rounded down by at most the 1.01 grid
    eps = account.pld_epsilon([("laplace", x) for x in b], [], 1e-12)
    assert 1.75 - 1e-3 <= eps <= 1.01 * 1.75 + 1e-3
    # many small releases: approximate DP is far below the pure sum (advanced composition's regime)
    many = [("laplace", 100.0)] * 400
    assert account.pld_epsilon(many, [], 1e-6) < 0.5 * 400 / 100.0


# --- what makes a book not a ledger of real releases ---------------------------------------------------------


def clean_rows():
    return [
        (LAPLACE, 0, 1, 2, 0.5, 2.0, 0, 0.3),
        (LAPLACE, 1, 1, 2, 0.5, 2.0, 1, -0.7),
        (LAPLACE, 0, 3, 4, 0.5, 2.0, 2, 1.9),
    ]


@pytest.mark.parametrize(
    "edit, message",
    [
        (lambda r: r, None),
        (lambda r: [*r[:2], (LAPLACE, 0, 3, 4, 0.5, 2.0, 1, 1.9)], "draw 1 feeds 2 releases"),
        (lambda r: [*r[:2], (LAPLACE, 0, 3, 4, 0.5, 4.0, 2, 0.6)], "share the standard noise value"),
        (lambda r: [*r[:2], (LAPLACE, 0, 3, 5, 0.5, 2.0, 2, 1.9)], "the arm holds 4"),
        (lambda r: [*r[:2], (LAPLACE, 0, 3, 4, 0.5, 0.0, 2, 1.9)], "is not a finite number > 0"),
        (lambda r: [*r, (LAPLACE, 1, 1, 1, 1.0, 3.0, 2, 5.0, 1.0)], "another scale or noise"),
    ],
    ids=["clean", "draw-reused", "noise-reused", "entry-not-held", "zero-scale", "part-mismatch"],
)
def test_problems_name_what_is_not_a_real_release(edit, message):
    found = account.problems(book_of(edit(clean_rows())), np.array([4, 2]))
    assert found == [] if message is None else any(message in p for p in found), found


def test_a_local_promise_needs_each_reward_noised_once_and_alone():
    one_each = [(LAPLACE, 0, 1, 1, 1.0, 1.0, 0, 0.2), (LAPLACE, 0, 2, 2, 1.0, 1.0, 1, -0.4)]
    assert account.problems(book_of(one_each), np.array([2]), local=True) == []
    wide = [(LAPLACE, 0, 1, 2, 1.0, 1.0, 0, 0.2)]
    assert "a local release reads rewards 1..2" in account.problems(book_of(wide), np.array([2]), local=True)[0]
    twice = [*one_each, (LAPLACE, 0, 2, 2, 1.0, 1.0, 2, 0.9)]
    assert account.problems(book_of(twice), np.array([2]), local=True) == [
        "1 rewards are read by more than one local release"
    ]
    assert account.problems(book_of(wide), np.array([2])) == []  # a central promise allows it


def test_a_window_keeps_the_rows_that_read_it_and_rows_that_read_no_entry():
    rows = [(LAPLACE, 0, 1, 2, 1.0, 1.0, 0, 0.1), (LAPLACE, 0, 3, 4, 1.0, 1.0, 1, 0.2)]
    rows.append((SVT_THRESHOLD, -1, 0, 0, 1.0, 6.0, 2, 0.5, 0.0, -1.0))
    kept = book_of(rows, lo=3, hi=3)
    assert kept[:, ledger.DRAW].tolist() == [1, 2]
    full = ledger.new_book(1)
    ledger.note(full, *rows[0])
    ledger.note(full, *rows[1])
    with pytest.raises(OverflowError, match="1 rows overflowed"):
        ledger.rows(full)


# --- spent() on a toy algorithm, correct and with each planted bug ------------------------------------------------

EPOCH = 5  # pulls per arm per epoch of the toy algorithm


def toy_releases(bug: str):
    """A toy private algorithm: K arms round robin in epochs of EPOCH pulls each; at each epoch's end, each arm's
    epoch mean + Lap(1 / (eps EPOCH)) (fresh data: eps per entry). ``bug``: "" (correct), "half" (scale halved),
    "twice" (each release made twice, fresh noise), "reuse" (one draw for every arm's release of an epoch)."""

    def releases(means, horizon, epsilon, params, rng, book):
        k = len(means)
        scale = (0.5 if bug == "half" else 1.0) / (epsilon * EPOCH)
        draw = 0
        for e in range(1, horizon // (k * EPOCH) + 1):
            first, last = (e - 1) * EPOCH + 1, e * EPOCH
            shared = rng.laplace(0.0, scale)
            for a in range(k):
                for _ in range(2 if bug == "twice" else 1):
                    noise = shared if bug == "reuse" else rng.laplace(0.0, scale)
                    ledger.note(book, LAPLACE, a, first, last, 1.0 / EPOCH, scale, draw, noise)
                    draw += bug != "reuse"
            draw += bug == "reuse"
        return np.full(k, horizon // (k * EPOCH) * EPOCH)

    return releases


def toy(monkeypatch, bug: str) -> str:
    name = f"toy_{bug or 'correct'}"
    alg = registry.Algorithm(
        name=name, kind="bai", label=name, private=True, run=lambda *a: None, releases=toy_releases(bug)
    )
    monkeypatch.setitem(registry.ALGORITHMS, name, alg)
    return name


@pytest.mark.parametrize(
    "bug, expected, problem",
    [("", 0.5, None), ("half", 1.0, None), ("twice", 1.0, None), ("reuse", 0.5, "draw 0 feeds 3 releases")],
)
def test_spent_exceeds_the_promise_under_each_planted_bug(monkeypatch, bug, expected, problem):
    s = privacy.spent(toy(monkeypatch, bug), epsilon=0.5, horizon=60, means=[0.5, 0.4, 0.3], runs=3)
    assert s.epsilon == pytest.approx(expected, rel=1e-12)  # per entry: (1 / EPOCH) / scale, times releases
    assert s.exceeds == (bug != "")
    assert (problem is None) == (s.problems == []) and (problem is None or problem in s.problems[0])
    assert ("EXCEEDS" in s.text()) == s.exceeds


def test_a_long_run_is_accounted_window_by_window_with_the_same_result(monkeypatch):
    name = toy(monkeypatch, "")
    whole = privacy.spent(name, epsilon=0.3, horizon=600, means=[0.5, 0.4], runs=2)
    monkeypatch.setattr(privacy, "CAPACITY", 7)  # 2 arms x 60 epochs: many windows of at most 7 rows
    windowed = privacy.spent(name, epsilon=0.3, horizon=600, means=[0.5, 0.4], runs=2)
    assert windowed.epsilon == whole.epsilon and windowed.releases > whole.releases


# --- every private algorithm of the registry --------------------------------------------------------------------


@pytest.mark.parametrize("name", REGRET_PRIVATE)
def test_recording_changes_nothing(name):
    alg = registry.ALGORITHMS[name]
    means, horizon, epsilon, params = privacy.contract_setting(name)
    resolved = alg.resolve(params)
    for seed in range(3):
        _, pulls = privacy.record(name, means, horizon, epsilon, resolved, seed)
        ran = alg.run(np.array(means), horizon, epsilon, np.array([horizon]), np.random.default_rng(seed), resolved)
        np.testing.assert_array_equal(pulls, ran[1], err_msg=f"{name}: the recorded run pulled other arms")


def test_the_command_line_reports_and_fails_on_an_excess(monkeypatch, capsys):
    from dpbandits.cli import main

    good, bad = toy(monkeypatch, ""), toy(monkeypatch, "half")
    assert main(["privacy", good, "--means", "0.5", "0.4", "--horizon", "40", "--epsilon", "0.5"]) == 0
    assert main(["privacy", bad, "--means", "0.5", "0.4", "--horizon", "40", "--epsilon", "0.5"]) == 1
    out = capsys.readouterr().out
    assert "spent eps=0.5 within the promised eps=0.5" in out and "spent eps=1 EXCEEDS" in out
    assert main(["privacy", "ucb"]) == 2


READINGS = [
    (name, key, value)
    for name in PRIVATE
    for key, value in [(None, None)]
    + [(k, v) for k, spec in registry.ALGORITHMS[name].params.items() if spec.is_axis for v in list(spec.readings)[1:]]
]


@pytest.mark.parametrize("name, key, value", READINGS, ids=[f"{n}-{k}={v}" if k else n for n, k, v in READINGS])
def test_each_reading_spends_at_most_its_promise_unless_documented(name, key, value):
    s = privacy.spent(name, params={key: value} if key else {}, runs=5)
    assert s.releases > 0, f"{name}: no release recorded at the contract's setting"
    assert s.problems == [], s.text()
    assert s.exceeds == ((name, key, value) in OVERSPEND), s.text()


# --- the pages that show what a reading spends -------------------------------------------------------------------


def test_the_claims_ledger_and_the_captions_name_what_spends_more_than_promised(tmp_path):
    import pandas as pd

    from dpbandits.claims.ledger import spent_privacy
    from dpbandits.drawing.figures import privacy_note
    from dpbandits.pipeline.catalogue.model import Curve, Figure, Panel

    rows = [
        ["default", "dp_se", "DP-SE", 1000, 0.5, 0.0, 0.5, 0.5, 1.0, ""],
        ["default", "dp_ucb_int", "DP-UCB-INT", 1000, 1.0, 4.5e-5, 1.9, 24.0, 1.9, "yes"],
        ["beta=0.1", "dp_se", "DP-SE", 1000, 0.5, 0.0, 0.5, 0.5, 1.0, ""],
    ]
    (tmp_path / "privacy").mkdir()
    pd.DataFrame(rows, columns=privacy.TABLE_COLUMNS).to_csv(tmp_path / "privacy" / "p.csv", index=False)
    spent = spent_privacy(tmp_path, "p")
    assert spent["default"] == ("DP-SE 0.5 at eps=0.5; DP-UCB-INT 1.9 at eps=1, delta=4.5e-05 (EXCEEDS)", "yes")
    assert spent["beta=0.1"] == ("DP-SE 0.5 at eps=0.5", "")
    assert spent_privacy(tmp_path, "absent") == {}
    table = pd.read_csv(tmp_path / "privacy" / "p.csv", keep_default_na=False)

    def figure(*algorithms):
        curves = [Curve(a, a, 1.0, "cid") for a in algorithms]
        return Figure("p", "fig", {"kind": "regret"}, 10, [Panel("", {}, curves)])

    assert privacy_note(figure("dp_se", "ucb"), table) == ""
    assert privacy_note(figure("dp_ucb_int"), table) == (
        "Spends more privacy than promised (worst reward, T=1000): DP-UCB-INT 1.9 at eps=1."
    )


def test_gaussian_releases_compose_exactly():
    """Gaussian releases of multipliers 9/4, 9/sqrt(13) and 9/sqrt(7) are one Gaussian of multiplier
    (16/81 + 13/81 + 7/81)^-1/2 = (4/9)^-1/2 = 1.5;
    its epsilon at delta solves delta = Phi(-eps s + 1/(2 s)) - e^eps Phi(-eps s - 1/(2 s)) with s = 1.5."""
    import math

    from scipy import optimize

    from dpbandits.privacy import account

    delta, s = 1e-5, 1.5

    def phi(x):
        return 0.5 * math.erfc(-x / math.sqrt(2))

    exact = optimize.brentq(lambda e: phi(-e * s + 0.5 / s) - math.exp(e) * phi(-e * s - 0.5 / s) - delta, 1e-6, 50)
    got = account.pld_epsilon([("gauss", 2.25), ("gauss", 9 / math.sqrt(13)), ("gauss", 9 / math.sqrt(7))], [], delta)
    assert got == pytest.approx(exact, rel=1e-3)
    assert got >= exact * (1 - 1e-6)  # the PLD's discretisation errs upwards, never below the true epsilon
