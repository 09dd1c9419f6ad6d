"""The hu2022 diagnosis (claim 1, AdaP-KLUCB's KL level) driven to both outcomes on synthetic figure tables."""

import numpy as np
import pandas as pd
import pytest

from dpbandits.core.instances import means_for
from dpbandits.diagnoses import PUBLISHED, UNEXPLAINED, Context, hu2022

HORIZON, RUNS, EPS = 20_000, 8, 0.5


def twin_means(root, seed=0):
    """{figure: (AdaP-KLUCB as published, at the lowered level)} of the collapsed twin, as the analysis runs it."""
    ctx = Context(root, "hu2022", seed=seed, scale={"max_runs": RUNS})
    out, stream = {}, 0
    for fig, inst in hu2022.FIGURES.items():
        m = means_for({"name": inst})
        same = hu2022._twin_final(ctx, hu2022.kl_level_twin(None), m, HORIZON, EPS, stream)
        low = hu2022._twin_final(ctx, hu2022.kl_level_twin(hu2022.LEVEL), m, HORIZON, EPS, stream + 1)
        out[fig] = (same, low)
        stream += 2
    return out


def write_tables(root, finals):
    """Figure tables with one ε panel each: {figure: {algorithm: (final mean, s.e.)}}."""
    base = root / "figures" / "hu2022"
    base.mkdir(parents=True)
    for fig, algs in finals.items():
        rows, runs = [], []
        for alg, (mean, se) in algs.items():
            for t in (HORIZON // 2, HORIZON):
                rows.append(
                    dict(
                        figure=fig,
                        epsilon=EPS,
                        algorithm=alg,
                        variant="",
                        t=t,
                        mean=mean * t / HORIZON,
                        sem=se,
                        runs=20,
                    )
                )
            runs += [dict(figure=fig, algorithm=alg, variant="", pulls="9000 500 300 200 100")] * 2
        pd.DataFrame(rows).to_csv(base / f"{fig}.csv", index=False)
        pd.DataFrame(runs).to_csv(base / f"{fig}_runs.csv", index=False)
    (root / "claims").mkdir()
    ledger = [dict(claim_id="1", reading="default", verdict="fails", numbers="fig1 ε=0.5=0.5")]
    ledger.append(dict(claim_id="1", reading="alpha=4", verdict="fails", numbers="fig1 ε=0.5=0.4; fig2 ε=0.5=0.3"))
    pd.DataFrame(ledger).to_csv(root / "claims" / "hu2022.csv", index=False)
    return Context(root, "hu2022", seed=0, scale={"max_runs": RUNS}, figure_dir=root / "fig")


@pytest.fixture(scope="module")
def twins(tmp_path_factory):
    return twin_means(tmp_path_factory.mktemp("twins"))


def test_confirmed_when_the_lower_level_closes_the_gap(tmp_path, twins):
    # the figure's AdaP-KLUCB is what the published twin gives; Lazy-DP-TS matches the lowered level
    finals = {
        fig: {"adap_klucb": (same[0], same[1]), "lazy_dp_ts": (low[0], 0.01 * low[0])}
        for fig, (same, low) in twins.items()
    }
    f = hu2022.klucb_level(write_tables(tmp_path, finals))
    assert f.confirmed, f.result
    assert f.conclusion == PUBLISHED
    assert "other readings (the ledger): alpha=4 0.30 .. 0.40" in f.result
    assert (tmp_path / "fig" / f.figure).exists()


def test_not_confirmed_when_the_ratio_lies_above_one(tmp_path, twins):
    # Lazy-DP-TS worse than AdaP-KLUCB: lowering AdaP-KLUCB's level moves the ratio away from 1
    finals = {
        fig: {"adap_klucb": (same[0], same[1]), "lazy_dp_ts": (2 * same[0], 0.01 * same[0])}
        for fig, (same, low) in twins.items()
    }
    f = hu2022.klucb_level(write_tables(tmp_path, finals))
    assert not f.confirmed, f.result
    assert f.conclusion == UNEXPLAINED


def test_not_confirmed_when_the_twin_does_not_reproduce_the_figure(tmp_path, twins):
    finals = {
        fig: {"adap_klucb": (3 * same[0], same[1]), "lazy_dp_ts": (low[0], 0.01 * low[0])}
        for fig, (same, low) in twins.items()
    }
    assert not hu2022.klucb_level(write_tables(tmp_path, finals)).confirmed


def test_collapsed_twin_matches_the_kernel_in_mean():
    # the episode-stepped twin and the fast kernel sample the same final regret (Welch test, 4 s.e.)
    import dpbandits

    m = np.array(means_for({"name": "hu_setting1"}))
    r = dpbandits.simulate("adap_klucb", means=m, horizon=HORIZON, epsilon=EPS, runs=200, seed=3).regret[:, -1]
    seeds = np.random.SeedSequence(7).spawn(200)
    c = np.array(
        [hu2022.collapsed_regret(hu2022.kl_level_twin(None), m, HORIZON, EPS, np.random.default_rng(s)) for s in seeds]
    )
    se = np.hypot(r.std(ddof=1), c.std(ddof=1)) / np.sqrt(200)
    assert abs(r.mean() - c.mean()) < 4 * se, (r.mean(), c.mean(), se)
