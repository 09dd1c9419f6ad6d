"""``dpbandits privacy``: the privacy a run spends, against the promised one (:mod:`dpbandits.privacy`).

Exit status 0 when every accounted algorithm spends at most its promise, 1 when one exceeds, 2 for bad input.
"""

from __future__ import annotations

import argparse

from .simulate import _count, _param


def parser(prog: str = "dpbandits privacy") -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog=prog,
        description="Record every release of a private algorithm's runs (its fast kernel's release ledger), compose "
        "them per reward with a privacy accountant (pure sums; dp_accounting's PLD for (epsilon, delta)) and print "
        "the spent privacy of the worst reward against the promised one. Without --means/--horizon: the contract's "
        "setting.",
        epilog="examples:\n  dpbandits privacy dp_se --epsilon 0.5 --horizon 1e5 --means 0.9 0.6\n"
        "  dpbandits privacy dp_ucb_int --param int_update=literal\n  dpbandits privacy --all",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("algorithm", nargs="?", help="a private algorithm of dpbandits.ALGORITHMS")
    p.add_argument("--all", action="store_true", help="every private algorithm at its contract setting")
    p.add_argument("--means", type=float, nargs="+", help="Bernoulli means of the arms (BAI: the arms' means)")
    p.add_argument("--horizon", type=_count, help="pulls T (the budget for BAI)")
    p.add_argument("--epsilon", type=float, help="the promised epsilon (default: the contract's)")
    p.add_argument("--runs", type=_count, default=None, help="runs accounted; the worst counts (default 20)")
    p.add_argument("--seed", type=_count, default=0, help="root seed (default 0)")
    p.add_argument("--param", type=_param, action="append", default=[], metavar="NAME=VALUE", help="a parameter")
    return p


def main(argv=None, prog: str = "dpbandits privacy") -> int:
    args = parser(prog).parse_args(argv)
    import dpbandits  # noqa: F401  (registers the algorithms and plugins)

    from .. import privacy
    from ..core.registry import ALGORITHMS

    if args.all == bool(args.algorithm):
        raise ValueError("give one ALGORITHM or --all")
    names = [n for n, a in ALGORITHMS.items() if a.private] if args.all else [args.algorithm]
    kwargs = {"runs": args.runs} if args.runs else {}
    worst = 0
    for name in names:
        try:
            s = privacy.spent(name, args.epsilon, args.horizon, args.means, dict(args.param), seed=args.seed, **kwargs)
        except ValueError as err:
            if not args.all:
                raise
            print(f"{name}: not accounted: {err}", flush=True)  # --all goes on: a missing ledger fails the check
            worst = 1
            continue
        print(s.text(), flush=True)
        worst = max(worst, int(s.exceeds))
    return worst
