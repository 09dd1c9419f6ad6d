"""``dpbandits simulate``: one algorithm on one instance from the command line (:mod:`dpbandits.cli`).

Its own module, so that editing it changes no pipeline rule's inputs (the modules' ``python -m`` entry
points import :mod:`dpbandits.cli`, whose imports the rules follow).
"""

from __future__ import annotations

import argparse


def _count(text: str) -> int:
    """An integer argument; 1e6 and 1_000_000 are accepted too."""
    try:
        return int(text)
    except ValueError:
        value = float(text)
        if not value.is_integer():
            raise argparse.ArgumentTypeError(f"not an integer: {text!r}") from None
        return int(value)


def _mapping(text: str) -> dict:
    """A YAML/JSON mapping argument such as ``{name: C2, k: 5}``."""
    import yaml

    try:
        value = yaml.safe_load(text)
    except yaml.YAMLError as err:
        raise argparse.ArgumentTypeError(f"not YAML: {text!r} ({str(err).splitlines()[0]})") from None
    if not isinstance(value, dict):
        raise argparse.ArgumentTypeError(f"not a mapping such as '{{name: C2, k: 5}}': {text!r}")
    return value


def _param(text: str) -> tuple[str, object]:
    """``NAME=VALUE`` with VALUE read as YAML (``beta=0.9``, ``tree=hybrid``, ``lazy=true``)."""
    import yaml

    name, sep, value = text.partition("=")
    if not sep or not name:
        raise argparse.ArgumentTypeError(f"expected NAME=VALUE, got {text!r}")
    try:
        return name, yaml.safe_load(value)
    except yaml.YAMLError:
        return name, value


def parser(prog: str = "dpbandits simulate") -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog=prog,
        description="Simulate runs of one algorithm (dpbandits.simulate or dpbandits.simulate_bai) "
        "and print a summary; --out also saves the runs (.npz: every array and the metadata; .csv: one row per run).",
        epilog="examples:\n  dpbandits simulate dp_se --means 0.9 0.6 --horizon 1e5 --epsilon 0.5 --runs 10\n"
        "  dpbandits simulate ucb --instance '{name: C2, k: 5}' --horizon 10000 --out runs.csv\n"
        "  dpbandits simulate dp_bai --instance '{name: two_arm, ratio: 10}' --horizon 2000 --epsilon 0.1",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("algorithm", help="a name in dpbandits.ALGORITHMS (regret or bai)")
    where = p.add_mutually_exclusive_group(required=True)
    where.add_argument("--means", type=float, nargs="+", help="Bernoulli means of the arms (regret algorithms)")
    where.add_argument(
        "--instance",
        type=_mapping,
        help="an instance as in the pipeline config, e.g. '{name: C2, k: 5}' or, for BAI, '{name: two_arm, ratio: 10}'",
    )
    p.add_argument("--horizon", type=_count, required=True, help="pulls T (the budget for BAI)")
    p.add_argument("--epsilon", type=float, default=None, help="privacy parameter (omit for non-private ones)")
    p.add_argument("--runs", type=_count, default=10, help="independent runs (default 10)")
    p.add_argument("--seed", type=_count, default=0, help="root seed (default 0)")
    p.add_argument(
        "--param",
        type=_param,
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="an algorithm parameter (repeatable); see ALGORITHMS[name].params",
    )
    p.add_argument(
        "--rewards",
        default=None,
        help="reward law of a regret instance: bernoulli (default), beta or uniform (docs/reward-laws.md); "
        "or the instance's rewards key",
    )
    p.add_argument("--out", default=None, help="save the runs to this .npz or .csv file")
    return p


def main(argv=None, prog: str = "dpbandits simulate") -> int:
    """``dpbandits simulate``: run, print a summary, optionally save."""
    p = parser(prog)
    args = p.parse_args(argv)
    if args.out is not None and not args.out.endswith((".npz", ".csv")):
        p.error(f"--out must end in .npz or .csv, got {args.out!r}")
    from ..core import registry

    alg = registry.get(args.algorithm)
    params = dict(args.param)
    if alg.private and args.epsilon is None:
        p.error(f"--epsilon is required: {args.algorithm} is private")
    if alg.kind == "bai":
        from ..bai import instance_for, simulate_bai

        if args.instance is None:
            p.error(f"{args.algorithm} is a BAI algorithm: give --instance (arms and theta), not --means")
        if args.rewards is not None:
            p.error("--rewards is for regret algorithms: a BAI instance sets its law with its reward key")
        arms, theta, reward = instance_for(args.instance)
        res = simulate_bai(
            args.algorithm, arms, theta, args.horizon, args.epsilon, args.runs, args.seed, **reward, **params
        )
        arrays = {"recommended": res.recommended, "success": res.success}
        summary = f"success rate {res.success_rate:.4f} over {res.success.size} runs"
    else:
        from ..core.instances import means_for
        from ..core.simulate import simulate

        means = args.means if args.instance is None else means_for(args.instance)
        given = None if args.instance is None else args.instance.get("rewards")
        if args.rewards is not None and given is not None and args.rewards != given:
            p.error(f"--rewards {args.rewards} contradicts the instance's rewards: {given}")
        rewards = args.rewards or given or "bernoulli"
        res = simulate(
            args.algorithm, means, args.horizon, args.epsilon, args.runs, args.seed, rewards=rewards, **params
        )
        arrays = {
            "checkpoints": res.checkpoints,
            "regret": res.regret,
            "pulls": res.pulls,
            "reward_sum": res.reward_sum,
        }
        final = res.regret[:, -1]
        sem = final.std(ddof=1) / final.size**0.5 if final.size > 1 else float("nan")
        summary = (
            f"final regret {final.mean():.6g} +- {sem:.3g} (mean +- s.e. over {final.size} runs); "
            f"mean pulls per arm {', '.join(f'{x:.6g}' for x in res.pulls.mean(axis=0))}"
        )
    print(f"{args.algorithm} ({alg.kind}), horizon {args.horizon}, epsilon {args.epsilon}, seed {args.seed}: {summary}")
    if args.out:
        _save(args.out, res.meta, arrays)
        print(f"wrote {args.out}")
    return 0


def _save(path: str, meta: dict, arrays: dict) -> None:
    """Save a simulation's arrays: .npz with its metadata (checksummed, :func:`dpbandits.pipeline.io.save_npz`),
    or .csv."""
    import json
    from pathlib import Path

    import numpy as np

    if path.endswith(".npz"):
        from ..pipeline.io import save_npz

        save_npz(path, json.loads(json.dumps(meta, default=lambda o: np.asarray(o).tolist())), **arrays)
        return
    import pandas as pd

    Path(path).parent.mkdir(parents=True, exist_ok=True)
    table = {"run": np.arange(len(arrays["regret"] if "regret" in arrays else arrays["recommended"]))}
    if "regret" in arrays:
        table["regret"] = arrays["regret"][:, -1]
        table["reward_sum"] = arrays["reward_sum"]
        table.update({f"pulls_{i}": arrays["pulls"][:, i] for i in range(arrays["pulls"].shape[1])})
    else:
        table.update(recommended=arrays["recommended"], success=arrays["success"])
    pd.DataFrame(table).to_csv(path, index=False)
