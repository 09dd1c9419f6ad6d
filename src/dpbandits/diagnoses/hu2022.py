"""Diagnoses of the failing claims of hu2022 (docs/findings.md).

Claim 1 ("Lazy-DP-TS similar to AdaP-KLUCB", Section 6) fails under every reading with Lazy-DP-TS's regret about
half of AdaP-KLUCB's. The suspect is AdaP-KLUCB's exploration level alpha ln t / n, alpha > 3 (Azize & Basu 2022,
Algorithm 1), about three times the level ln t / n of the KL-UCB whose leading log T coefficient Section 6 equates
with Thompson sampling's. The experiment lowers that level to ln t / n, keeping the privacy shift alpha ln t /
(eps n), the noise and the episodes, by running AdaP-KLUCB's reference twin one episode at a time.
"""

from __future__ import annotations

import math

import numpy as np

from ..claims._core import at, ratio, text_variants
from ..core import registry
from ..core.instances import means_for
from ..mechanisms.klucb import klucb_upper
from ..reference._policy import argmax_ties
from ._core import PUBLISHED, TEXT_OPEN, Context, Diagnosis, Finding, Quote, decide

PAPER = "hu2022"
FIGURES = {"fig1": "hu_setting1", "fig2": "hu_setting2"}  # Section 6's two settings
RUNS = 20  # Section 6: "the average of 20 independent runs"
SIMILAR = (0.8, 1.25)  # claim 1's equivalence margin (dpbandits.claims.hu2022)
LEVEL = 1.0  # the ablation's KL exploration level: ln t / n, Garivier & Cappé's KL-UCB (no log log term)
REPRODUCE_SE = 3.0  # the collapsed twin must match the figure's AdaP-KLUCB within this many s.e.
SHIFT_SE = 2.0  # the ablation's move toward 1 must exceed this many s.e.
CLOSED = 0.5  # ... and close at least this share of the log-distance of the ratio from 1


def kl_level_twin(level: float | None):
    """AdaP-KLUCB's reference twin with KL exploration level ``level`` ln t / n (None: the published alpha);
    the privacy shift alpha ln t / (eps n) is kept."""
    base = registry.get("adap_klucb").reference_class()
    if level is None:
        return base

    class Twin(base):
        def index(self, t):
            lt = math.log(t)
            return [
                klucb_upper(
                    min(max(self.mu[a] + self.alpha * lt / (self.eps * self.n[a]), 0.0), 1.0),
                    level * lt / self.n[a],
                    self.tol,
                )
                for a in range(self.k)
            ]

    return Twin


def collapsed_regret(twin, means: np.ndarray, horizon: int, epsilon: float, rng: np.random.Generator) -> float:
    """Final pseudo-regret of one run of an AdaP twin, stepped one episode at a time.

    An episode commits arm a to N_a pulls in advance (Azize & Basu, Algorithm 1), so its Bernoulli reward sum is
    one Binomial(N_a, mu_a) draw, the law of the twin's per-pull rewards; the index and the release are the twin's.
    """
    k, gap = means.size, means.max() - means
    policy = twin(k, horizon, epsilon, rng, registry.get("adap_klucb").resolve({}))
    for a in range(k):  # rounds 1..K: one pull each, released with n = 1
        policy.N[a] = 1
        policy.release(a, 1, float(rng.binomial(1, means[a])))
    t, regret = k, float(gap.sum())
    while t < horizon:
        a = argmax_ties(policy.index(t + 1), rng, policy.random_ties)
        n = min(policy.N[a], horizon - t)
        s = float(rng.binomial(n, means[a]))
        policy.N[a] += n
        t, regret = t + n, regret + gap[a] * n
        if 2 * n == policy.N[a]:  # a complete episode: release its mean
            policy.release(a, n, s)
    return regret


def _final(curve) -> tuple[float, float, float]:
    return float(curve["mean"].iloc[-1]), float(curve["sem"].iloc[-1]), float(curve["runs"].iloc[-1] - 1)


def _twin_final(ctx: Context, twin, means, horizon, epsilon, stream: int) -> tuple[float, float, float]:
    """(mean, s.e., runs - 1) of the collapsed twin's final regret over ``ctx.cap_runs(RUNS)`` seeded runs."""
    runs = ctx.cap_runs(RUNS)
    seeds = np.random.SeedSequence(ctx.seed, spawn_key=(2022, stream)).spawn(runs)
    r = np.array([collapsed_regret(twin, means, horizon, epsilon, np.random.default_rng(s)) for s in seeds])
    return float(r.mean()), float(r.std(ddof=1) / math.sqrt(runs)) if runs > 1 else math.inf, float(runs - 1)


