"""Cross-paper diagnosis (dpbandits.diagnoses.crosspaper): DP-UCB-INT above Theorem 3.5, driven to both outcomes on
synthetic tables."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from _tables import Tables, context, pulls, write_claims

from dpbandits.diagnoses import PUBLISHED, TEXT_OPEN, crosspaper
from dpbandits.diagnoses._core import UNEXPLAINED
from dpbandits.diagnoses._starving import NO_NOISE, means_of

T = 1_000_000
EPSILONS = (0.1, 1.0)


def label(fig):
    return f"{fig}, K=5" if fig.startswith("C") else fig


def build(results, starved=(16, 32), kept=300.0):
    """Every cross-paper figure: DP-UCB-INT at two epsilons, 30 runs near 300; on tossou_2arm at epsilon 1 the runs
    ``starved`` starve the best arm and the others are near ``kept``."""
    rng = np.random.default_rng(0)
    tables = Tables(crosspaper.PAPER)
    for fig in crosspaper.FIGURES:
        means = means_of(label(fig))
        k, best = means.size, int(np.argmax(means))
        for eps in EPSILONS:
            offending = fig == "tossou_2arm" and eps == 1.0
            finals = (kept if offending else 300.0) + 10 * rng.standard_normal(30)
            best_pulls = np.full(30, T - 2000)
            if offending:
                finals[: len(starved)] = 0.3 * (T - np.asarray(starved))
                best_pulls[: len(starved)] = starved
            tables.add(
                fig,
                "dp_ucb_int",
                eps,
                [T],
                [finals.mean()],
                instance=label(fig),
                curve="DP-UCB-INT",
                sem=1.0,
                bound=400.0,
                runs=30,
                finals=finals,
                pulls=pulls(best_pulls, k, best, T),
            )
    tables.write(results)


def fake_ablation(rate_noise, readings=None):
    """An ``ablation`` stand-in: ``rate_noise`` of the runs starve with the noise (``readings``: {reading: rate}
    overrides it), none without."""

    def run(means, epsilon, horizon, runs, factors, seed, tag, update="frozen"):
        rates = {NO_NOISE: 0.0, 1.0: (readings or {}).get(update, rate_noise)}
        return {
            c: pd.DataFrame(
                {
                    "final_regret": [0.0] * runs,
                    "best_pulls": [0] * round(rates[c] * runs) + [T] * (runs - round(rates[c] * runs)),
                }
            ).assign(starving=lambda d: d["best_pulls"] < horizon / 2)
            for c in factors
        }

    return run


@pytest.fixture
def results(tmp_path):
    write_claims(tmp_path, "crosspaper", [{"claim_id": "theory", "reading": "default", "verdict": "fails"}])
    return tmp_path


def test_starving_confirmed_when_starving_runs_carry_the_excess(results, tmp_path, monkeypatch):
    build(results, starved=(16, 32, 48, 64, 80, 96))
    monkeypatch.setattr(crosspaper, "ablation", fake_ablation(0.05))
    f = crosspaper.starving(context(results, "crosspaper", tmp_path))
    assert f.confirmed, f.result
    assert f.conclusion == PUBLISHED
    assert f.numbers["curves above the bound"] == 1


def test_starving_not_confirmed_when_the_excess_stays_without_them(results, tmp_path, monkeypatch):
    build(results, starved=(16, 32, 48, 64, 80, 96), kept=600.0)
    monkeypatch.setattr(crosspaper, "ablation", fake_ablation(0.05))
    f = crosspaper.starving(context(results, "crosspaper", tmp_path))
    assert not f.confirmed
    assert f.conclusion == TEXT_OPEN  # the other readings' ablations still starve
    assert f.numbers["starving shown under"] == "literal, live_bonus, scheduled"


def test_starving_text_open_when_the_box_read_literally_does_not_starve(results, tmp_path, monkeypatch):
    build(results, starved=(16, 32, 48, 64, 80, 96))
    monkeypatch.setattr(crosspaper, "ablation", fake_ablation(0.05, {"literal": 0.0}))
    f = crosspaper.starving(context(results, "crosspaper", tmp_path))
    assert f.confirmed
    assert f.conclusion == TEXT_OPEN
    assert f.numbers["starving shown under"] == "frozen, live_bonus, scheduled"


def test_starving_not_confirmed_when_the_noise_does_not_starve(results, tmp_path, monkeypatch):
    build(results, starved=(16, 32, 48, 64, 80, 96))
    monkeypatch.setattr(crosspaper, "ablation", fake_ablation(0.0))
    f = crosspaper.starving(context(results, "crosspaper", tmp_path))
    assert not f.confirmed
    assert f.conclusion == UNEXPLAINED
    assert f.numbers["starving shown under"] == "none"
