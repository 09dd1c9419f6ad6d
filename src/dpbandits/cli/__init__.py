"""The ``dpbandits`` command: one entry point for simulating, benchmarking, auditing and configuring.

``dpbandits COMMAND --help`` describes each command. Exit status: 0 success, 1 a failed check
(``audit --check``, ``privacy`` over the promise, ``config --check``, ``docs`` with warnings), 2 bad usage or
input (argparse's convention; a ``ValueError`` from the package's validation is printed as one line, without a
traceback).
``python -m dpbandits.bench``, ``.audit`` and ``.configfile`` run the same code as the matching command.
"""

from __future__ import annotations

import argparse
import importlib
import sys

#: command -> (module, function called with (argv, prog), one-line summary)
COMMANDS = {
    "simulate": ("dpbandits.cli.simulate", "main", "simulate one algorithm on one instance; print or save the runs"),
    "bench": ("dpbandits.bench.cli", "main", "time every regret kernel against its reference twin"),
    "audit": ("dpbandits.audit.cli", "main", "statistical privacy audit of the private algorithms"),
    "privacy": ("dpbandits.cli.privacy", "main", "the privacy a run spends (its release ledger), against the promise"),
    "config": (
        "dpbandits.pipeline.configfile",
        "main",
        "validate pipeline configs; regenerate config/README.md's tables",
    ),
    "docs": ("dpbandits.cli.apidocs", "main", "build the HTML API reference from the docstrings (needs pdoc)"),
}


def _parser() -> argparse.ArgumentParser:
    from .. import __version__

    lines = "\n".join(f"  {name:<10}{summary}" for name, (_, _, summary) in COMMANDS.items())
    p = argparse.ArgumentParser(
        prog="dpbandits",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        description="Differentially private bandits: fast exact simulation, benchmark, privacy audit.",
        epilog=f"commands:\n{lines}\n\n'dpbandits COMMAND --help' describes a command. Exit status: 0 ok, "
        "1 a failed check, 2 bad usage or input.",
    )
    p.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    p.add_argument("command", choices=list(COMMANDS), metavar="COMMAND", help="one of: " + ", ".join(COMMANDS))
    return p


def main(argv=None) -> int:
    """Run ``dpbandits`` with ``argv`` (default ``sys.argv[1:]``); return the exit status."""
    argv = list(sys.argv[1:] if argv is None else argv)
    if not argv or argv[0] not in COMMANDS:  # --help, --version or a bad command: argparse answers and exits
        _parser().parse_args(argv[:1])
    name, rest = argv[0], argv[1:]
    module, func, _ = COMMANDS[name]
    prog = f"dpbandits {name}"
    try:
        status = getattr(importlib.import_module(module), func)(rest, prog=prog)
    except ValueError as err:  # the package's validation: one line naming the culprit
        print(f"{prog}: error: {err}", file=sys.stderr)
        return 2
    return status if isinstance(status, int) else 0


if __name__ == "__main__":
    sys.exit(main())
