"""Statistical privacy audit: Monte-Carlo privacy loss of the released actions on neighbouring tables.

The ``dpbandits audit`` command (:func:`main`): :func:`dpbandits.audit.run.audit_all`, written to
``audit.csv`` and ``audit.md`` (:mod:`dpbandits.audit.report`); with ``--power-table`` also
:func:`dpbandits.audit.power.power_table`, written to ``power.csv`` and ``power.md``. ``--check`` also
compares the run with the committed baseline (:mod:`dpbandits.audit.baseline`) when it ran at the baseline's
settings (trials, seed, alpha, epsilon, ladder; otherwise it says so and checks the flags only);
``--write-baseline`` rewrites it.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import pandas as pd

from .baseline import BASELINE, drift, load_baseline, write_baseline
from .loss import DEFAULT_ALPHA, DEFAULT_TRIALS
from .power import LADDER, power_markdown, power_table
from .report import to_markdown
from .run import CONTROL_NOISE_FACTOR, POWER_FACTORS, audit_all, failed_checks


def main(argv=None, prog: str = "dpbandits audit") -> int:
    """CLI: ``dpbandits audit --out DIR [--trials N] [--algorithms a b ...] [--check]``."""
    p = argparse.ArgumentParser(prog=prog, description=__doc__.split("\n")[0])
    p.add_argument("--out", required=True, type=Path, help="output folder for audit.csv and audit.md")
    p.add_argument("--trials", type=int, default=DEFAULT_TRIALS, help="measurement runs per table")
    p.add_argument("--algorithms", nargs="+", default=None, help="default: every private one")
    p.add_argument("--epsilon", type=float, default=1.0)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--alpha", type=float, default=DEFAULT_ALPHA)
    p.add_argument("--control-factor", type=float, default=CONTROL_NOISE_FACTOR)
    p.add_argument(
        "--power-factors",
        type=float,
        nargs="*",
        default=list(POWER_FACTORS),
        help="under-noising factors tried after the control while flagged (none: no power rows)",
    )
    p.add_argument("--no-controls", action="store_true")
    p.add_argument("--no-kernels", action="store_true", help="audit the twins only")
    p.add_argument(
        "--check",
        action="store_true",
        help="exit 1 if a real audit is flagged, a control that should be flagged is not, or (at the baseline's "
        "settings) a real row or power threshold drifted from the baseline",
    )
    p.add_argument("--power-table", action="store_true", help="also write power.csv and power.md")
    p.add_argument("--ladder", type=int, nargs="+", default=list(LADDER), help="power table: trials tried per factor")
    p.add_argument("--baseline", type=Path, default=BASELINE, help="the baseline --check compares with")
    p.add_argument("--write-baseline", action="store_true", help="rewrite --baseline from this run")
    args = p.parse_args(argv)
    settings = {"trials": args.trials, "seed": args.seed, "alpha": args.alpha, "epsilon": args.epsilon}
    settings["ladder"] = args.ladder
    df = audit_all(
        args.algorithms,
        args.epsilon,
        args.trials,
        args.seed,
        not args.no_controls,
        args.control_factor,
        args.alpha,
        args.power_factors,
        not args.no_kernels,
    )
    args.out.mkdir(parents=True, exist_ok=True)
    df.to_csv(args.out / "audit.csv", index=False)
    text = to_markdown(df, seed=args.seed, control_factor=args.control_factor, power_factors=args.power_factors)
    (args.out / "audit.md").write_text(text)
    print(text)
    power = None
    if args.power_table:
        power = power_table(args.algorithms, args.epsilon, args.seed, args.alpha, ladder=args.ladder)
        power.to_csv(args.out / "power.csv", index=False)
        (args.out / "power.md").write_text(power_markdown(power))
        print(power_markdown(power))
    if args.write_baseline:
        write_baseline(df, power if power is not None else pd.DataFrame(), settings, args.baseline)
    bad = failed_checks(df) if args.check else []
    if args.check:
        try:
            drifted = drift(df, power, settings, load_baseline(args.baseline))
        except ValueError as err:
            p.error(str(err))
        if drifted[:1] and drifted[0].startswith("settings differ"):  # flags checked; drift needs the same settings
            print(f"{prog}: note: {drifted[0]}", file=sys.stderr)
        else:
            bad += drifted
    for line in bad:
        print(f"{prog}: check failed: {line}", file=sys.stderr)
    return 1 if bad else 0