def panels(ctx: Context) -> list[dict]:
    """Per (figure, epsilon): Lazy-DP-TS / AdaP-KLUCB from the figure, the collapsed twin at the published level
    and at ``LEVEL``, with the criterion's pieces (``reproduced``, ``shift_se`` toward 1, ``closed`` share)."""
    out, stream = [], 0
    for fig, instance in FIGURES.items():
        curves = text_variants(ctx.curves(fig))
        means = means_for({"name": instance})
        for eps in sorted(curves["epsilon"].unique()):
            c = curves[curves["epsilon"] == eps]
            ts, kl = _final(at(c, fig, "lazy_dp_ts")), _final(at(c, fig, "adap_klucb"))
            horizon = int(at(c, fig, "adap_klucb").index.max())
            same = _twin_final(ctx, kl_level_twin(None), means, horizon, float(eps), stream)
            low = _twin_final(ctx, kl_level_twin(LEVEL), means, horizon, float(eps), stream + 1)
            stream += 2
            r_fig, r_low = ratio(*ts[:2], *kl[:2])[0], ratio(*ts[:2], *low[:2])[0]
            toward = -math.copysign(1.0, math.log(r_fig))  # +1 if the ratio lies below 1
            se = math.hypot(kl[1] / kl[0], low[1] / low[0])  # s.e. of log(kl / low), delta method
            shift = toward * math.log(kl[0] / low[0]) / se if se > 0 else 0.0
            closed = 1.0 - abs(math.log(r_low)) / abs(math.log(r_fig)) if r_fig != 1 else 0.0
            out.append(
                {
                    "panel": f"{fig} ε={eps:g}",
                    "ratio": r_fig,
                    "ratio_low": r_low,
                    "reproduced": abs(same[0] - kl[0]) <= REPRODUCE_SE * math.hypot(same[1], kl[1]),
                    "adap": kl,
                    "twin": same,
                    "low": low,
                    "shift_se": shift,
                    "closed": closed,
                }
            )
    return out


def suboptimal_pulls(ctx: Context, algorithm: str) -> float:
    """Mean pulls of the suboptimal arms per run of ``algorithm``, over both figures' panels."""
    total = []
    for fig, instance in FIGURES.items():
        runs = ctx.runs(fig)
        runs = runs[(runs["algorithm"] == algorithm) & (runs["variant"].fillna("") == "")]
        best = int(np.argmax(means_for({"name": instance})))
        total += [p.sum() - p[best] for p in runs["pulls"]]
    return float(np.mean(total))


def reading_ranges(ctx: Context) -> dict[str, tuple[float, float]]:
    """{reading: (smallest, largest) ratio Lazy-DP-TS / AdaP-KLUCB over the panels} of claim 1's other readings."""
    out = {}
    for reading in ctx.ledger.loc[(ctx.ledger["claim_id"] == "1") & (ctx.ledger["reading"] != "default"), "reading"]:
        values = [float(v) for v in ctx.numbers("1", reading).values()]
        if values:
            out[reading] = (min(values), max(values))
    return out


def _draw(ctx: Context, rows: list[dict]) -> str:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from ..drawing.style import PALETTE

    fig, ax = plt.subplots(figsize=(6.4, 3.2))
    x = np.arange(len(rows))
    ax.axhspan(*SIMILAR, color="0.9", label="claim 1's 'similar' band")
    ax.plot(x, [r["ratio"] for r in rows], "o", color=PALETTE[0], label="AdaP-KLUCB as run (α ln t / n)")
    ax.plot(x, [r["ratio_low"] for r in rows], "s", color=PALETTE[1], label="KL level ln t / n (ablation)")
    ax.axhline(1.0, color="0.5", lw=0.8)
    ax.set_xticks(x, [r["panel"] for r in rows], rotation=20, fontsize=8)
    ax.set_ylabel("Lazy-DP-TS / AdaP-KLUCB, R(T)")
    ax.legend(fontsize=7, loc="lower right")
    return ctx.save(fig, "hu2022_klucb_level.png")


