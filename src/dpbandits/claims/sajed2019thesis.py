"""Claims of Sajed's MSc thesis 2019 (spec sajed2019-dpse.md §4.1 C-3, A25; C-1/C-2 restated in Ch. 6)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from ._core import FAILS, HOLDS, INCONCLUSIVE, Claim, flat_from, load_tables, text_variants
from .sajed2019 import c1_claims, c2_claims, instance_spec, settings

CH6_FIGS = tuple(f"fig6_{i}" for i in range(1, 9))
APPENDIX_FIGS = tuple(f"figA_{i}" for i in range(1, 9))
LABELS = {"dp_se": "DP-SE", "dp_se2": "DP-SE 2", "dp_se2_modified": "modified DP-SE 2", "dp_ucb": "DP-UCB"}
NOT_LONG_AFTER, MUCH_FASTER = 2.0, 2.0


def duel_table(curves: pd.DataFrame) -> pd.DataFrame:
    """Final mean regret ± s.e. of every algorithm per (instance, K, ε), one row per setting."""
    rows = []
    for key, algs in settings(curves).items():
        spec = instance_spec(key[0])
        row = {"instance": spec["name"], "K": spec.get("k"), "epsilon": key[1]}
        for alg, c in algs.items():
            row[alg], row[f"{alg} s.e."] = c["mean"].iloc[-1], c["sem"].iloc[-1]
            row[f"{alg} flat from"] = flat_from(c)
        row["horizon"] = max(c.index.max() for c in algs.values())
        rows.append(row)
    return pd.DataFrame(rows)


def duels(results: str | Path) -> pd.DataFrame:
    """:func:`duel_table` of the appendix figures (all four algorithms) read from ``results``."""
    return duel_table(text_variants(load_tables(results, "sajed2019thesis", APPENDIX_FIGS)[0]))


def _wins(tab: pd.DataFrame, a: str, b: str) -> np.ndarray:
    """+1 where ``a`` has lower final regret than ``b`` beyond 2 s.e., -1 where higher, 0 otherwise."""
    d = tab[a] - tab[b]
    se = np.hypot(tab[f"{a} s.e."], tab[f"{b} s.e."])
    return np.where(d < -2 * se, 1, np.where(d > 2 * se, -1, 0))


def _everywhere(w: np.ndarray) -> str:
    if w.size == 0:
        return INCONCLUSIVE
    return FAILS if np.any(w < 0) else (HOLDS if np.all(w > 0) else INCONCLUSIVE)


def _where(tab: pd.DataFrame, mask) -> str:
    rows = tab[mask]
    names = [f"{r.instance} K={r.K} ε={r.epsilon:g}" for r in rows.itertuples()]
    return ", ".join(names[:6]) + (" ..." if len(names) > 6 else "") if names else "none"


def _count(w, a: str = "wins", b: str = "losses") -> dict:
    return {"settings": int(w.size), a: int(np.sum(w > 0)), "ties": int(np.sum(w == 0)), b: int(np.sum(w < 0))}


def _duel(tab, a, b, mask, claim_id, statement, scope) -> Claim:
    sub = tab[mask].reset_index(drop=True)
    w = _wins(sub, a, b)
    return Claim(
        "sajed2019thesis", claim_id, statement,
        f"{LABELS[a]}'s mean regret at T below {LABELS[b]}'s beyond 2 s.e. in every {scope}; 'fails' if "
        f"{LABELS[b]} is lower beyond 2 s.e. anywhere",
        _everywhere(w), f"{LABELS[a]} wins / ties / loses; losses at: {_where(sub, w < 0)}", _count(w),
    )


def _flat_ratio(tab: pd.DataFrame, mask) -> tuple[np.ndarray, np.ndarray]:
    """(standard / modified time to flat, standard flattened?) per setting; T stands in for 'never'."""
    sub = tab[mask]
    std = sub["dp_se2 flat from"].fillna(sub["horizon"]).to_numpy(dtype=float)
    mod = sub["dp_se2_modified flat from"].to_numpy(dtype=float)
    return std / mod, sub["dp_se2 flat from"].notna().to_numpy()


def c3_claims(tab: pd.DataFrame) -> list[Claim]:
    inst, eps, k = tab["instance"], tab["epsilon"], tab["K"]
    out = [
        _duel(tab, "dp_se", "dp_se2", inst.notna(), "C-3 (DP-SE vs DP-SE 2)",
              "\"In all cases DP-SE outperforms DP-SE 2\" (Th:903).", "setting"),
        _duel(tab, "dp_se2_modified", "dp_ucb", inst.notna(), "C-3 (modified vs DP-UCB)",
              "\"In all settings the modified DP-SE 2 outperforms DP-UCB\" (Th:897).", "setting"),
        _duel(tab, "dp_se2", "dp_ucb", inst.isin(["C2", "C3"]), "C-3 (C2, C3: DP-SE 2 vs DP-UCB)",
              "\"Especially note the consistency throughout all experiments in setting C2 and C3 — our naive DP-SE 2 "
              "outperforms the DP-UCB baseline\" (Th:897).", "C2 and C3 setting"),
    ]
    w = _wins(tab, "dp_se", "dp_se2_modified")
    out.append(Claim(
        "sajed2019thesis", "C-3 (DP-SE vs modified, most)",
        "DP-SE \"most of the times ... shows improvements over modified DP-SE 2\" (Th:903).",
        "DP-SE's mean regret at T below modified DP-SE 2's beyond 2 s.e. in more than half of the settings; "
        "'fails' if modified DP-SE 2 is lower beyond 2 s.e. in at least half",
        HOLDS if np.sum(w > 0) > w.size / 2 else (FAILS if np.sum(w < 0) >= w.size / 2 else INCONCLUSIVE),
        f"DP-SE wins / ties / loses; losses at: {_where(tab, w < 0)}", _count(w),
    ))
    c1 = inst == "C1"
    easy = c1 & ((eps <= 0.25) | (k >= 20))
    hard = c1 & (eps >= 0.5) & (k < 20)
    w_easy, w_hard = _wins(tab[easy], "dp_se2", "dp_ucb"), _wins(tab[hard], "dp_se2", "dp_ucb")
    ok = np.all(w_easy > 0) and np.any(w_hard < 0)
    out.append(Claim(
        "sajed2019thesis", "C-3 (C1 split)",
        "In C1 \"DP-SE 2 outperforms the DP-UCB baseline when either ε is small (<= 0.25 in our experiments) or for "
        "large values of K ... DP-UCB is better than DP-SE 2 when ε is fairly large, the number of arms is moderate, "
        "and all arms have identical and fairly small gaps\" (Th:897).",
        "C1: DP-SE 2 below DP-UCB at T beyond 2 s.e. in every setting with ε <= 0.25 or K = 20, and DP-UCB below "
        "DP-SE 2 beyond 2 s.e. in at least one setting with ε >= 0.5 and K < 20",
        HOLDS if ok else (FAILS if np.any(w_easy < 0) or (w_hard.size and np.all(w_hard > 0)) else INCONCLUSIVE),
        f"DP-UCB wins at: {_where(tab[hard], w_hard < 0)}; DP-SE 2 loses in the 'easy' cases at: "
        f"{_where(tab[easy], w_easy < 0)}",
        {"easy (ε<=0.25 or K=20)": "{wins}/{ties}/{losses}".format(**_count(w_easy)),
         "hard (ε>=0.5, K<20) DP-UCB wins": int(np.sum(w_hard < 0)), "hard settings": int(w_hard.size)},
    ))
    c4 = (inst == "C4") & (eps >= 0.5)
    w4 = _wins(tab[c4], "dp_se2", "dp_ucb")
    out.append(Claim(
        "sajed2019thesis", "C-3 (C4, large ε)",
        "\"The setting C4 further adds mounting evidence that naive DP-SE 2 can be outperformed by DP-UCB for small "
        "suboptimality gaps and large values of ε\" (Th:897).",
        "DP-UCB below DP-SE 2 at T beyond 2 s.e. in at least one C4 setting with ε >= 0.5; 'fails' if DP-SE 2 "
        "wins beyond 2 s.e. in all of them",
        HOLDS if np.any(w4 < 0) else (FAILS if w4.size and np.all(w4 > 0) else INCONCLUSIVE),
        f"DP-UCB wins at: {_where(tab[c4], w4 < 0)}", _count(w4, "DP-SE 2 wins", "DP-UCB wins"),
    ))
    c2 = inst == "C2"
    r2, done2 = _flat_ratio(tab, c2)
    known = ~np.isnan(r2)
    out.append(Claim(
        "sajed2019thesis", "C-3 (C2, not long after)",
        "\"In Figure A.2 [C2] ... standard DP-SE 2 eliminates all suboptimal arms not long after the modified DP-SE 2 "
        "eliminates all suboptimal arms\" (Th:899).",
        f"C2: time at which standard DP-SE 2's mean curve turns flat (all runs done) <= {NOT_LONG_AFTER:g} x "
        "modified's in every setting; 'fails' if it is later than that anywhere (T stands for 'never', a lower "
        "bound); inconclusive where a curve never turns flat and the bound decides nothing",
        FAILS if np.any(r2[known] > NOT_LONG_AFTER) else (HOLDS if r2.size and (known & done2).all() else INCONCLUSIVE),
        f"standard / modified time to flat: max {np.nanmax(r2) if known.any() else np.nan:.3g}; standard "
        f"flattened in {int(done2.sum())} of {done2.size} settings",
        {"median ratio": float(np.nanmedian(r2)) if known.any() else np.nan,
         "settings with modified flat": int(known.sum()), "settings": int(r2.size)},
    ))
    r1, done1 = _flat_ratio(tab, inst == "C1")
    known = ~np.isnan(r1)
    out.append(Claim(
        "sajed2019thesis", "C-3 (C1, modified faster; A25)",
        "In C1 the modified DP-SE 2 \"happens to eliminate all suboptimal arms in (roughly) 1/5 of the time it takes "
        "the standard DP-SE 2 algorithm\" (Th:901).",
        f"C1: standard DP-SE 2's time to flat >= {MUCH_FASTER:g} x modified's in every setting where modified "
        "turns flat (T stands for 'never', giving a lower bound); 'fails' if some ratio of two finished curves is "
        "below that; 1/5 is loose (A25: 1/16-1/32 expected)",
        FAILS if np.any(r1[known & done1] < MUCH_FASTER) else (
            HOLDS if r1.size and known.all() and np.all(r1 >= MUCH_FASTER) else INCONCLUSIVE),
        f"standard / modified time to flat: min {np.nanmin(r1) if known.any() else np.nan:.3g}, median "
        f"{np.nanmedian(r1) if known.any() else np.nan:.3g} (lower bounds where standard never turns flat: "
        f"{int(np.sum(known & ~done1))})",
        {"settings with modified flat": int(known.sum()), "settings": int(r1.size)},
    ))
    return out


def sajed2019thesis(results: str | Path) -> list[Claim]:
    ch6 = text_variants(load_tables(results, "sajed2019thesis", CH6_FIGS)[0])
    return c1_claims(ch6, "sajed2019thesis") + c2_claims(ch6, "sajed2019thesis") + c3_claims(duels(results))
