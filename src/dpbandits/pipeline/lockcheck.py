"""Compare the package versions a result file recorded with a lock file's pins.

``python -m dpbandits.pipeline.lockcheck RESULT.npz [--lock requirements/dev.lock]`` prints one line per package the
result file recorded (``dpbandits`` and ``python`` are not pinned by the lock) and exits 1 if a pin differs.
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

from .io import load_npz

LOCK = Path(__file__).resolve().parents[3] / "requirements" / "dev.lock"
_PIN = re.compile(r"^([A-Za-z0-9][A-Za-z0-9._-]*)==([^\s;]+)")


def _norm(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def pins(lock: str | Path) -> dict[str, set[str]]:
    """{package: versions pinned} of a ``name==version [; marker]`` lock (a universal lock may pin a package
    once per platform or Python)."""
    out: dict[str, set[str]] = {}
    for line in Path(lock).read_text().splitlines():
        if m := _PIN.match(line.strip()):
            out.setdefault(_norm(m.group(1)), set()).add(m.group(2))
    if not out:
        raise ValueError(f"{lock}: no 'name==version' pins: not a lock file")
    return out


def recorded(meta) -> dict[str, str]:
    """{package: version} of every ``versions`` mapping in a result file's meta; a package recorded with two
    versions raises (one job file is one environment)."""
    found: dict[str, str] = {}

    def walk(node):
        if isinstance(node, dict):
            for key, value in node.items():
                if key == "versions" and isinstance(value, dict):
                    for name, version in value.items():
                        if found.setdefault(_norm(name), str(version)) != str(version):
                            raise ValueError(f"{name} recorded as both {found[_norm(name)]} and {version}")
                else:
                    walk(value)
        elif isinstance(node, list):
            for item in node:
                walk(item)

    walk(meta)
    return found


def compare(result: str | Path, lock: str | Path = LOCK) -> list[tuple[str, str, str, bool]]:
    """(package, recorded, pinned, same) for each recorded package the lock pins."""
    meta, _ = load_npz(result)
    versions, locked = recorded(meta), pins(lock)
    if not versions:
        raise ValueError(f"{result}: records no package versions")
    return [
        (name, version, " or ".join(sorted(locked[name])), version in locked[name])
        for name, version in sorted(versions.items())
        if name in locked
    ]


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m dpbandits.pipeline.lockcheck", description=__doc__.splitlines()[0])
    parser.add_argument("results", nargs="+", help="result files (.npz)")
    parser.add_argument("--lock", default=str(LOCK), help="lock file (default: %(default)s)")
    args = parser.parse_args(argv)
    differ = False
    for path in args.results:
        for name, version, pinned, same in compare(path, args.lock):
            print(f"{path}: {name} {version} {'=' if same else '!='} lock {pinned}")
            differ |= not same
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