def klucb_level(ctx: Context) -> Finding:
    rows = panels(ctx)
    alpha = registry.get("adap_klucb").resolve({})["alpha"]
    confirmed = all(r["reproduced"] and r["shift_se"] > SHIFT_SE and r["closed"] >= CLOSED for r in rows)
    lo, hi = min(r["ratio"] for r in rows), max(r["ratio"] for r in rows)
    lo2, hi2 = min(r["ratio_low"] for r in rows), max(r["ratio_low"] for r in rows)
    inside = sum(SIMILAR[0] <= r["ratio_low"] <= SIMILAR[1] for r in rows)
    horizon, runs = ctx.cap_horizon(1_000_000), ctx.cap_runs(RUNS)
    pulls = suboptimal_pulls(ctx, "adap_klucb") / suboptimal_pulls(ctx, "lazy_dp_ts")
    ranges = reading_ranges(ctx)
    readings = "; ".join(f"{r} {a:.2f} .. {b:.2f}" for r, (a, b) in ranges.items()) or "none"
    # under another reading the mechanism shows if Lazy-DP-TS stays below the 'similar' band in every panel
    shown = {"default": confirmed} | {r: confirmed and b < SIMILAR[0] for r, (_, b) in ranges.items()}
    conclusion, rule = decide(shown, ctx.reading_support())
    similar_in = [r for r, v in shown.items() if not v]
    per_panel = "; ".join(
        f"{r['panel']}: {r['ratio']:.2f} → {r['ratio_low']:.2f} (AdaP-KLUCB {r['adap'][0]:.0f} ± {r['adap'][1]:.0f}, "
        f"twin {r['twin'][0]:.0f} ± {r['twin'][1]:.0f}, ablated {r['low'][0]:.0f} ± {r['low'][1]:.0f})"
        for r in rows
    )
    numbers = {f"{r['panel']} ratio": f"{r['ratio']:.3f}" for r in rows}
    numbers |= {f"{r['panel']} ratio at ln t / n": f"{r['ratio_low']:.3f}" for r in rows}
    numbers |= {f"{r['panel']} closed share": f"{r['closed']:.2f}" for r in rows}
    return Finding(
        mechanism=(
            f"AdaP-KLUCB explores at the level α ln t / n with α = {alpha:g} (Azize & Basu 2022, Algorithm 1, need "
            "α > 3), about three times the level ln t / n of the KL-UCB (Garivier & Cappé 2011) whose leading "
            "log T coefficient Section 6 equates with Thompson sampling's: every suboptimal arm is pulled longer "
            "before its index falls below the best arm's."
        ),
        experiment=(
            f"AdaP-KLUCB's reference twin, stepped one committed episode at a time (an episode's rewards are one "
            f"Binomial draw), {runs} runs per panel at T = {horizon:,}: (i) as published, to check it reproduces "
            "the figure's AdaP-KLUCB; (ii) with the KL level lowered to ln t / n, the shift α ln t / (ε n), the "
            "noise and the episodes unchanged. Lazy-DP-TS from the figures. Shown if in every panel (i) matches "
            f"within {REPRODUCE_SE:g} s.e. and (ii) moves the ratio toward 1 by more than {SHIFT_SE:g} s.e., "
            f"closing at least {CLOSED:.0%} of its log-distance from 1; under another reading, if besides "
            f"Lazy-DP-TS stays below {SIMILAR[0]:g} times AdaP-KLUCB in every panel (the ledger's ratios)."
        ),
        result=(
            f"Ratio Lazy-DP-TS / AdaP-KLUCB {lo:.2f} .. {hi:.2f} as run, {lo2:.2f} .. {hi2:.2f} at the level "
            f"ln t / n ({inside} of {len(rows)} panels inside [{SIMILAR[0]:g}, {SIMILAR[1]:g}]); suboptimal pulls "
            f"AdaP-KLUCB / Lazy-DP-TS {pulls:.2f} (figures, all panels). {per_panel}. The ratio under the other "
            f"readings (the ledger): {readings}."
        ),
        confirmed=confirmed,
        conclusion=conclusion,
        summary={
            PUBLISHED: "AdaP-KLUCB as published (α > 3) explores about three times more than the KL-UCB of Section "
            "6's argument, so Lazy-DP-TS's regret is about half of it under every reading the text supports: "
            "'similar' fails, in Lazy-DP-TS's favour",
            TEXT_OPEN: "AdaP-KLUCB's α > 3 explains the gap, but under "
            + ", ".join(similar_in)
            + " the two come within the 'similar' band: which reading the authors ran decides claim 1",
        }.get(
            conclusion,
            "the KL exploration level does not explain the gap (see the criterion): Azize & Basu's own figures or "
            "code at α = 3.1 would settle what does",
        ),
        quotes=(
            Quote(
                "Not surprisingly, the empirical performance of Lazy-DP-TS is similar to AdaP-KLUCB due to the "
                "facts that:",
                "Section 6",
            ),
            Quote(
                "have the same coefficient for the leading log(T) term in the instance-dependent regret bound;",
                "Section 6, reason 1 (Beta-prior Thompson sampling and KL-UCB)",
            ),
        ),
        numbers=numbers,
        figure=_draw(ctx, rows),
        rule=rule,
    )


DIAGNOSES: list[Diagnosis] = [
    Diagnosis(
        PAPER,
        "klucb-level",
        ("1",),
        "Lazy-DP-TS is not similar to AdaP-KLUCB: AdaP-KLUCB's α > 3 triples KL-UCB's exploration",
        klucb_level,
        readings=True,
    )
]
